import assert from "node:assert/strict";
import { formatRefusal } from "./refusal.ts";

Deno.test("formatRefusal() prints one line per refusal and names the whole answer", () => {
  assert.equal(
    formatRefusal([
      { path: "", problem: 'missing required key "summary"' },
      { path: "/findings/0/line_end", problem: "must be >= 1" },
    ]),
    '(answer): missing required key "summary"\n`/findings/0/line_end`: must be >= 1',
  );
  assert.equal(formatRefusal([]), "");
});
