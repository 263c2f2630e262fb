import assert from "node:assert/strict";
import { join } from "node:path";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { processInfo } from "../exec/process_info.ts";
import { createJob, type JobRecord, readJob, updateJob } from "../store/jobs.ts";
import { CEILING_GRACE_MS, QUEUE_GRACE_MS, refreshJob } from "./refresh.ts";
import { jobRecord, withState } from "./_test_jobs.ts";

function record(state: string, patch: Partial<JobRecord> = {}): JobRecord {
  return jobRecord(state, "running", patch);
}

/** A `sleep` in its own session; `stop()` kills and reaps it, leaving its pid dead. */
async function sleeper() {
  const child = new Deno.Command("sleep", { args: ["60"], detached: true, stdout: "null" }).spawn();
  const info = (await processInfo(runProcess, child.pid))!;
  return {
    process: { pid: child.pid, startedAt: info.startedAt },
    stop: async () => {
      try {
        Deno.kill(child.pid, "SIGKILL");
      } catch { /* gone */ }
      await child.status;
    },
  };
}

const io = { runner: runProcess, now: () => new Date() };

Deno.test("refreshJob() settles a job whose process died: failed with the reason, its provider stopped", async () => {
  await withState(async (state) => {
    const job = await sleeper();
    const provider = await sleeper();
    try {
      const rec = record(state, { process: job.process, children: [provider.process] });
      await createJob(state, rec);
      await Deno.mkdir(join(state, "jobs"), { recursive: true });
      await Deno.writeTextFile(rec.log, "starting\nreview-gate: something odd\n");
      assert.equal((await refreshJob(state, rec, io)).state, "running", "alive: unchanged");
      await job.stop();
      const settled = await refreshJob(state, rec, io);
      assert.equal(settled.state, "failed");
      assert.match(
        settled.reason!,
        new RegExp(
          `^The job process \\(pid ${job.process.pid}\\) ended before the review ended: it was killed`,
        ),
      );
      assert.match(
        settled.reason!,
        new RegExp(`what it had started \\(pid ${provider.process.pid}\\) was stopped`),
      );
      assert.match(settled.reason!, /its log ends: review-gate: something odd$/);
      assert.deepEqual(await readJob(state, rec.id), settled);
      const left = await processInfo(runProcess, provider.process.pid);
      assert.ok(left === null || left.zombie, "the provider was killed");
      // settled once: a second look changes nothing
      assert.deepEqual(await refreshJob(state, settled, io), settled);
    } finally {
      await job.stop();
      await provider.stop();
    }
  });
});

Deno.test("refreshJob() finishes a dead job whose run had finished, with the run's status", async () => {
  await withState(async (state) => {
    const job = await sleeper();
    await job.stop();
    const runDir = join(state, "runs", "r1");
    await Deno.mkdir(runDir, { recursive: true });
    await Deno.writeTextFile(
      join(runDir, "run.json"),
      JSON.stringify({
        id: "r1",
        status: "needs-attention",
        blocking: true,
        finishedAt: "2026-01-01T00:00:00.000Z",
      }),
    );
    const rec = record(state, { process: job.process, runId: "r1", runDir });
    await createJob(state, rec);
    const settled = await refreshJob(state, rec, io);
    assert.equal(settled.state, "finished");
    assert.equal(settled.status, "needs-attention");
    assert.equal(settled.exitCode, 1);
  });
});

Deno.test("refreshJob() kills a live job past its ceiling and grace, and fails a queued job that never started", async () => {
  await withState(async (state) => {
    const job = await sleeper();
    try {
      const old = new Date(Date.now() - 10_000 - CEILING_GRACE_MS).toISOString();
      const overdue = record(state, { process: job.process, ceilingSeconds: 10, createdAt: old });
      await createJob(state, overdue);
      const killed = await refreshJob(state, overdue, io);
      assert.equal(killed.state, "failed");
      assert.match(
        killed.reason!,
        /ran past its wall-clock ceiling of 10 s and did not stop: it was killed/,
      );
      const info = await processInfo(runProcess, job.process.pid);
      assert.ok(info === null || info.zombie);
    } finally {
      await job.stop();
    }
    const queued = record(state, { state: "queued" });
    await createJob(state, queued);
    assert.equal((await refreshJob(state, queued, io)).state, "queued", "within the grace");
    const later = { runner: runProcess, now: () => new Date(Date.now() + QUEUE_GRACE_MS + 1) };
    const never = await refreshJob(state, queued, later);
    assert.equal(never.state, "failed");
    assert.match(never.reason!, /ended before it started the review/);
  });
});

Deno.test("refreshJob() racing the job's last write reports what the job wrote, never failed", async () => {
  await withState(async (state) => {
    const job = await sleeper();
    const rec = record(state, { process: job.process });
    await createJob(state, rec);
    // The job writes "finished" and exits between our read of the record and our look at ps.
    const racing = async (request: ExecRequest) => {
      if (request.cmd === "ps" && request.args.includes("-p")) {
        await updateJob(state, rec.id, (current) => ({
          ...current,
          state: "finished",
          status: "approved",
          exitCode: 0,
          blocking: false,
        }));
        await job.stop();
      }
      return await runProcess(request);
    };
    const seen = await refreshJob(state, rec, { runner: racing, now: () => new Date() });
    assert.equal(seen.state, "finished");
    assert.equal(seen.status, "approved");
    assert.equal((await readJob(state, rec.id))!.state, "finished");
  });
});

Deno.test("refreshJob() leaves a job as recorded when ps cannot tell", async () => {
  await withState(async (state) => {
    const rec = record(state, {
      process: { pid: 12345678, startedAt: "2026-01-01T00:00:00.000Z" },
    });
    await createJob(state, rec);
    const broken = () => Promise.reject(new Error("no ps"));
    assert.deepEqual(await refreshJob(state, rec, { runner: broken, now: () => new Date() }), rec);
  });
});
