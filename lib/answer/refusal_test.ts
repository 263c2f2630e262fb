import assert from "node:assert/strict";
import { capRefusal, formatRefusal } from "./refusal.ts";

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

Deno.test("capRefusal() keeps the first entries and counts the rest", () => {
  const list = Array.from({ length: 25 }, (_, i) => ({ path: `/findings/${i}`, problem: "p" }));
  assert.deepEqual(capRefusal(list, 30), list);
  assert.deepEqual(capRefusal(list, 25), list);
  const capped = capRefusal(list, 20);
  assert.equal(capped.length, 21);
  assert.deepEqual(capped.slice(0, 20), list.slice(0, 20));
  assert.deepEqual(capped[20], { path: "", problem: "… and 5 more problems" });
  assert.deepEqual(capRefusal(list, 24)[24], { path: "", problem: "… and 1 more problem" });
});
