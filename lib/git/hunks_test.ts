import assert from "node:assert/strict";
import { parseSection, SPLIT_CONTEXT, splitHunk, utf8Length } from "./hunks.ts";

const HEADER = "diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n";

Deno.test("parseSection() splits header and hunks with ranges and changed-line counts", () => {
  const text = HEADER + "@@ -1,2 +1,2 @@ fn main\n a\n-b\n+B\n@@ -10 +10,2 @@\n x\n+y\n";
  const section = parseSection(text);
  assert.equal(section.header, HEADER);
  assert.equal(section.headerBytes, HEADER.length);
  assert.deepEqual(
    section.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines, h.changed]),
    [[1, 2, 1, 2, 2], [10, 1, 10, 2, 1]],
  );
  assert.equal(section.header + section.hunks.map((h) => h.text).join(""), text);
  const headerOnly = "diff --git a/o b/n\nsimilarity index 100%\nrename from o\nrename to n\n";
  assert.deepEqual(parseSection(headerOnly), {
    header: headerOnly,
    headerBytes: headerOnly.length,
    hunks: [],
  });
});

/** The old and new file lines a hunk claims to cover, checked against the files themselves. */
function assertRanges(
  hunk: { oldStart: number; oldLines: number; newStart: number; newLines: number; text: string },
  oldFile: string[],
  newFile: string[],
) {
  const body = hunk.text.split("\n").slice(1, -1);
  const oldSide = body.filter((l) => l[0] === " " || l[0] === "-").map((l) => l.slice(1));
  const newSide = body.filter((l) => l[0] === " " || l[0] === "+").map((l) => l.slice(1));
  assert.equal(oldSide.length, hunk.oldLines);
  assert.equal(newSide.length, hunk.newLines);
  if (hunk.oldLines > 0) {
    assert.deepEqual(oldFile.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines), oldSide);
  }
  if (hunk.newLines > 0) {
    assert.deepEqual(newFile.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines), newSide);
  }
}

Deno.test("splitHunk() cuts at line boundaries into parts with true ranges and context", () => {
  const oldFile = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
  const newFile = [...oldFile];
  const body: string[] = [];
  // one hunk over lines 1..60: every 4th line replaced, the rest context
  for (let i = 0; i < 60; i++) {
    if (i % 4 === 3) {
      newFile[i] = `changed ${i + 1}`;
      body.push(`-line ${i + 1}`, `+changed ${i + 1}`);
    } else body.push(` line ${i + 1}`);
  }
  const text = `@@ -1,60 +1,60 @@ heading\n${body.join("\n")}\n`;
  const [hunk] = parseSection(HEADER + text).hunks;
  const parts = splitHunk(hunk, 400);
  assert.ok(parts.length > 2, `${parts.length} parts`);
  for (const [k, part] of parts.entries()) {
    assert.ok(part.bytes <= 400, `part ${k} has ${part.bytes} bytes`);
    assert.match(
      part.text,
      new RegExp(`^@@ [^@]+ @@ part ${k + 1} of ${parts.length} of one hunk; heading\n`),
    );
    assertRanges(part, oldFile, newFile);
  }
  assert.equal(parts.reduce((n, p) => n + p.changed, 0), hunk.changed, "no change lost or doubled");
  for (const part of splitHunk(hunk, 150)) assert.ok(part.bytes <= 150, part.text);
  // a later part repeats the context lines right before its start (up to SPLIT_CONTEXT)
  for (let k = 1; k < parts.length; k++) {
    const before = parts[k - 1].text.split("\n").slice(1, -1);
    const body = parts[k].text.split("\n").slice(1, -1);
    const tail = [];
    for (
      let i = before.length - 1;
      i >= 0 && before[i][0] === " " && tail.length < SPLIT_CONTEXT;
      i--
    ) {
      tail.unshift(before[i]);
    }
    assert.deepEqual(body.slice(0, tail.length), tail, `part ${k + 1}`);
  }
  assert.ok(parts.slice(1).some((p) => p.text.split("\n")[1][0] === " "), "context repeated");
  assert.deepEqual(splitHunk(hunk, hunk.bytes), [hunk]);
});

Deno.test("splitHunk() keeps ranges true for pure additions and pure deletions", () => {
  const added = Array.from({ length: 40 }, (_, i) => `+new ${i + 1}`).join("\n");
  const [add] = parseSection(`${HEADER}@@ -0,0 +1,40 @@\n${added}\n`).hunks;
  const newFile = Array.from({ length: 40 }, (_, i) => `new ${i + 1}`);
  for (const part of splitHunk(add, 100)) {
    assert.equal(part.oldLines, 0);
    assertRanges(part, [], newFile);
  }
  const removed = Array.from({ length: 40 }, (_, i) => `-old ${i + 6}`).join("\n");
  const [del] = parseSection(`${HEADER}@@ -6,40 +5,0 @@\n${removed}\n`).hunks;
  const oldFile = Array.from({ length: 50 }, (_, i) => `old ${i + 1}`);
  const parts = splitHunk(del, 100);
  assert.ok(parts.length > 1);
  for (const part of parts) {
    assert.equal(part.newLines, 0);
    assert.equal(part.newStart, 5, "an empty side starts at the line before it");
    assertRanges(part, oldFile, []);
  }
});

Deno.test("utf8Length() matches TextEncoder", () => {
  for (const text of ["", "abc", "ü", "€", "😀x", "\ud800", "a\udc00b", "日本語\n"]) {
    assert.equal(utf8Length(text), new TextEncoder().encode(text).length, JSON.stringify(text));
  }
});
