import assert from "node:assert/strict";
import { parseRawNumstat } from "./diff_parse.ts";

const enc = new TextEncoder();
const Z = "0000000000000000000000000000000000000000";
const A = "1111111111111111111111111111111111111111";

Deno.test("parseRawNumstat() reads statuses, renames, binary and odd names", () => {
  const raw = [
    `:100644 100644 ${A} ${A} R097`,
    "old name.txt",
    "new\nname.txt",
    `:000000 100644 ${Z} ${A} A`,
    "ü ñ.txt",
    `:100644 100644 ${A} ${A} M`,
    "bin",
    `:100644 000000 ${A} ${Z} D`,
    ":colon",
    `:100644 120000 ${A} ${A} T`,
    "link",
    "1\t0\t",
    "old name.txt",
    "new\nname.txt",
    "3\t0\tü ñ.txt",
    "-\t-\tbin",
    "0\t7\t:colon",
    "1\t1\tlink",
    "",
  ].join("\0");
  const same = { oldMode: "100644", newMode: "100644", oldId: A, newId: A };
  assert.deepEqual(parseRawNumstat(enc.encode(raw)), [
    {
      status: "renamed",
      oldPath: "old name.txt",
      path: "new\nname.txt",
      binary: false,
      additions: 1,
      deletions: 0,
      ...same,
    },
    {
      status: "added",
      path: "ü ñ.txt",
      binary: false,
      additions: 3,
      deletions: 0,
      ...same,
      oldMode: "000000",
      oldId: null,
    },
    { status: "modified", path: "bin", binary: true, additions: 0, deletions: 0, ...same },
    {
      status: "deleted",
      path: ":colon",
      binary: false,
      additions: 0,
      deletions: 7,
      ...same,
      newMode: "000000",
      newId: null,
    },
    {
      status: "typechange",
      path: "link",
      binary: false,
      additions: 1,
      deletions: 1,
      ...same,
      newMode: "120000",
    },
  ]);
  assert.deepEqual(parseRawNumstat(new Uint8Array()), []);
});

Deno.test("parseRawNumstat() throws on output it does not understand", () => {
  assert.throws(() => parseRawNumstat(enc.encode(`:100644 100644 ${A} ${A} M\0a\0garbage\0`)));
});

Deno.test("parseRawNumstat() reads every status letter git documents, and unknown ones as modified", () => {
  const letters = ["A", "C100", "D", "M", "R050", "T", "U", "X", "Q"];
  const raw: string[] = [];
  const stats: string[] = [];
  for (const letter of letters) {
    const paired = letter[0] === "R" || letter[0] === "C";
    raw.push(`:100644 100644 ${A} ${A} ${letter}`, ...(paired ? ["from", letter] : [letter]));
    stats.push(...(paired ? ["1\t1\t", "from", letter] : [`1\t1\t${letter}`]));
  }
  const entries = parseRawNumstat(enc.encode([...raw, ...stats, ""].join("\0")));
  assert.deepEqual(entries.map((e) => [e.path, e.status]), [
    ["A", "added"],
    ["C100", "copied"],
    ["D", "deleted"],
    ["M", "modified"],
    ["R050", "renamed"],
    ["T", "typechange"],
    ["U", "modified"],
    ["X", "modified"],
    ["Q", "modified"],
  ]);
});

Deno.test("parseRawNumstat() flags submodule gitlinks on either side", () => {
  const z = "0".repeat(40);
  const a = "a".repeat(40);
  const raw = [
    `:160000 160000 ${a} ${z} M`,
    "sm",
    `:000000 160000 ${z} ${a} A`,
    "new-sm",
    `:100644 100644 ${a} ${z} M`,
    "f.txt",
    "1\t1\tsm",
    "1\t0\tnew-sm",
    "2\t1\tf.txt",
    "",
  ].join("\0");
  const entries = parseRawNumstat(new TextEncoder().encode(raw));
  assert.deepEqual(entries.map((e) => [e.path, e.gitlink ?? false]), [
    ["sm", true],
    ["new-sm", true],
    ["f.txt", false],
  ]);
});
