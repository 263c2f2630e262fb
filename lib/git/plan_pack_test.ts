import assert from "node:assert/strict";
import { packChunks, type PackItem } from "./plan_pack.ts";

/** 300 files in 15 directories, 1–13 pieces' worth of bytes each (one piece per file). */
function files(grow: { at: number; bytes: number } = { at: -1, bytes: 0 }): PackItem[] {
  return Array.from({ length: 300 }, (_, i) => ({
    file: i,
    path: `dir${String(Math.floor(i / 20)).padStart(2, "0")}/f${String(i).padStart(3, "0")}.ts`,
    seq: 0,
    bytes: 500 * (1 + ((i * 7919) % 13)) + (i === grow.at ? grow.bytes : 0),
  }));
}

const LIMITS = { chunkBytes: 60_000, maxChunks: 40 };

/** The chunks as lists of paths, one string per chunk. */
function chunkKeys(items: PackItem[], chunks: number[][]): string[] {
  return chunks.map((chunk) => chunk.map((k) => items[k].path).join(","));
}

Deno.test("packChunks keeps every item once, in path order, with no chunk over its size", () => {
  const items = files();
  const { chunks, dropped } = packChunks(items, LIMITS);
  assert.deepEqual(dropped, []);
  assert.deepEqual(chunks.flat(), items.map((_, i) => i), "every item once, in order");
  for (const chunk of chunks) {
    assert.ok(chunk.reduce((n, k) => n + items[k].bytes, 0) <= LIMITS.chunkBytes);
  }
  const tooLarge = [...items, { file: 300, path: "z/huge", seq: 0, bytes: 70_000 }];
  assert.deepEqual(packChunks(tooLarge, LIMITS).dropped, [300]);
  assert.deepEqual(packChunks([], LIMITS), { chunks: [], dropped: [] });
});

Deno.test("packChunks keeps boundaries away from a file early in the change that grows", () => {
  const base = files();
  const before = chunkKeys(base, packChunks(base, LIMITS).chunks);
  assert.ok(before.length >= 8, `${before.length} chunks`);
  // a small growth fits its chunk: no boundary moves at all
  for (const at of [0, 2, 50]) {
    const items = files({ at, bytes: 500 });
    assert.deepEqual(chunkKeys(items, packChunks(items, LIMITS).chunks), before, `grow ${at}`);
  }
  // a growth its chunk cannot hold re-cuts a few chunks around it, never the rest of the change
  for (
    const grow of [{ at: 0, bytes: 40_000 }, { at: 2, bytes: 20_000 }, { at: 50, bytes: 40_000 }]
  ) {
    const items = files(grow);
    const after = chunkKeys(items, packChunks(items, LIMITS).chunks);
    const kept = before.filter((key) => after.includes(key));
    assert.ok(kept.length >= before.length - 3, `${kept.length} of ${before.length} kept`);
    const far = before.filter((key) =>
      Number(key.slice(key.indexOf("/f") + 2, key.indexOf("/f") + 5)) > grow.at + 80
    );
    assert.ok(far.length > 0);
    for (const key of far) assert.ok(after.includes(key), `${key.slice(0, 30)}… moved`);
  }
});

Deno.test("packChunks merges, then packs densely, to stay within maxChunks", () => {
  const items = files();
  const stable = packChunks(items, LIMITS).chunks.length;
  const total = items.reduce((n, item) => n + item.bytes, 0);
  const fewest = Math.ceil(total / LIMITS.chunkBytes);
  assert.ok(stable > fewest, "stable packing uses more chunks than dense packing");
  const tight = packChunks(items, { chunkBytes: LIMITS.chunkBytes, maxChunks: fewest + 1 });
  assert.ok(tight.chunks.length <= fewest + 1);
  assert.deepEqual(tight.dropped, [], "everything still fits");
  const capped = packChunks(items, { chunkBytes: LIMITS.chunkBytes, maxChunks: 2 });
  assert.equal(capped.chunks.length, 2);
  const shown = capped.chunks.flat().reduce((n, k) => n + items[k].bytes, 0);
  assert.ok(shown > 2 * LIMITS.chunkBytes - 7_000, "the chunks are filled before dropping");
  assert.equal(capped.chunks.flat().length + capped.dropped.length, items.length);
});
