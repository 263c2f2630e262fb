import assert from "node:assert/strict";
import { PIECES_TAG, sha256Hex, sha256OfPieces } from "./sha256.ts";

const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

Deno.test("sha256Hex() hashes text, bytes and several parts as their concatenation", async (t) => {
  const cases: [string, Parameters<typeof sha256Hex>[0], string][] = [
    ["empty text", "", EMPTY],
    ["empty part list", [], EMPTY],
    ["text", "abc", ABC],
    ["bytes", new Uint8Array([97, 98, 99]), ABC],
    ["mixed parts", ["a", new Uint8Array([98]), "", "c"], ABC],
    ["a view into a larger buffer", new Uint8Array([0, 97, 98, 99, 0]).subarray(1, 4), ABC],
  ];
  for (const [name, data, want] of cases) {
    await t.step(name, async () => assert.equal(await sha256Hex(data), want));
  }
});

Deno.test("sha256Hex() hashes UTF-8 text like its encoded bytes", async () => {
  const text = "héllo\0wörld";
  assert.equal(await sha256Hex(text), await sha256Hex(new TextEncoder().encode(text)));
  assert.notEqual(await sha256Hex(["ab", "c"]), await sha256Hex(["ab", "\0", "c"]));
});

Deno.test("sha256OfPieces() hashes one piece as sha256Hex() of the parts and it joined", async () => {
  const { jsonPieces } = await import("./json_pieces.ts");
  const value = { a: 1 };
  const parts = ["digest", "\0", new Uint8Array([1, 2, 3])];
  const want = await sha256Hex([...parts, JSON.stringify(value)]);
  assert.equal(await sha256OfPieces(parts, jsonPieces(value, { indent: 0 })), want);
  assert.equal(await sha256OfPieces(["x"], []), await sha256Hex("x"));
});

Deno.test("sha256OfPieces() hashes more pieces by their own digests, in order", async () => {
  const { jsonPieces } = await import("./json_pieces.ts");
  const large = Array.from({ length: 20_000 }, (_, k) => ({ k, s: `é${k}` }));
  const pieces = [...jsonPieces(large, { indent: 0 })];
  assert.ok(pieces.length > 2, "the value is several pieces");
  const digests = await Promise.all(pieces.map((p) => sha256Hex(p)));
  const parts = ["digest", "\0"];
  assert.equal(
    await sha256OfPieces(parts, jsonPieces(large, { indent: 0 })),
    await sha256Hex([...parts, PIECES_TAG, ...digests]),
  );
  const changed = structuredClone(large);
  changed[19_999].k = -1;
  assert.notEqual(
    await sha256OfPieces(parts, jsonPieces(changed, { indent: 0 })),
    await sha256OfPieces(parts, jsonPieces(large, { indent: 0 })),
    "another value, another digest",
  );
});
