import { equal, throws } from "node:assert/strict";
import { jsonPieces, type PieceOptions } from "./json_pieces.ts";

const joined = (value: unknown, options: PieceOptions = { pieceChars: 7, smallNodes: 1 }) =>
  [...jsonPieces(value, options)].join("");

Deno.test("jsonPieces() joined is JSON.stringify(value, null, 2), walked or not", () => {
  const values: unknown[] = [
    null,
    0,
    -1.5e300,
    NaN,
    'multi\nline "quoted" \u2028 é 😀',
    [],
    {},
    [[], {}, [[]], { a: {} }],
    { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1, Symbol("t")] },
    { when: new Date(Date.UTC(2026, 11, 3)), nested: { toJSON: () => ({ replaced: [1, 2] }) } },
    { skippedByToJSON: { toJSON: () => undefined }, kept: 1 },
    Object.assign(Object.create(null), { bare: [1, "x", { y: true }] }),
    // arrays whose first element is small and others large (the size estimate samples)
    [1, Array.from({ length: 40 }, (_, i) => ({ i, s: [i, [i]] })), {
      deep: [[[[[[[[[[1]]]]]]]]]],
    }],
    new Map([[1, 2]]),
    {
      coverage: {
        omitted: Array.from({ length: 50 }, (_, i) => ({
          path: `src/f${i}.ts`,
          hunks: Array.from({ length: i % 7 }, (_, k) => ({ oldStart: k, oldLines: 7 })),
        })),
      },
    },
  ];
  for (const value of values) {
    for (
      const options of [{ pieceChars: 1, smallNodes: 0 }, { pieceChars: 7, smallNodes: 3 }, {}]
    ) {
      equal(joined(value, options), JSON.stringify(value, null, 2));
      equal(joined(value, { ...options, indent: 0 }), JSON.stringify(value));
    }
  }
  equal([...jsonPieces(undefined)].length, 0);
});

Deno.test("jsonPieces() hands a large value over in pieces of about the size asked", () => {
  const value = { hunks: Array.from({ length: 20_000 }, (_, k) => ({ oldStart: k, oldLines: 7 })) };
  const pieces = [...jsonPieces(value, { pieceChars: 4096, smallNodes: 64 })];
  equal(pieces.join(""), JSON.stringify(value, null, 2));
  const longest = Math.max(...pieces.map((p) => p.length));
  equal(pieces.length > 100 && longest < 4096 + 2048, true, `${pieces.length} pieces, ${longest}`);
});

Deno.test("jsonPieces() throws on a cycle and a BigInt, as JSON.stringify does", () => {
  const cycle: Record<string, unknown> = { list: [1, 2, 3] };
  (cycle.list as unknown[]).push(cycle);
  throws(() => joined(cycle, { pieceChars: 7, smallNodes: 0 }), TypeError);
  throws(() => joined({ n: [1n] }, { pieceChars: 7, smallNodes: 0 }), TypeError);
});
