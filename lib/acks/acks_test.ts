import assert from "node:assert/strict";
import { ConfigError, UsageError } from "../base/errors.ts";
import { runProcess } from "../exec/exec.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { ACKS_VALIDATOR_PATH, acksValidatorSource } from "../../scripts/gen_validators.ts";
import { parseAcksText, readAcks, writeAcks } from "./file.ts";
import {
  acksDigest,
  acksForChange,
  activeAcks,
  isActive,
  noteFindings,
  parseExpiry,
} from "./match.ts";
import type { Ack } from "./types.ts";

const ACK: Ack = {
  fingerprint: "a".repeat(64),
  file: "src/a.ts",
  title: "Off by one",
  reason: "intended",
  created: "2026-11-30T10:00:00.000Z",
};
const NOW = new Date("2026-11-30T12:00:00Z");

Deno.test("the generated acks validator is up to date with schemas/acks.schema.json", async () => {
  assert.equal(
    await Deno.readTextFile(ACKS_VALIDATOR_PATH),
    acksValidatorSource(),
    "deno task gen",
  );
});

Deno.test("parseAcksText() accepts the schema's shape and names what is wrong otherwise", async () => {
  assert.deepEqual(await parseAcksText(JSON.stringify({ version: 1, acks: [ACK] }), "x"), [ACK]);
  await assert.rejects(
    parseAcksText("{", "f.json"),
    (e) => e instanceof ConfigError && /not JSON/.test(e.message),
  );
  await assert.rejects(
    parseAcksText(
      JSON.stringify({ version: 1, acks: [{ ...ACK, fingerprint: "short" }] }),
      "f.json",
    ),
    /Invalid f\.json: "acks\.0\.fingerprint" must match pattern/,
  );
  await assert.rejects(parseAcksText(JSON.stringify({ version: 2, acks: [] }), "f"), /"version"/);
});

Deno.test("expiry: an ack holds through its last day (UTC); parseExpiry reads days and spans", () => {
  assert.equal(isActive({ expires: "2026-11-30" }, NOW), true);
  assert.equal(isActive({ expires: "2026-11-29" }, NOW), false);
  assert.equal(isActive({}, NOW), true);
  assert.deepEqual(activeAcks([ACK, { ...ACK, expires: "2026-01-01" }], NOW), [ACK]);
  assert.equal(parseExpiry("30d", NOW), "2026-12-30");
  assert.equal(parseExpiry("2w", NOW), "2026-12-14");
  assert.equal(parseExpiry("2026-11-30", NOW), "2026-11-30");
  for (const bad of ["2026-02-30", "tomorrow", "2026-11-29"]) {
    assert.throws(() => parseExpiry(bad, NOW), UsageError, bad);
  }
});

Deno.test("noteFindings() marks the findings whose fingerprint is acknowledged", () => {
  const other = "b".repeat(64);
  assert.deepEqual(noteFindings([ACK.fingerprint, other], [{ ...ACK, expires: "2027-01-01" }]), [
    { fingerprint: ACK.fingerprint, acknowledged: { reason: "intended", expires: "2027-01-01" } },
    { fingerprint: other },
  ]);
});

Deno.test("acksForChange() tells only acks on the change's files; the digest is order-free", async () => {
  const other = { ...ACK, fingerprint: "c".repeat(64), file: "src/b.ts" };
  assert.deepEqual(acksForChange([ACK, other], new Set(["src/b.ts"])), [other]);
  assert.equal(await acksDigest([]), "none");
  assert.equal(await acksDigest([ACK, other]), await acksDigest([other, ACK]));
  assert.notEqual(await acksDigest([ACK]), await acksDigest([{ ...ACK, reason: "changed" }]));
});

Deno.test("readAcks() reads the worktree file or the one committed in a tree", async () => {
  const repo = await makeTestRepo({ "a.txt": "x\n" });
  try {
    assert.deepEqual(await readAcks(runProcess, { kind: "worktree", root: repo.root }), []);
    const base = (await repo.git("rev-parse", "HEAD")).trim();
    await writeAcks(repo.root, [ACK]);
    await repo.git("add", "-A");
    await repo.git("commit", "-q", "-m", "acks");
    const head = (await repo.git("rev-parse", "HEAD")).trim();
    await writeAcks(repo.root, []);
    assert.deepEqual(await readAcks(runProcess, { kind: "worktree", root: repo.root }), []);
    assert.deepEqual(await readAcks(runProcess, { kind: "tree", root: repo.root, rev: head }), [
      ACK,
    ]);
    assert.deepEqual(await readAcks(runProcess, { kind: "tree", root: repo.root, rev: base }), []);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("writeAcks() orders by file then fingerprint in code units, whatever the machine's locale", async () => {
  const repo = await makeTestRepo({ "a.txt": "x\n" });
  try {
    const files = ["é.ts", "f.ts", "B.ts", "a.ts", "a.ts"];
    const acks = files.map((file, i) => ({ ...ACK, file, fingerprint: String(9 - i).repeat(64) }));
    await writeAcks(repo.root, acks);
    const read = await readAcks(runProcess, { kind: "worktree", root: repo.root });
    assert.deepEqual(read.map((a) => `${a.file}:${a.fingerprint[0]}`), [
      "B.ts:7",
      "a.ts:5",
      "a.ts:6",
      "f.ts:8",
      "é.ts:9",
    ]);
  } finally {
    await repo.cleanup();
  }
});
