import assert from "node:assert/strict";
import { sumUsage } from "./attempt.ts";

Deno.test("sumUsage() adds present fields and leaves absent ones absent", () => {
  assert.deepEqual(sumUsage(undefined, { inputTokens: 2 }), { inputTokens: 2 });
  assert.deepEqual(
    sumUsage({ inputTokens: 2, cacheReadTokens: 1 }, { inputTokens: 3, outputTokens: 4 }),
    { inputTokens: 5, outputTokens: 4, cacheReadTokens: 1 },
  );
});
