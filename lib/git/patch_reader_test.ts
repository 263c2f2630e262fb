import assert from "node:assert/strict";
import { utf8Length } from "./hunks.ts";
import { parseSection, PatchReader, SPLIT_CONTEXT, toHunk } from "./patch_reader.ts";
import type { Hunk } from "./hunks.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

type PatchEvent = { kind: "section"; header: Uint8Array } | { kind: "hunk"; hunk: Hunk };

/** Read `bytes` through a reader in chunks of `size`; the sections and hunks it hands over. */
function read(bytes: Uint8Array, cutBytes: number, size: number): PatchEvent[] {
  const events: PatchEvent[] = [];
  const reader = new PatchReader({ cutBytes }, {
    section: (header) => events.push({ kind: "section", header }),
    hunk: (info, head, body) => events.push({ kind: "hunk", hunk: toHunk(info, head, body) }),
  });
  for (let i = 0; i < bytes.length; i += size) reader.push(bytes.subarray(i, i + size));
  reader.end();
  return events;
}

/** Read `text` through a reader with hunk parts of at most `max` bytes, in 13-byte chunks. */
function split(text: string, max: number): Hunk[] {
  const events = read(new TextEncoder().encode(text), max, 13);
  return events.flatMap((e) => (e.kind === "hunk" ? [e.hunk] : []));
}

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

Deno.test("PatchReader cuts a large hunk while it streams into parts with true ranges and context", () => {
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
  const parts = split(HEADER + text, 400);
  assert.ok(parts.length > 2, `${parts.length} parts`);
  for (const [k, part] of parts.entries()) {
    assert.ok(part.bytes <= 400, `part ${k} has ${part.bytes} bytes`);
    assert.match(
      part.text,
      new RegExp(`^@@ [^@]+ @@ part ${k + 1} of one hunk; heading\n`),
    );
    assertRanges(part, oldFile, newFile);
  }
  assert.equal(parts.reduce((n, p) => n + p.changed, 0), hunk.changed, "no change lost or doubled");
  for (const part of split(HEADER + text, 256)) assert.ok(part.bytes <= 256, part.text);
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
  assert.deepEqual(split(HEADER + text, hunk.bytes + 100), [hunk], "a hunk that fits is git's own");
});

Deno.test("PatchReader keeps ranges true for cut pure additions and pure deletions", () => {
  const added = Array.from({ length: 40 }, (_, i) => `+new ${i + 1}`).join("\n");
  const addText = `${HEADER}@@ -0,0 +1,40 @@\n${added}\n`;
  const newFile = Array.from({ length: 40 }, (_, i) => `new ${i + 1}`);
  for (const part of split(addText, 256)) {
    assert.equal(part.oldLines, 0);
    assertRanges(part, [], newFile);
  }
  const removed = Array.from({ length: 40 }, (_, i) => `-old ${i + 6}`).join("\n");
  const delText = `${HEADER}@@ -6,40 +5,0 @@\n${removed}\n`;
  const oldFile = Array.from({ length: 50 }, (_, i) => `old ${i + 1}`);
  const parts = split(delText, 256);
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

Deno.test("PatchReader starts sections at diff --git line starts only, across chunk borders", () => {
  const one = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-diff --git a/y b/y\n+z\r\n";
  const two = 'diff --git "a/n\\nl" "b/n\\nl"\nBinary files differ\n';
  const bytes = new TextEncoder().encode(one + two);
  for (const size of [1, 7, bytes.length]) {
    const events = read(bytes, 1 << 20, size);
    const decoded = events.map((e) =>
      e.kind === "section" ? ["section", new TextDecoder().decode(e.header)] : ["hunk", e.hunk.text]
    );
    assert.deepEqual(decoded, [
      ["section", "diff --git a/x b/x\n--- a/x\n+++ b/x\n"],
      ["hunk", "@@ -1 +1 @@\n-diff --git a/y b/y\n+z\r\n"],
      ["section", two],
    ], `chunks of ${size}`);
  }
  assert.deepEqual(read(new Uint8Array(), 1024, 1), []);
});

/** Ten short lines, one line of `long` bytes, then `after` short lines: one added hunk. */
function longLinePatch(long: number, after: number): { text: string; newFile: string[] } {
  const newFile = [
    ...Array.from({ length: 10 }, (_, i) => `before ${i + 1}`),
    "L".repeat(long),
    ...Array.from({ length: after }, (_, i) => `after ${i + 1}`),
  ];
  const body = newFile.map((l) => `+${l}\n`).join("");
  return { text: `${HEADER}@@ -0,0 +1,${newFile.length} @@\n${body}`, newFile };
}

Deno.test("PatchReader hands a line longer than a part over once, cut, and every later line once with its true number", () => {
  const { text, newFile } = longLinePatch(70_000, 20);
  const events = read(new TextEncoder().encode(text), 4096, 8192);
  const infos: { cut: boolean; own: number; bytes: number }[] = [];
  const reader = new PatchReader({ cutBytes: 4096 }, {
    section: () => {},
    hunk: (info) => infos.push(info),
  });
  reader.push(new TextEncoder().encode(text));
  reader.end();
  const parts = events.flatMap((e) => (e.kind === "hunk" ? [e.hunk] : []));
  const cut = infos.flatMap((info, k) => (info.cut ? [k] : []));
  assert.equal(cut.length, 1, "one part, the long line's, is cut");
  assert.ok(infos[cut[0]].bytes > 70_000, "the cut part carries the line's true size");
  const shown = parts.filter((_, k) => !infos[k].cut);
  for (const part of shown) {
    assert.ok(part.bytes <= 4096, `a part of ${part.bytes} bytes`);
    assert.ok(!part.text.includes("LLLL"), "nothing of the long line is re-sent");
    assertRanges(part, [], newFile);
  }
  assert.deepEqual(
    shown.flatMap((p) => p.text.split("\n").slice(1, -1)),
    newFile.filter((l) => !l.startsWith("L")).map((l) => `+${l}`),
    "every other line once, in order",
  );
  const [whole] = parseSection(text).hunks;
  assert.equal(infos.reduce((n, i) => n + i.own, 0), whole.bytes, "each byte counted once");
  assert.equal(parts.reduce((n, p) => n + p.changed, 0), newFile.length);
});

Deno.test("PatchReader reads 20,000 lines after a long line in work linear in the patch", () => {
  const { text } = longLinePatch(70_000, 20_000);
  const bytes = new TextEncoder().encode(text);
  let handed = 0;
  let parts = 0;
  const reader = new PatchReader({ cutBytes: 65_536 }, {
    section: () => {},
    hunk: (_, head, body) => {
      handed += head.length + body.length;
      parts++;
    },
  });
  for (let i = 0; i < bytes.length; i += 65_536) reader.push(bytes.subarray(i, i + 65_536));
  reader.end();
  // quadratic work re-hands the long line with every later line: ~1.4 GB here
  assert.ok(handed <= 2 * bytes.length, `${handed} bytes handed over for ${bytes.length}`);
  assert.ok(parts <= 8, `${parts} parts`);
});

Deno.test("PatchReader never shows a line longer than keepBytes, not even as a later part's context", () => {
  // keepBytes below the part size: a long context line must still end its part, or a later cut
  // repeats its kept bytes (no newline) as context of a part that is shown
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    lines.push(
      i % 17 === 5 ? ` ${"z".repeat(700)}` : i % 3 === 0 ? `+added ${i}` : ` context ${i}`,
    );
  }
  const added = lines.filter((l) => l.startsWith("+")).length;
  const patch = `diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,${
    lines.length - added
  } +1,${lines.length} @@\n${lines.join("\n")}\n`;
  for (const cutBytes of [900, 1200, 2000, 3000]) {
    const parts: { cut: boolean; text: string }[] = [];
    const reader = new PatchReader({ cutBytes, keepBytes: 500 }, {
      section() {},
      hunk(info, head, body) {
        parts.push({ cut: info.cut, text: decoder.decode(head) + decoder.decode(body) });
      },
    });
    reader.push(encoder.encode(patch));
    reader.end();
    const shown = parts.filter((p) => !p.cut);
    assert.ok(parts.some((p) => p.cut), `cutBytes ${cutBytes}: the long lines are named`);
    for (const part of shown) {
      assert.doesNotMatch(
        part.text,
        /z{20}/,
        `cutBytes ${cutBytes}: a shown part holds the long line`,
      );
    }
  }
});
