import assert from "node:assert/strict";
import {
  fingerprintFindings,
  fingerprintOf,
  normalizeLines,
  normalizeTitle,
} from "./fingerprint.ts";
import type { Finding } from "./types.ts";

const finding: Finding = {
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: "Off by one in the page offset",
  body: "b",
  file: "src/page.ts",
  line_start: 3,
  line_end: 4,
  confidence: 0.9,
  recommendation: "r",
};
const FILE = "a\nb\nconst start = page * size;\nreturn items.slice(start, start + size + 1);\ne\n";

Deno.test("normalizeTitle() ignores case, spacing, quotes and trailing punctuation, not digits", () => {
  assert.equal(
    normalizeTitle('"Off  by ONE in the page offset."'),
    "off by one in the page offset",
  );
  assert.equal(normalizeTitle("Ｕｓｅｓ ＳＨＡ１"), "uses sha1", "NFKC folds full-width letters");
  assert.notEqual(normalizeTitle("uses sha1"), normalizeTitle("uses sha256"));
});

Deno.test("normalizeLines() trims lines, drops blank ones and reads CRLF as LF", () => {
  assert.equal(normalizeLines("x\r\n  a  \r\n\r\n\tb\r\ny", 2, 4), "a\nb");
  assert.equal(normalizeLines("x\n", 5, 9), "", "past the end: no lines");
});

Deno.test("fingerprintOf() survives the code moving and a reworded title's spacing, not an edit", async () => {
  const base = await fingerprintOf(finding, FILE);
  assert.match(base, /^[0-9a-f]{64}$/);
  const moved = await fingerprintOf(
    { ...finding, line_start: 5, line_end: 6 },
    "new line\n\n" + FILE.replaceAll("\n", "\r\n"),
  );
  assert.equal(moved, base, "same lines two lines further down, CRLF: same fingerprint");
  assert.equal(
    await fingerprintOf({ ...finding, title: " off by one in the page offset! " }, FILE),
    base,
  );
  const edited = FILE.replace("size + 1", "size");
  assert.notEqual(await fingerprintOf(finding, edited), base, "the code at it changed");
  assert.notEqual(await fingerprintOf({ ...finding, file: "src/other.ts" }, FILE), base);
  assert.notEqual(await fingerprintOf({ ...finding, title: "Another problem" }, FILE), base);
  assert.notEqual(await fingerprintOf(finding, null), base, "a deleted file hashes no lines");
});

Deno.test("fingerprintFindings() reads each file once, in order", async () => {
  const reads: string[] = [];
  const tree = {
    text: (
      path: string,
    ) => (reads.push(path), Promise.resolve(path === "src/page.ts" ? FILE : null)),
  };
  const other = { ...finding, file: "gone.ts" };
  const prints = await fingerprintFindings([finding, other, finding], tree);
  assert.deepEqual(reads, ["src/page.ts", "gone.ts"]);
  assert.equal(prints[0], prints[2]);
  assert.equal(prints[0], await fingerprintOf(finding, FILE));
  assert.equal(prints[1], await fingerprintOf(other, null));
});

Deno.test("fingerprintOf() keeps the fingerprints of findings on non-blank lines, past the end and on deleted files as acks.json has them", async () => {
  // computed before blank-line findings were anchored: acknowledgements already written stay valid
  const f = { file: "src/a.ts", title: "Off by one", line_start: 2, line_end: 3 };
  const text = "a\n  b = 1;  \n\nc\n";
  assert.equal(
    await fingerprintOf(f, text),
    "c397ddf2483b0bb2273a58d0c8a27b042fdb89f148c8ff628c9d875ec44fb48e",
  );
  const fileLevel = "f9b52fb374f29e770388ab7a128732539af1e265319193f5b61956e92de2336d";
  assert.equal(await fingerprintOf({ ...f, line_start: 9, line_end: 9 }, text), fileLevel);
  assert.equal(await fingerprintOf({ ...f, line_start: 5, line_end: 5 }, text), fileLevel);
  assert.equal(await fingerprintOf(f, null), fileLevel);
});

Deno.test("fingerprintOf() anchors a finding on blank lines to the nearest non-blank lines around them", async () => {
  const text =
    "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n\ndef mul():\n";
  const at = (line: number, end = line) => ({
    file: "calc.py",
    title: "Missing blank line",
    line_start: line,
    line_end: end,
  });
  const three = await fingerprintOf(at(3), text);
  assert.notEqual(await fingerprintOf(at(6), text), three, "another blank line elsewhere");
  assert.notEqual(three, await fingerprintOf(at(99), text), "not the file-level identity");
  assert.equal(
    await fingerprintOf(at(5), "# header\n\n" + text.replaceAll("\n", "\r\n")),
    three,
    "the same blank line two lines further down, CRLF: same fingerprint",
  );
  assert.equal(
    await fingerprintOf(at(3, 4), "x\n    return a + b\n  \n\t\ndef sub(a, b):\n"),
    await fingerprintOf(at(3, 4), "y\n    return a + b\n\n\ndef sub(a, b):\n"),
    "blank is blank",
  );
  assert.notEqual(
    await fingerprintOf(at(3), text.replace("def sub", "def minus")),
    three,
    "a line it is anchored to changed",
  );
  // a blank line at either end of the file has one neighbour
  assert.notEqual(
    await fingerprintOf(at(1), "\nx\n"),
    await fingerprintOf(at(2), "x\n\n"),
  );
});
