import assert from "node:assert/strict";
import { isZeroOid, parsePushLines } from "./stdin.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const Z = "0".repeat(40);
const A256 = "c".repeat(64);
const Z256 = "0".repeat(64);

Deno.test("parsePushLines() classifies every line form git writes", async (t) => {
  const table: { name: string; input: string; expect: Partial<Record<string, unknown>> }[] = [
    {
      name: "update",
      input: `refs/heads/main ${A} refs/heads/main ${B}\n`,
      expect: { deletion: false, newRef: false, tag: false },
    },
    {
      name: "new branch",
      input: `refs/heads/x ${A} refs/heads/x ${Z}\n`,
      expect: { newRef: true, deletion: false },
    },
    {
      name: "deletion",
      input: `(delete) ${Z} refs/heads/x ${B}\n`,
      expect: { deletion: true, localRef: "(delete)" },
    },
    {
      name: "deletion, short zero id",
      input: `(delete) 0000000 refs/heads/x ${B}\n`,
      expect: { deletion: true },
    },
    {
      name: "tag",
      input: `refs/tags/v1 ${A} refs/tags/v1 ${Z}\n`,
      expect: { tag: true, newRef: true },
    },
    {
      name: "sha256",
      input: `refs/heads/main ${A256} refs/heads/main ${Z256}\n`,
      expect: { localOid: A256, newRef: true },
    },
    {
      name: "HEAD:refs/heads/x",
      input: `HEAD ${A} refs/heads/x ${Z}\n`,
      expect: { localRef: "HEAD", remoteRef: "refs/heads/x" },
    },
    {
      name: "CRLF and upper-case ids",
      input: `refs/heads/m ${A.toUpperCase()} refs/heads/m ${B}\r\n`,
      expect: { localOid: A },
    },
  ];
  for (const row of table) {
    await t.step(row.name, () => {
      const { updates, notes } = parsePushLines(row.input);
      assert.deepEqual(notes, []);
      assert.equal(updates.length, 1);
      for (const [key, value] of Object.entries(row.expect)) {
        assert.deepEqual((updates[0] as unknown as Record<string, unknown>)[key], value, key);
      }
    });
  }
});

Deno.test("parsePushLines() keeps several lines in order and returns nothing for empty stdin", () => {
  const { updates } = parsePushLines(
    `refs/heads/a ${A} refs/heads/a ${B}\nrefs/heads/b ${B} refs/heads/b ${Z}\n`,
  );
  assert.deepEqual(updates.map((u) => u.remoteRef), ["refs/heads/a", "refs/heads/b"]);
  assert.deepEqual(parsePushLines(""), { updates: [], notes: [] });
  assert.deepEqual(parsePushLines("\n\n"), { updates: [], notes: [] });
});

Deno.test("parsePushLines() skips malformed lines with a note and never throws", () => {
  const input = [
    "garbage",
    `refs/heads/a ${A} refs/heads/a`,
    `refs/heads/a xyz refs/heads/a ${B}`,
    `refs/heads/a ${A.slice(0, 39)} refs/heads/a ${B}`,
    `refs/heads/ok ${A} refs/heads/ok ${B}`,
  ].join("\n");
  const { updates, notes } = parsePushLines(input);
  assert.equal(updates.length, 1);
  assert.equal(updates[0].remoteRef, "refs/heads/ok");
  assert.equal(notes.length, 4);
  assert.match(notes[0], /^line 1 ignored: expected 4 fields, got 1/);
  assert.match(notes[2], /^line 3 ignored: "xyz" is not an object id/);
});

Deno.test("isZeroOid() accepts zeros of any length only", () => {
  assert.equal(isZeroOid(Z), true);
  assert.equal(isZeroOid(Z256), true);
  assert.equal(isZeroOid("0"), true);
  assert.equal(isZeroOid(A), false);
  assert.equal(isZeroOid(""), false);
});
