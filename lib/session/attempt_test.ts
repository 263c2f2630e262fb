import assert from "node:assert/strict";
import { addUsage, latestUsage } from "./attempt.ts";

Deno.test("latestUsage() keeps the session's running totals, never their sum", () => {
  assert.deepEqual(latestUsage(undefined, { inputTokens: 2 }), { inputTokens: 2 });
  assert.deepEqual(
    latestUsage({ inputTokens: 2, cacheReadTokens: 1 }, { inputTokens: 3, outputTokens: 4 }),
    { inputTokens: 3, outputTokens: 4, cacheReadTokens: 1 },
  );
  assert.deepEqual(
    latestUsage({ inputTokens: 20, outputTokens: 10 }, { inputTokens: 0, outputTokens: 0 }),
    { inputTokens: 20, outputTokens: 10 },
    "a resume's error envelope reporting zeros does not erase the totals",
  );
});

Deno.test("addUsage() adds up attempts that report their own tokens (capabilities.attemptUsage)", () => {
  assert.deepEqual(addUsage(undefined, { inputTokens: 10, outputTokens: 5 }), {
    inputTokens: 10,
    outputTokens: 5,
  });
  assert.deepEqual(
    addUsage({ inputTokens: 10, outputTokens: 5 }, { inputTokens: 20, cacheReadTokens: 3 }),
    { inputTokens: 30, outputTokens: 5, cacheReadTokens: 3 },
  );
});
