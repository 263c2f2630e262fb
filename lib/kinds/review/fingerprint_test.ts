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
