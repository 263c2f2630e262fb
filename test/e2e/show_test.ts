/**
 * End-to-end: `review-gate show [RUN]` renders a stored run again — the newest by default, any
 * other by its id or a unique part of it — from its stored answer and record, through the same
 * renderers as `review`, with no model call, exiting with the run's own code; an unknown run exits
 * 2 (docs/design.md "Statuses and exit codes": usage errors).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, makeSandbox, readFakeLog, runCli } from "./_cli.ts";

const SCENARIO = `${FIXTURES}/fake/scenarios/first_changed_line.json`;

Deno.test("show re-renders the newest or a named run in any format, without a model call", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    const blocked = await runCli(sandbox, ["review", "--json"], { scenario: SCENARIO });
    assert.equal(blocked.code, 1, blocked.stdout + blocked.stderr);
    const first = JSON.parse(blocked.stdout);

    // the worktree moves on: show renders what was stored, not the change as it is now
    await sandbox.repo.write("src/app.ts", "export const a = 3;\nexport const b = 4;\n");
    const calls = (await readFakeLog(sandbox)).length;
    const shown = await runCli(sandbox, ["show"]);
    assert.equal(shown.code, 1, shown.stdout + shown.stderr);
    assert.match(shown.stdout, /needs attention/);
    assert.match(shown.stdout, /src\/app\.ts:1\b/);
    assert.match(shown.stdout, new RegExp(`Run folder: .*${first.runId}`));

    const json = await runCli(sandbox, ["show", "--json"]);
    const envelope = JSON.parse(json.stdout);
    assert.equal(envelope.runId, first.runId);
    assert.deepEqual(envelope.answer, first.answer);
    assert.equal(envelope.exitCode, 1);

    // a newer run is the default; the older one is still reachable by a part of its id
    const approved = await runCli(sandbox, ["review", "--json", "--no-cache"], {
      scenario: "valid",
    });
    assert.equal(approved.code, 0, approved.stdout + approved.stderr);
    const newest = await runCli(sandbox, ["show"]);
    assert.equal(newest.code, 0, newest.stdout + newest.stderr);
    assert.match(newest.stdout, /approved/);
    const tail = first.runId.slice(-6);
    const sarifFile = join(sandbox.dir, "out", "old.sarif");
    const old = await runCli(sandbox, [
      "show",
      tail,
      "--format",
      "sarif",
      "--output",
      sarifFile,
      "--format",
      "markdown",
    ]);
    assert.equal(old.code, 1, old.stdout + old.stderr);
    assert.match(old.stdout, /^# Review/m);
    assert.match(old.stdout, new RegExp(first.runId));
    const sarif = JSON.parse(await Deno.readTextFile(sarifFile));
    assert.equal(sarif.runs[0].results.length, first.answer.findings.length);
    assert.equal(sarif.runs[0].properties.runId, first.runId);

    assert.equal((await readFakeLog(sandbox)).length, calls + 1, "show asks no model");
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("show: an unknown, ambiguous or missing run is a usage error (exit 2)", async () => {
  const sandbox = await makeSandbox({ "a.txt": "one\n" });
  try {
    const none = await runCli(sandbox, ["show"]);
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.match(none.stderr, /No stored runs in this repository/);

    await sandbox.repo.write("a.txt", "two\n");
    const reviewed = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(reviewed.code, 0, reviewed.stdout + reviewed.stderr);
    const unknown = await runCli(sandbox, ["show", "ffffffff"]);
    assert.equal(unknown.code, 2, unknown.stdout + unknown.stderr);
    assert.match(unknown.stderr, /No run "ffffffff" in this repository/);
    const json = await runCli(sandbox, ["show", "zzzz", "--json"]);
    assert.equal(json.code, 2);
    assert.equal(JSON.parse(json.stdout).status, "error");

    // a part every run id holds ("T", the date) names more than one run
    await sandbox.repo.write("a.txt", "three\n");
    await runCli(sandbox, ["review"], { scenario: "valid" });
    const year = String(new Date().getUTCFullYear());
    const ambiguous = await runCli(sandbox, ["show", year]);
    assert.equal(ambiguous.code, 2, ambiguous.stdout + ambiguous.stderr);
    assert.match(ambiguous.stderr, /matches 2 runs/);
  } finally {
    await sandbox.cleanup();
  }
});
