import assert from "node:assert/strict";
import { closestNames, editDistance } from "./closest.ts";

Deno.test("editDistance() counts insertions, deletions, substitutions and swaps of neighbours", () => {
  assert.equal(editDistance("on_eror", "on_error"), 1);
  assert.equal(editDistance("fial_on", "fail_on"), 1, "a swap is one edit");
  assert.equal(editDistance("abc", "abc"), 0);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

Deno.test("closestNames() keeps the nearest names within 3 edits and 40% similarity", () => {
  const keys = ["provider", "model", "fail_on", "max_calls", "max_turns", "jobs"];
  assert.deepEqual(closestNames("providr", keys), ["provider"]);
  assert.deepEqual(closestNames("Fail_On", keys), ["fail_on"], "case is ignored");
  assert.deepEqual(closestNames("max_call", keys), ["max_calls"]);
  assert.deepEqual(closestNames("max_tall", keys), ["max_calls"], "the nearest wins");
  assert.deepEqual(closestNames("xyzzy", keys), []);
  assert.deepEqual(closestNames("job", ["jobs", "jab"]), ["jobs", "jab"], "ties in order");
  assert.deepEqual(closestNames("ab", ["xy"]), [], "short names need similarity too");
  assert.deepEqual(closestNames("model", keys), [], "the name itself is no suggestion");
});
