import assert from "node:assert/strict";
import { changedLineRanges, ChangedLinesCollector, unpackLineRanges } from "./changed_lines.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const HEADER = "diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n";

Deno.test("changedLineRanges() reads the new side of every hunk", async (t) => {
  const cases: [string, string, [number, number][]][] = [
    ["one edited line", "@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n", [[2, 2]]],
    [
      "two hunks, an insertion of two lines",
      "@@ -1,2 +1,3 @@\n a\n+b\n c\n@@ -10,3 +11,5 @@\n j\n+k\n+l\n m\n n\n",
      [[2, 2], [12, 13]],
    ],
    ["adjacent changes merge", "@@ -1,2 +1,3 @@\n-a\n+A\n+B\n c\n", [[1, 2]]],
    ["a pure deletion marks the lines around it", "@@ -3,4 +3,2 @@\n c\n-d\n-e\n f\n", [[3, 4]]],
    ["a deletion at the top marks line 1", "@@ -1,2 +1,1 @@\n-a\n b\n", [[1, 1]]],
    ["a new file", "@@ -0,0 +1,3 @@\n+a\n+b\n+c\n", [[1, 3]]],
    ["a count of one has no comma", "@@ -5 +5 @@\n-e\n+E\n", [[5, 5]]],
    ["a file emptied", "@@ -1,2 +0,0 @@\n-a\n-b\n", [[1, 1]]],
    [
      "no newline at end of file",
      "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+B\n\\ No newline at end of file\n",
      [[2, 2]],
    ],
    ["CRLF lines", "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n", [[2, 2]]],
    ["a section without hunks", "", []],
  ];
  for (const [name, body, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        changedLineRanges(bytes(HEADER + body)),
        expected.map(([start, end]) => ({ start, end })),
      );
    });
  }
});

Deno.test("ChangedLinesCollector gives each file its hunks' lines, sorted and merged", () => {
  const collector = new ChangedLinesCollector();
  const hunk = (newStart: number, newLines: number, body: string) =>
    [{ newStart, newLines }, bytes(body)] as const;
  // file 0: two hunks; file 2: a later section (a type change's second one) comes back to it
  // with lines before its first, and a range touching another merges with it
  collector.add(0, ...hunk(1, 3, " x\n-y\n+Y\n z\n"));
  collector.add(2, ...hunk(10, 2, "+a\n+b\n"));
  collector.add(0, ...hunk(20, 2, " a\n+b\n"));
  collector.add(2, ...hunk(1, 3, "+a\n+b\n c\n"));
  collector.add(2, ...hunk(12, 1, "+c\n"));
  collector.add(3, ...hunk(5, 0, "-gone\n"));
  const [first, none, third, emptied] = collector.finish(4).map((packed) =>
    packed && unpackLineRanges(packed)
  );
  assert.deepEqual(first, [{ start: 2, end: 2 }, { start: 21, end: 21 }]);
  assert.equal(none, null, "a file with no hunk has no ranges");
  assert.deepEqual(third, [{ start: 1, end: 2 }, { start: 10, end: 12 }]);
  assert.deepEqual(emptied, [{ start: 5, end: 6 }], "a pure deletion marks the lines around it");
  assert.deepEqual(collector.finish(1), [null], "finish empties the collector");
});

Deno.test("ChangedLinesCollector.addLines() gives what add() reads from the body, for every part the reader cuts", async () => {
  const { PatchReader } = await import("./patch_reader.ts");
  // a seeded mix of context, edits, pure insertions and deletions, "\ No newline" lines, and a
  // long line, cut into small parts (repeated context, runs split across parts)
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 30; round++) {
    const body: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    for (let i = 0; i < 400; i++) {
      const r = random();
      const text = r < 0.02 ? "z".repeat(700) : `line ${i}`;
      if (r < 0.45) (body.push(` ${text}`), oldLines++, newLines++);
      else if (r < 0.7) (body.push(`-${text}`), oldLines++);
      else if (r < 0.97) (body.push(`+${text}`), newLines++);
      else body.push("\\ No newline at end of file");
    }
    const start = 1 + Math.floor(random() * 50);
    const patch = `${HEADER}@@ -${start},${oldLines} +${start},${newLines} @@ f()\n${
      body.join("\n")
    }\n`;
    const byBody = new ChangedLinesCollector();
    const byLines = new ChangedLinesCollector();
    let parts = 0;
    const reader = new PatchReader(
      { cutBytes: 256 + Math.floor(random() * 2000), keepBytes: 500 },
      {
        section() {},
        hunk(info, _head, bodyBytes, lines) {
          parts++;
          byBody.add(round % 3, info, bodyBytes);
          byLines.addLines(round % 3, lines);
        },
      },
    );
    const all = bytes(patch);
    for (let at = 0; at < all.length; at += 97) reader.push(all.subarray(at, at + 97));
    reader.end();
    assert.ok(parts > 1, "the hunk was cut into parts");
    assert.deepEqual(byLines.finish(3), byBody.finish(3), `round ${round}`);
  }
});
