import assert from "node:assert/strict";
import { quotePath } from "./decoded_diff.ts";
import { type SectionPaths, sectionPaths, SectionRouter, unquote } from "./patch_sections.ts";

/** Route every section in order; per entry, the indexes of its sections. */
function pairSections(entries: { path: string }[], sections: SectionPaths[]): number[][] {
  const router = new SectionRouter(entries);
  const owned: number[][] = entries.map(() => []);
  sections.forEach((s, k) => {
    const i = router.route(s);
    if (i >= 0) owned[i].push(k);
  });
  return owned;
}

const enc = new TextEncoder();
const paths = (text: string) => sectionPaths(enc.encode(text));

Deno.test("sectionPaths() reads both sides of every header shape git prints", () => {
  const table: [string, string, Partial<SectionPaths>][] = [
    [
      "modified",
      "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
      { oldPath: "x", newPath: "x" },
    ],
    [
      "added",
      "diff --git a/n b/n\nnew file mode 100644\nindex 0..1\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+a\n",
      { oldPath: null, newPath: "n" },
    ],
    [
      "deleted",
      "diff --git a/d b/d\ndeleted file mode 100644\nindex 1..0\n--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n",
      { oldPath: "d", newPath: null },
    ],
    [
      "empty file added (no ---/+++)",
      "diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\n",
      { oldPath: null, newPath: "e" },
    ],
    [
      "mode change only",
      "diff --git a/a b/c b/a b/c\nold mode 100644\nnew mode 100755\n",
      { oldPath: "a b/c", newPath: "a b/c" },
    ],
    [
      "pure rename",
      "diff --git a/o b/n\nsimilarity index 100%\nrename from o\nrename to n\n",
      { oldPath: "o", newPath: "n" },
    ],
    [
      "copy",
      "diff --git a/o b/c\nsimilarity index 90%\ncopy from o\ncopy to c\n--- a/o\n+++ b/c\n@@ -1 +1 @@\n-a\n+b\n",
      { oldPath: "o", newPath: "c" },
    ],
    [
      "binary",
      "diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n",
      { oldPath: "i.png", newPath: "i.png", binary: true },
    ],
    [
      "name with a space and a TAB after it",
      "diff --git a/s p.txt b/s p.txt\n--- a/s p.txt\t\n+++ b/s p.txt\t\n@@ -1 +1 @@\n-a\n+b\n",
      { oldPath: "s p.txt", newPath: "s p.txt" },
    ],
    [
      "quoted name with a newline, header only",
      'diff --git "a/x\\ny" "b/x\\ny"\nold mode 100644\nnew mode 100755\n',
      { oldPath: "x\ny", newPath: "x\ny" },
    ],
    [
      "gitlink bump",
      "diff --git a/sm b/sm\nindex 1..2 160000\n--- a/sm\n+++ b/sm\n@@ -1 +1 @@\n-Subproject commit 1\n+Subproject commit 2\n",
      { oldPath: "sm", newPath: "sm", gitlink: true },
    ],
    [
      "gitlink side of a type change",
      "diff --git a/sm b/sm\nnew file mode 160000\nindex 0..2\n--- /dev/null\n+++ b/sm\n@@ -0,0 +1 @@\n+Subproject commit 2\n",
      { oldPath: null, newPath: "sm", gitlink: true },
    ],
    [
      "an index line whose id holds 160000 is no gitlink",
      "diff --git a/f b/f\nindex 1600001..2160000 100644\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
      { gitlink: false },
    ],
  ];
  for (const [name, text, want] of table) {
    const got = paths(text);
    for (const [key, value] of Object.entries(want)) {
      assert.deepEqual(got[key as keyof SectionPaths], value, `${name}: ${key}`);
    }
  }
});

Deno.test("unquote() undoes git's C quoting, octal escapes as UTF-8 bytes", () => {
  assert.equal(unquote('"a/\\303\\274 \\"q\\"\\t\\\\"'), 'a/ü "q"\t\\');
  assert.equal(unquote("plain name"), "plain name");
  assert.equal(unquote('"'), '"');
});

Deno.test("SectionRouter gives both sections of a type change to its one entry", () => {
  const entries = [{ path: "a" }, { path: "link" }, { path: "z" }];
  const sections = [
    { oldPath: "a", newPath: "a", gitlink: false, binary: false },
    { oldPath: "link", newPath: null, gitlink: false, binary: false },
    { oldPath: null, newPath: "link", gitlink: false, binary: false },
    { oldPath: "z", newPath: "z", gitlink: false, binary: false },
  ];
  assert.deepEqual(pairSections(entries, sections), [[0], [1, 2], [3]]);
});

Deno.test("SectionRouter follows listing order for a path that appears twice", () => {
  // a rename o → n and a new file at o: listing "R o n", "A o" (git sorts by the new path)
  const entries = [{ path: "n" }, { path: "o" }];
  const sections = [
    { oldPath: "o", newPath: "n", gitlink: false, binary: false },
    { oldPath: null, newPath: "o", gitlink: false, binary: false },
  ];
  assert.deepEqual(pairSections(entries, sections), [[0], [1]]);
});

Deno.test("SectionRouter never drops a section nobody claims", () => {
  const entries = [{ path: "a" }, { path: "b" }];
  const sections = [
    { oldPath: "a", newPath: "a", gitlink: false, binary: false },
    { oldPath: null, newPath: null, gitlink: false, binary: false },
    { oldPath: "zzz", newPath: "zzz", gitlink: false, binary: false },
    { oldPath: "b", newPath: "b", gitlink: false, binary: false },
  ];
  assert.deepEqual(pairSections(entries, sections), [[0, 1, 2], [3]]);
  assert.deepEqual(pairSections([], sections), []);
});

Deno.test("quotePath() writes names the way git does, so unquote() reads them back", () => {
  for (
    const name of ["plain/ü.txt", 'a "q"', "tab\there", "new\nline", "back\\slash", "\x01bell"]
  ) {
    const quoted = quotePath(`a/${name}`);
    assert.equal(unquote(quoted), `a/${name}`, quoted);
  }
  assert.equal(quotePath("a/plain ü"), "a/plain ü");
  assert.equal(quotePath("a/x\ny"), '"a/x\\ny"');
});
