import { join } from "node:path";
/**
 * End-to-end: signals other than one Ctrl-C — the terminal closing (SIGHUP), a second signal while
 * a child still runs, and `kill -9` of review-gate itself (the run folder must say "running").
 *
 * @module
 */
import assert from "node:assert/strict";
import { interruptHandler } from "../../main.ts";
import { runProcess } from "../../lib/exec/exec.ts";
import { liveChildren } from "../../lib/exec/children.ts";
import { liveTempDirs, withPrivateTempDir } from "../../lib/exec/tmpdir.ts";
import { entriesOf, lastRun, processAlive, readFakeLog, spawnCli } from "./_cli.ts";
import { waitFor, withChangedSandbox } from "./_sandbox_scope.ts";

function killQuietly(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      Deno.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

Deno.test("review interrupted by SIGHUP (terminal closed) exits 130 and kills the provider", async () => {
  await withChangedSandbox(async (sandbox) => {
    const child = spawnCli(sandbox, ["review", "--provider", "claude"], { scenario: "hang" });
    await waitFor(async () => (await readFakeLog(sandbox)).length > 0, 15_000);
    const [call] = await readFakeLog(sandbox);
    try {
      child.kill("SIGHUP");
      const out = await child.output();
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.signal, null, "review-gate handled SIGHUP instead of dying of it");
      assert.equal(out.code, 130, stdout + new TextDecoder().decode(out.stderr));
      await waitFor(async () => !(await processAlive(call.grandchildPid!)), 3_000);
      assert.equal(await processAlive(call.pid), false, "the provider is gone");
      assert.deepEqual(await entriesOf(sandbox.tmp), [], "no temp dir left");
      assert.equal((await lastRun(sandbox)).run.status, "interrupted");
      const stderr = new TextDecoder().decode(out.stderr);
      assert.doesNotMatch(stderr, /Skipped the line/, "an interrupted run still gets its record");
      const records = await Deno.readTextFile(
        join(sandbox.repo.root, ".git", "review-gate", "records.jsonl"),
      );
      assert.equal(JSON.parse(records.trim().split("\n").at(-1)!).status, "interrupted");
    } finally {
      killQuietly(call.pid);
    }
  });
});

Deno.test("review killed with SIGKILL leaves a run.json saying running", async () => {
  await withChangedSandbox(async (sandbox) => {
    const child = spawnCli(sandbox, ["review", "--provider", "claude"], { scenario: "hang" });
    await waitFor(async () => (await readFakeLog(sandbox)).length > 0, 15_000);
    const [call] = await readFakeLog(sandbox);
    try {
      child.kill("SIGKILL");
      await child.output();
      const run = await lastRun(sandbox);
      assert.equal(run.run.status, "running");
      assert.equal(run.run.provider, "claude");
      assert.ok(run.files.includes("run.json"));
      assert.ok(!run.files.includes("answer.json"));
    } finally {
      killQuietly(call.pid); // its watchdog ends the provider (test/e2e/orphans_test.ts): a backstop
      if (call.grandchildPid) killQuietly(call.grandchildPid);
    }
  });
});

Deno.test("interruptHandler(): first signal aborts; second kills children and gives the bookkeeping its grace; third exits", async () => {
  const controller = new AbortController();
  const exits: number[] = [];
  const onSignal = interruptHandler(controller, (code) => exits.push(code), 200);
  await withPrivateTempDir(async (dir) => {
    // a child started without the abort signal, like `git add -A` mid-collection
    const running = runProcess({ cmd: "sleep", args: ["30"] });
    onSignal();
    assert.equal(controller.signal.aborted, true);
    assert.deepEqual(exits, []);
    assert.equal(liveChildren().length, 1, "the first signal leaves unsignalled children alone");
    onSignal();
    assert.deepEqual(exits, [], "the second signal leaves time to write the run's record");
    assert.deepEqual(liveTempDirs(), []);
    assert.equal(await Deno.stat(dir).then(() => true, () => false), false, "temp dir removed");
    const result = await running;
    assert.equal(result.code, 137, "the child was killed");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(exits, [130], "then exits 130 after the grace");
    onSignal();
    assert.deepEqual(exits, [130, 130], "a third signal exits at once");
  });
});

Deno.test("review hit by two signals 0-10 ms apart (SIGINT twice, SIGTERM then SIGHUP) still records the run as interrupted", async () => {
  const pairs: [Deno.Signal, Deno.Signal, number][] = [
    ["SIGINT", "SIGINT", 0],
    ["SIGINT", "SIGINT", 10],
    ["SIGTERM", "SIGHUP", 0],
  ];
  for (const [first, second, gapMs] of pairs) {
    await withChangedSandbox(async (sandbox) => {
      const child = spawnCli(sandbox, ["review", "--provider", "claude"], { scenario: "hang" });
      await waitFor(async () => (await readFakeLog(sandbox)).length > 0, 15_000);
      const [call] = await readFakeLog(sandbox);
      try {
        child.kill(first);
        if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
        child.kill(second);
        const out = await child.output();
        assert.equal(out.code, 130, new TextDecoder().decode(out.stderr));
        await waitFor(async () => !(await processAlive(call.grandchildPid!)), 3_000);
        assert.equal(await processAlive(call.pid), false, "the provider is gone");
        assert.deepEqual(await entriesOf(sandbox.tmp), [], "no temp dir left");
        const label = `${first} then ${second}, ${gapMs} ms apart`;
        assert.equal((await lastRun(sandbox)).run.status, "interrupted", label);
        const records = await Deno.readTextFile(
          join(sandbox.repo.root, ".git", "review-gate", "records.jsonl"),
        );
        assert.equal(JSON.parse(records.trim().split("\n").at(-1)!).status, "interrupted");
      } finally {
        killQuietly(call.pid);
      }
    });
  }
});

Deno.test("review hit by a terminal's Ctrl-C (SIGINT to its group) while a git call runs ends interrupted, not as a git failure", async () => {
  await withChangedSandbox(async (sandbox) => {
    // a clean filter that stays in `git add` for a while: collection's git call is in flight
    const started = join(sandbox.tmp, "..", "filter-started");
    await sandbox.repo.git("config", "filter.slow.clean", `touch '${started}'; sleep 20; cat`);
    await sandbox.repo.write(".gitattributes", "*.ts filter=slow\n");
    const child = spawnCli(sandbox, ["review", "--provider", "claude"], { ownGroup: true });
    try {
      await waitFor(() => Deno.stat(started).then(() => true, () => false), 15_000);
      const t0 = performance.now();
      Deno.kill(-child.pid, "SIGINT"); // the whole foreground group, as a terminal does
      const out = await child.output();
      const stdout = new TextDecoder().decode(out.stdout);
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 130, stdout + stderr);
      assert.ok(performance.now() - t0 < 10_000, "the review waited for the filter");
      assert.ok(stdout.startsWith("review-gate: NOT reviewed — interrupted"), stdout);
      assert.doesNotMatch(stdout + stderr, /git|exit code/i, "a git failure was reported");
      assert.deepEqual(await readFakeLog(sandbox), [], "no provider was asked");
      assert.deepEqual(await entriesOf(sandbox.tmp), [], "no temp dir left");
      const groupGone = () => {
        try {
          Deno.kill(-child.pid, "SIGCONT");
          return Promise.resolve(false);
        } catch {
          return Promise.resolve(true);
        }
      };
      await waitFor(groupGone, 3_000); // the filter got the Ctrl-C too: nothing left running
    } finally {
      killQuietly(child.pid);
    }
  });
});
