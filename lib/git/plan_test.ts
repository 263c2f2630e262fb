import assert from "node:assert/strict";
import { assertCoverageWithinDiff } from "./_coverage_testing.ts";
import { parseSection, PatchReader } from "./patch_reader.ts";
import { type PlanFile, type PlanLimits, Planner } from "./plan.ts";

/** A file whose diff has `hunks` hunks of `lines` added lines each, 10 lines apart. */
function file(path: string, hunks: number, lines = 1): PlanFile {
  let text = `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n`;
  for (let h = 0; h < hunks; h++) {
    const start = 1 + h * (lines + 10);
    text += `@@ -${start - h * lines},0 +${start},${lines} @@\n`;
    for (let l = 0; l < lines; l++) text += `+${path} hunk ${h} line ${l}\n`;
  }
  return { path, sections: [parseSection(text)] };
}

/** Plan `files`; every plan made here keeps the coverage invariant (never more than the diff). */
function plan(files: PlanFile[], limits: PlanLimits) {
  const planner = new Planner(limits);
  for (const f of files) planner.add(f);
  const result = planner.finish();
  assertCoverageWithinDiff(result.coverage, files.reduce((n, f) => n + bytes(f), 0));
  return result;
}

const bytes = (f: PlanFile) =>
  f.sections.reduce((n, s) => n + s.headerBytes + s.hunks.reduce((m, h) => m + h.bytes, 0), 0);

/** Stream `text` (one or more sections) into a planner through a reader, as collection does. */
function streamed(text: string, limits: PlanLimits, cutBytes: number) {
  const planner = new Planner(limits);
  planner.file(0, "f.txt");
  const reader = new PatchReader({ cutBytes }, {
    section: (header) => planner.section(header),
    hunk: (info, head, body) => planner.hunk(info, head, body),
  });
  const bytes = new TextEncoder().encode(text);
  reader.push(bytes);
  reader.end();
  const result = planner.finish();
  assertCoverageWithinDiff(result.coverage, bytes.length);
  return result;
}

Deno.test("Planner keeps a change that fits whole, in path order, in one chunk", () => {
  const files = [file("a", 2), file("b/c", 1), file("d", 3)];
  const total = files.reduce((n, f) => n + bytes(f), 0);
  const result = plan(files, { chunkBytes: total, pieceBytes: total, maxChunks: 1 });
  assert.equal(result.chunks.length, 1);
  assert.deepEqual(result.chunks[0].paths, ["a", "b/c", "d"]);
  assert.equal(result.chunks[0].bytes, total);
  assert.equal(result.chunks[0].lines, 6);
  assert.deepEqual(result.coverage, {
    status: "complete",
    omitted: [],
    reviewedLines: 6,
    omittedLines: 0,
    reviewedBytes: total,
    omittedBytes: 0,
  });
  assert.deepEqual(result.fileOmitted, [undefined, undefined, undefined]);
  assert.ok(result.chunks[0].diff.startsWith("diff --git a/a b/a\n"));
});

Deno.test("Planner shows the hunks of a large file that fit and names the rest by line range", () => {
  const big = file("big.ts", 40, 20); // 40 hunks of 20 lines
  const small = file("small.ts", 1);
  const result = plan([big, small], {
    chunkBytes: Math.floor(bytes(big) / 3),
    pieceBytes: 4096,
    maxChunks: 1,
  });
  const [chunk] = result.chunks;
  assert.ok(chunk.paths.includes("big.ts") && chunk.paths.includes("small.ts"));
  assert.equal(result.coverage.status, "partial");
  const [omitted] = result.coverage.omitted;
  assert.equal(omitted.path, "big.ts");
  assert.equal(omitted.reason, "budget");
  assert.ok(omitted.hunks && omitted.hunks.length > 10, "named by hunk");
  const shownHunks = chunk.diff.match(/^@@ /gm)!.length - 1; // minus small.ts's
  assert.equal(shownHunks + omitted.hunks!.length, 40, "every hunk is shown or named");
  assert.equal(omitted.lines, omitted.hunks!.length * 20);
  assert.equal(result.coverage.reviewedLines + result.coverage.omittedLines, 40 * 20 + 1);
  // the named ranges are exactly the hunks missing from the diff
  for (const h of omitted.hunks!) {
    assert.ok(!chunk.diff.includes(`+${h.newStart},20 @@`), `${h.newStart} is not shown`);
  }
  assert.equal(result.fileOmitted[0], undefined, "part of big.ts is shown");
  assert.ok(chunk.bytes <= Math.floor(bytes(big) / 3));
  assert.equal(chunk.diff.match(/^diff --git a\/big\.ts/gm)!.length, 1, "header written once");
});

Deno.test("Planner drops the largest pieces first when the change is over capacity", () => {
  const files = [file("huge", 30, 20), file("s1", 1), file("s2", 1), file("mid", 3, 10)];
  const small = bytes(files[1]) + bytes(files[2]);
  const result = plan(files, { chunkBytes: small + 10, pieceBytes: 1 << 20, maxChunks: 1 });
  assert.deepEqual(result.chunks[0].paths, ["s1", "s2"]);
  assert.deepEqual(result.coverage.omitted.map((o) => [o.path, o.hunks]), [
    ["huge", undefined],
    ["mid", undefined],
  ]);
  assert.deepEqual(result.fileOmitted, ["budget", undefined, undefined, "budget"]);
});

Deno.test("Planner packs chunks in path order, splits a file across chunks, and stops at maxChunks", () => {
  const files = Array.from(
    { length: 12 },
    (_, i) => file(`dir${i % 3}/f${String(i).padStart(2, "0")}`, 2, 5),
  );
  const each = bytes(files[0]);
  const result = plan(files, { chunkBytes: each * 4, pieceBytes: each, maxChunks: 3 });
  assert.equal(result.chunks.length, 3);
  assert.deepEqual(result.chunks.map((c) => c.paths.length), [4, 4, 4]);
  assert.equal(result.coverage.status, "complete");
  const capped = plan(files, { chunkBytes: each * 4, pieceBytes: each, maxChunks: 2 });
  assert.equal(capped.chunks.length, 2);
  assert.equal(capped.coverage.omitted.length, 4);
  assert.equal(capped.coverage.status, "partial");
  // one file larger than a chunk spreads over several chunks, at hunk boundaries
  const wide = file("wide", 12, 10);
  const spread = plan([wide], {
    chunkBytes: bytes(wide) / 3 + 200,
    pieceBytes: 1 << 20,
    maxChunks: 4,
  });
  assert.ok(spread.chunks.length >= 3);
  assert.equal(spread.coverage.status, "complete");
  assert.equal(spread.chunks.reduce((n, c) => n + c.lines, 0), 120);
});

Deno.test("Planner lists what collection could not show, and whole files it had nothing for", () => {
  const binary: PlanFile = {
    path: "logo.png",
    sections: [],
    omitted: [{ path: "logo.png", reason: "binary", lines: 0, bytes: 2048 }],
  };
  const result = plan([file("a", 1), binary], {
    chunkBytes: 1 << 20,
    pieceBytes: 1 << 20,
    maxChunks: 1,
  });
  assert.equal(result.coverage.status, "partial");
  assert.deepEqual(result.coverage.omitted, binary.omitted);
  assert.equal(result.coverage.omittedBytes, 2048);
  assert.deepEqual(result.fileOmitted, [undefined, "binary"]);
  const nothing = plan([binary], { chunkBytes: 1 << 20, pieceBytes: 1 << 20, maxChunks: 1 });
  assert.deepEqual(nothing.chunks, []);
  assert.equal(nothing.coverage.reviewedBytes, 0);
});

Deno.test("Planner plans 10,000 tiny files into at most maxChunks chunks, each file once", () => {
  const files = Array.from({ length: 10_000 }, (_, i) => file(`d${i % 100}/f${i}.txt`, 1));
  const total = files.reduce((n, f) => n + bytes(f), 0);
  const limits = { chunkBytes: 400_000, pieceBytes: 65536, maxChunks: 8 };
  const result = plan(files, limits);
  assert.equal(result.coverage.status, "complete");
  assert.equal(result.coverage.reviewedLines, 10_000);
  assert.equal(result.coverage.reviewedBytes, total);
  assert.ok(result.chunks.length >= Math.ceil(total / 400_000) && result.chunks.length <= 8);
  for (const chunk of result.chunks) assert.ok(chunk.bytes <= 400_000);
  const planned = result.chunks.flatMap((c) => c.paths);
  assert.equal(planned.length, 10_000, "every file in exactly one chunk");
  assert.deepEqual(new Set(planned), new Set(files.map((f) => f.path)));
  // a plan too small names what it left out, file by file
  const capped = plan(files, { ...limits, chunkBytes: 100_000, maxChunks: 2 });
  assert.equal(capped.coverage.status, "partial");
  const shown = capped.chunks.reduce((n, c) => n + c.paths.length, 0);
  assert.ok(shown > 0);
  assert.equal(shown + capped.coverage.omitted.length, 10_000);
  assert.ok(capped.coverage.omitted.every((o) => o.reason === "budget" && !o.hunks));
});

/** Ten short lines, a line of `long` bytes, `after` short lines, as one added file's patch. */
function longLine(long: number, after: number): string {
  const lines = [
    ...Array.from({ length: 10 }, (_, i) => `before ${i + 1}`),
    "L".repeat(long),
    ...Array.from({ length: after }, (_, i) => `after ${i + 1}`),
  ];
  const body = lines.map((l) => `+${l}\n`).join("");
  return `diff --git a/f.txt b/f.txt\nnew file mode 100644\n--- /dev/null\n+++ b/f.txt\n` +
    `@@ -0,0 +1,${lines.length} @@\n${body}`;
}

Deno.test("Planner names a line longer than a piece by its line and shows every other line once", () => {
  const text = longLine(70_000, 20);
  const result = streamed(text, { chunkBytes: 400_000, pieceBytes: 65_536, maxChunks: 8 }, 65_000);
  assert.equal(result.chunks.length, 1);
  const [chunk] = result.chunks;
  assert.ok(!chunk.diff.includes("LLLL"), "the long line is not shown");
  assert.equal(chunk.lines, 30);
  for (let i = 1; i <= 20; i++) assert.equal(chunk.diff.split(`+after ${i}\n`).length, 2);
  assert.equal(result.coverage.status, "partial");
  assert.deepEqual(result.coverage.omitted.map((o) => [o.reason, o.lines, o.hunks]), [
    ["long-line", 1, [{ oldStart: 0, oldLines: 0, newStart: 11, newLines: 1 }]],
  ]);
  const size = new TextEncoder().encode(text).length;
  assert.equal(result.coverage.reviewedBytes + result.coverage.omittedBytes, size);
  // 20,000 lines after it: still every line once, each byte counted once
  const many = streamed(longLine(70_000, 20_000), {
    chunkBytes: 400_000,
    pieceBytes: 65_536,
    maxChunks: 8,
  }, 65_000);
  assert.equal(many.coverage.reviewedLines, 20_010);
  assert.equal(many.coverage.omittedLines, 1);
});
