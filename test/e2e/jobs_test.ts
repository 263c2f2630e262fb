/**
 * End-to-end: background reviews as a user runs them — `review --background`, `jobs`, `status
 * [--wait]`, `result`, `cancel` — with the fake provider, in throwaway repositories. Covers every
 * job state and transition that needs real processes: queued → running → finished (status
 * `--wait`, result's exit code, the job's own run folder), two jobs at once (each result is its
 * own), cancel during the provider call (no process left, checked by pid and start time), a job
 * killed with SIGKILL (failed with the reason, never "running"; its provider stopped), the
 * wall-clock ceiling, a queued job cancelled before its process runs, `status --wait` racing the
 * job's last write, a running job (`result` refuses, `status --wait` gives up at `--timeout` or
 * Ctrl-C), a SIGTERM that is not a cancel (failed), a provider failure (finished, not reviewed), a
 * partially reviewed change (said in `jobs` and `status`), and `jobs --prune`. Process checks use
 * `ps` (lib/exec/process_info.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../../lib/exec/exec.ts";
import { processInfo } from "../../lib/exec/process_info.ts";
import type { JobRecord } from "../../lib/store/jobs.ts";
import { waitFor } from "./_sandbox_scope.ts";
import {
  makeSandbox,
  readFakeLog,
  readRunFolder,
  runCli,
  type Sandbox,
  spawnCli,
  writeScenario,
} from "./_cli.ts";

const SOURCE = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";

function blocking(title: string) {
  return {
    verdict: "needs-attention",
    summary: "A real bug.",
    findings: [{
      severity: "high",
      category: "bug",
      scope: "introduced",
      title,
      body: "Wrong.",
      file: "src/app.ts",
      line_start: 2,
      line_end: 2,
      confidence: 0.9,
      recommendation: "Fix it.",
    }],
    next_steps: [],
  };
}

async function jobSandbox(): Promise<Sandbox> {
  const sb = await makeSandbox({ "src/app.ts": SOURCE });
  await sb.repo.write("src/app.ts", SOURCE.replace("b = 2", "b = 22"));
  return sb;
}

async function withJobs(fn: (sb: Sandbox) => Promise<void>): Promise<void> {
  const sb = await jobSandbox();
  try {
    await fn(sb);
  } finally {
    // never leave a job or provider behind, whatever the test did
    for (const job of await jobRecords(sb)) {
      for (const p of [job.process, ...job.children ?? []]) {
        if (p) await killIfRunning(p.pid);
      }
    }
    for (const call of await readFakeLog(sb)) {
      for (const pid of [call.pid, call.grandchildPid]) if (pid) await killIfRunning(pid);
    }
    await sb.cleanup();
  }
}

async function killIfRunning(pid: number): Promise<void> {
  if (await running(pid)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
}

/** True while `ps` shows the pid and it is not a zombie. */
async function running(pid: number): Promise<boolean> {
  const info = await processInfo(runProcess, pid);
  return info !== null && !info.zombie;
}

async function jobRecords(sb: Sandbox): Promise<JobRecord[]> {
  const out = await runCli(sb, ["jobs", "--json"]);
  return out.code === 0 ? JSON.parse(out.stdout) : [];
}

/** Start a background review; returns the job id (first stdout line). */
async function background(sb: Sandbox, args: string[], scenario: string): Promise<string> {
  const out = await runCli(sb, ["review", "--background", ...args], { scenario });
  assert.equal(out.code, 0, out.stderr);
  const id = out.stdout.split("\n")[0];
  assert.match(id, /^job-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  return id;
}

async function status(sb: Sandbox, id: string, ...args: string[]): Promise<JobRecord> {
  const out = await runCli(sb, ["status", id, "--json", ...args]);
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
}

/** Wait until the fake provider of a `hang` step has started (its log line has its pids). */
async function providerStarted(sb: Sandbox): Promise<{ pid: number; grandchildPid: number }> {
  await waitFor(async () => (await readFakeLog(sb)).some((c) => c.grandchildPid), 60_000);
  const call = (await readFakeLog(sb)).find((c) => c.grandchildPid)!;
  return { pid: call.pid, grandchildPid: call.grandchildPid! };
}

Deno.test("review --background: queued → running → finished; status --wait; result prints the job's own run and exits with its code", async () => {
  await withJobs(async (sb) => {
    const scenario = await writeScenario(sb, "block", [{
      kind: "valid",
      answer: blocking("b is wrong"),
      delayMs: 1500,
    }]);
    const id = await background(sb, [], scenario);
    const first = await status(sb, id);
    assert.ok(["queued", "running"].includes(first.state), first.state);
    assert.ok(first.process?.pid, "the job process is recorded at once");
    const waited = await status(sb, id, "--wait", "--timeout", "120");
    assert.equal(waited.state, "finished");
    assert.equal(waited.status, "needs-attention");
    assert.equal(waited.exitCode, 1);
    assert.equal(waited.target, "working tree");
    assert.ok(await running(waited.process!.pid) === false, "the job process has exited");
    // the job reused its review's run folder
    const folder = await readRunFolder(waited.runDir!);
    assert.equal(folder.run.id, waited.runId);
    assert.equal(folder.run.status, "needs-attention");

    const result = await runCli(sb, ["result", id]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^review-gate: needs attention — 1 finding, 1 blocking/);
    assert.ok(result.stdout.includes("b is wrong"));
    assert.ok(result.stdout.includes(`Run folder: ${waited.runDir}`));
    const json = JSON.parse((await runCli(sb, ["result", "--json"])).stdout);
    assert.equal(json.runId, waited.runId);
    const list = await runCli(sb, ["jobs"]);
    assert.match(
      list.stdout,
      new RegExp(`^${id}\\s+finished\\s+needs-attention \\(blocking\\)`, "m"),
    );
  });
});

Deno.test("two jobs at once: each result is its own job's review", async () => {
  await withJobs(async (sb) => {
    const slow = await writeScenario(sb, "slow", [{
      kind: "valid",
      answer: blocking("first job's finding"),
      delayMs: 2500,
    }]);
    const fast = await writeScenario(sb, "fast", [{ kind: "valid" }]);
    const a = await background(sb, ["--no-cache"], slow);
    const b = await background(sb, [
      "--no-cache",
      "--focus=--background",
      "--format",
      "json",
      "--output",
      "b.json",
    ], fast);
    const [ja, jb] = await Promise.all([
      status(sb, a, "--wait", "--timeout", "120"),
      status(sb, b, "--wait", "--timeout", "120"),
    ]);
    assert.equal(ja.status, "needs-attention");
    assert.equal(jb.status, "approved");
    assert.notEqual(ja.runDir, jb.runDir);
    assert.deepEqual(
      jb.args,
      ["--focus=--background", "--no-cache", "--format=json", "--output=b.json"],
      "a value stays a value; outputs keep their order",
    );
    const written = JSON.parse(await Deno.readTextFile(join(sb.repo.root, "b.json")));
    assert.equal(written.runId, jb.runId, "the job wrote its --output file");
    const ra = await runCli(sb, ["result", a.slice(-6)]);
    const rb = await runCli(sb, ["result", b]);
    assert.equal(ra.code, 1);
    assert.ok(ra.stdout.includes("first job's finding"));
    assert.equal(rb.code, 0);
    assert.match(rb.stdout, /^review-gate: approved/);
    // the newest job is b, whichever finished last
    assert.equal((await runCli(sb, ["result"])).code, 0);
  });
});

Deno.test("cancel during the provider call stops the job, the provider and its grandchild (checked by pid)", async () => {
  await withJobs(async (sb) => {
    const id = await background(sb, [], "hang");
    const provider = await providerStarted(sb);
    const before = await status(sb, id);
    assert.equal(before.state, "running");
    const jobPid = before.process!.pid;
    for (const pid of [jobPid, provider.pid, provider.grandchildPid]) {
      assert.ok(await running(pid), `pid ${pid} runs before the cancel`);
    }
    const out = await runCli(sb, ["cancel"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, `Cancelled job ${id}\n`, "it stopped on SIGTERM, nothing was killed");
    for (const pid of [jobPid, provider.pid, provider.grandchildPid]) {
      assert.equal(await running(pid), false, `pid ${pid} is left after the cancel`);
    }
    const after = await status(sb, id);
    assert.equal(after.state, "cancelled");
    assert.equal(after.reason, "Cancelled by review-gate cancel");
    assert.equal((await readRunFolder(after.runDir!)).run.status, "interrupted");
    const result = await runCli(sb, ["result", id]);
    assert.equal(result.code, 130);
    assert.match(result.stdout, /^review-gate: NOT reviewed — job .* cancelled/);
    const again = await runCli(sb, ["cancel", id]);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /had already ended \(cancelled\)/);
  });
});

Deno.test("a job killed with SIGKILL is failed with the reason, never running; its provider is stopped", async () => {
  await withJobs(async (sb) => {
    const id = await background(sb, [], "hang");
    const provider = await providerStarted(sb);
    const job = await status(sb, id);
    await waitFor(async () => ((await status(sb, id)).children ?? []).length > 0, 30_000);
    Deno.kill(job.process!.pid, "SIGKILL");
    await waitFor(async () => !await running(job.process!.pid), 10_000);
    const list = await runCli(sb, ["jobs"]);
    assert.match(list.stdout, new RegExp(`^${id}\\s+failed\\s+not reviewed`, "m"), list.stdout);
    const failed = await status(sb, id);
    assert.equal(failed.state, "failed");
    assert.match(
      failed.reason!,
      new RegExp(
        `^The job process \\(pid ${
          job.process!.pid
        }\\) ended before the review ended: it was killed`,
      ),
    );
    // the provider's watchdog (lib/exec/watchdog.ts) ends it as the job dies; a status that
    // looks first stops it itself and says so ("what it had started (pid …) was stopped")
    for (const pid of [provider.pid, provider.grandchildPid]) {
      await waitFor(async () => !await running(pid), 5_000).catch(() => {});
      assert.equal(await running(pid), false, `pid ${pid} outlived its job`);
    }
    const result = await runCli(sb, ["result", id]);
    assert.equal(result.code, 3);
    assert.match(result.stdout, /NOT reviewed — job .* failed: The job process/);
  });
});

Deno.test("a job past its wall-clock ceiling (background.max_seconds) is failed and leaves no process", async () => {
  await withJobs(async (sb) => {
    await Deno.writeTextFile(
      join(sb.repo.root, ".review-gate.json"),
      JSON.stringify({ background: { max_seconds: 8 } }),
    );
    const id = await background(sb, [], "hang");
    const ended = await status(sb, id, "--wait", "--timeout", "90");
    assert.equal(ended.state, "failed");
    assert.equal(ended.ceilingSeconds, 8);
    assert.match(
      ended.reason!,
      /passed its wall-clock ceiling of 8 s \(config background.max_seconds\)/,
    );
    const pids = [ended.process!.pid];
    // the ceiling usually falls in the provider call: the provider and its grandchild go too
    for (const call of await readFakeLog(sb)) pids.push(call.pid, call.grandchildPid!);
    for (const pid of pids.filter(Boolean)) {
      assert.equal(await running(pid), false, `pid ${pid} is left`);
    }
  });
});

Deno.test("status --wait racing the job's last write: every concurrent reader reports the same end", async () => {
  await withJobs(async (sb) => {
    const scenario = await writeScenario(sb, "ok", [{ kind: "valid", delayMs: 1000 }]);
    const id = await background(sb, [], scenario);
    const waiters = Array.from(
      { length: 3 },
      () => spawnCli(sb, ["status", id, "--wait", "--json", "--timeout", "120"]).output(),
    );
    const seen: string[] = [];
    let last: JobRecord | undefined;
    while (last?.state !== "finished") {
      const out = await runCli(sb, ["jobs", "--json"]);
      assert.equal(out.code, 0, out.stderr);
      last = (JSON.parse(out.stdout) as JobRecord[]).find((j) => j.id === id)!;
      seen.push(last.state);
      assert.ok(["queued", "running", "finished"].includes(last.state), seen.join(" "));
    }
    for (const out of await Promise.all(waiters)) {
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const job = JSON.parse(new TextDecoder().decode(out.stdout)) as JobRecord;
      assert.equal(job.state, "finished");
      assert.equal(job.status, "approved");
      assert.equal(job.runId, last.runId);
    }
  });
});

Deno.test("a queued job cancelled before its process starts is never run; usage errors start no job", async () => {
  await withJobs(async (sb) => {
    const dir = join(sb.repo.root, ".git", "review-gate", "jobs");
    await Deno.mkdir(dir, { recursive: true });
    const id = "job-20260101T000000Z-0a0b0c";
    const now = new Date().toISOString();
    const record = {
      version: 1,
      id,
      state: "queued",
      createdAt: now,
      updatedAt: now,
      args: [],
      cwd: sb.repo.root,
      target: "working tree",
      provider: "claude",
      answerKind: "review",
      ceilingSeconds: 600,
      log: join(dir, `${id}.log`),
    };
    await Deno.writeTextFile(join(dir, `${id}.json`), JSON.stringify(record));
    const cancel = await runCli(sb, ["cancel", id]);
    assert.equal(cancel.code, 0, cancel.stderr);
    assert.equal((await status(sb, id)).state, "cancelled");
    const late = await runCli(sb, ["review", "--job-id", id], { scenario: "valid" });
    assert.equal(late.code, 130, late.stderr);
    assert.deepEqual(await readFakeLog(sb), [], "the review never ran");

    const usage = await runCli(sb, ["review", "--background", "--plan", "nope.md"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Cannot read the plan "nope.md"/);
    assert.equal((await jobRecords(sb)).length, 1, "no job was started");
    const missing = await runCli(sb, ["status", "zzzzzz"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No job "zzzzzz"/);
  });
});

Deno.test("jobs --prune removes ended jobs older than DAYS and keeps the rest", async () => {
  await withJobs(async (sb) => {
    const dir = join(sb.repo.root, ".git", "review-gate", "jobs");
    await Deno.mkdir(dir, { recursive: true });
    const day = 86_400_000;
    const write = async (suffix: string, state: string, ageDays: number) => {
      const id = `job-20260101T000000Z-${suffix}`;
      const at = new Date(Date.now() - ageDays * day).toISOString();
      await Deno.writeTextFile(
        join(dir, `${id}.json`),
        JSON.stringify({
          version: 1,
          id,
          state,
          createdAt: at,
          updatedAt: at,
          finishedAt: at,
          args: [],
          cwd: sb.repo.root,
          target: "working tree",
          provider: "claude",
          answerKind: "review",
          ceilingSeconds: 600,
          status: "approved",
          log: join(dir, `${id}.log`),
        }),
      );
      await Deno.writeTextFile(join(dir, `${id}.log`), "");
      return id;
    };
    const old = await write("aaaaaa", "finished", 10);
    const oldFailed = await write("bbbbbb", "failed", 8);
    const recent = await write("cccccc", "finished", 1);
    const out = await runCli(sb, ["jobs", "--prune"]);
    assert.equal(out.stdout, "Removed 2 ended jobs\n");
    const left = (await jobRecords(sb)).map((j) => j.id);
    assert.deepEqual(left, [recent]);
    for (const id of [old, oldFailed]) {
      assert.equal(await Deno.lstat(join(dir, `${id}.log`)).catch(() => null), null);
    }
    assert.equal((await runCli(sb, ["jobs", "--prune", "0"])).stdout, "Removed 1 ended job\n");
    assert.match((await runCli(sb, ["jobs"])).stdout, /^No background jobs/);
  });
});

Deno.test("a running job: result refuses, status --wait gives up at --timeout or Ctrl-C (the job runs on); a SIGTERM from outside (not cancel) fails it with the reason", async () => {
  await withJobs(async (sb) => {
    const id = await background(sb, [], "hang");
    const provider = await providerStarted(sb);
    const job = await status(sb, id);
    assert.equal(job.state, "running");
    const early = await runCli(sb, ["result", id]);
    assert.equal(early.code, 2, early.stderr);
    assert.match(early.stderr, new RegExp(`Job ${id} is still running: wait for it with`));
    assert.equal(early.stdout, "");
    const impatient = await runCli(sb, ["status", id, "--wait", "--timeout", "0.5"]);
    assert.equal(impatient.code, 1, impatient.stderr);
    assert.match(impatient.stderr, new RegExp(`job ${id} is still running`));
    const waiter = spawnCli(sb, ["status", id, "--wait"]);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // the waiter has started polling
    waiter.kill("SIGINT");
    const interrupted = await waiter.output();
    assert.equal(interrupted.code, 130);
    assert.match(
      new TextDecoder().decode(interrupted.stderr),
      new RegExp(`stopped waiting; job ${id} is still running \\(stop it with "review-gate cancel`),
    );
    assert.equal((await status(sb, id)).state, "running", "Ctrl-C on status stops the wait only");

    Deno.kill(job.process!.pid, "SIGTERM");
    const ended = await status(sb, id, "--wait", "--timeout", "60");
    assert.equal(ended.state, "failed");
    assert.equal(ended.reason, "The job process was interrupted by a signal");
    for (const pid of [job.process!.pid, provider.pid, provider.grandchildPid]) {
      await waitFor(async () => !await running(pid), 10_000);
    }
    const result = await runCli(sb, ["result", id]);
    assert.equal(result.code, 3);
    assert.match(result.stdout, /^review-gate: NOT reviewed — job .* failed: The job process was/);
  });
});

Deno.test("a job whose provider fails is finished with that status; result says it was not reviewed (exit 3)", async () => {
  await withJobs(async (sb) => {
    const id = await background(sb, ["--no-cache"], "crash");
    const ended = await status(sb, id, "--wait", "--timeout", "120");
    assert.equal(ended.state, "finished");
    assert.equal(ended.exitCode, 3);
    assert.equal(ended.status, "provider-error");
    const list = await runCli(sb, ["jobs"]);
    assert.match(
      list.stdout,
      new RegExp(`^${id}\\s+finished\\s+not reviewed \\(provider-error\\)`, "m"),
    );
    const shown = await runCli(sb, ["status", id]);
    assert.match(
      shown.stdout,
      /^Job .*: finished after \d+\.\d s — NOT reviewed \(provider-error\) \(exit 3\)$/m,
    );
    const result = await runCli(sb, ["result", id]);
    assert.equal(result.code, 3, result.stdout);
    assert.match(
      result.stdout,
      /^review-gate: NOT reviewed — provider-error \(claude \(auto\) \(the bundled fake\), /,
    );
    assert.ok(result.stdout.includes("stderr: fake provider: segmentation fault"), result.stdout);
  });
});

Deno.test("a background review only part of whose change reached the model says so in jobs and status", async () => {
  await withJobs(async (sb) => {
    await sb.repo.write("logo.png", new Uint8Array([0x89, 0x50, 0, 2, 3])); // binary: never inlined
    const id = await background(sb, [], "valid");
    const ended = await status(sb, id, "--wait", "--timeout", "120");
    assert.equal(ended.state, "finished");
    assert.equal(ended.status, "approved");
    assert.equal(ended.partial, true);
    const list = await runCli(sb, ["jobs"]);
    assert.match(
      list.stdout,
      new RegExp(`^${id}\\s+finished\\s+approved, only partially reviewed`, "m"),
    );
    const shown = await runCli(sb, ["status", id]);
    assert.match(shown.stdout, /— approved, only partially reviewed \(exit 0\)$/m);
    const result = await runCli(sb, ["result", id]);
    assert.match(result.stdout, /partially reviewed/i);
  });
});
