import assert from "node:assert/strict";
import { assignParts, MAX_SHARDS, parseShardSpec, partsText } from "./shards.ts";

Deno.test("parts are dealt out by bytes, largest first, to the shard with the fewest bytes", () => {
  // 8 parts of uneven size into 3 shards: 3,600 bytes, 1,200 each
  const bytes = [900, 100, 400, 400, 300, 800, 200, 500];
  const dealt = assignParts(bytes, 3);
  assert.deepEqual(dealt, [[0, 4], [3, 5], [1, 2, 6, 7]]);
  const sums = dealt.map((parts) => parts.reduce((n, p) => n + bytes[p], 0));
  assert.deepEqual(sums, [1200, 1200, 1200]);
  assert.deepEqual(dealt.flat().sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7], "each part once");
});

Deno.test("the deal depends on the sizes alone: ties go to the lower part and the lower shard", () => {
  assert.deepEqual(assignParts([5, 5, 5, 5], 2), [[0, 2], [1, 3]]);
  assert.deepEqual(assignParts([5, 5, 5, 5], 2), assignParts([5, 5, 5, 5], 2));
  assert.deepEqual(
    assignParts([1, 2], 4),
    [[1], [0], [], []],
    "more shards than parts: some get none",
  );
  assert.deepEqual(assignParts([], 2), [[], []]);
  assert.deepEqual(assignParts([3, 1, 2], 1), [[0, 1, 2]]);
});

Deno.test("--shard i/n: whole numbers with 1 ≤ i ≤ n ≤ MAX_SHARDS", () => {
  assert.deepEqual(parseShardSpec("1/1"), { index: 1, count: 1 });
  assert.deepEqual(parseShardSpec(" 4 / 4 "), { index: 4, count: 4 });
  for (const bad of ["0/2", "3/2", "2", "1/0", "a/b", "1.5/2", `1/${MAX_SHARDS + 1}`, "-1/2", ""]) {
    assert.throws(() => parseShardSpec(bad), /Invalid --shard/, bad);
  }
});

Deno.test("part numbers in words", () => {
  assert.equal(partsText([], 4), "no part");
  assert.equal(partsText([2], 4), "part 2 of 4");
  assert.equal(partsText([1, 3, 4], 4), "parts 1, 3 and 4 of 4");
});
