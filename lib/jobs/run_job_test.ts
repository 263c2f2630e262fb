import assert from "node:assert/strict";
import { runProcess } from "../exec/exec.ts";
import type { ReviewOutcome } from "../review/run_review.ts";
import { createJob, type JobRecord, readJob } from "../store/jobs.ts";
import type { RunRecord } from "../store/run_record.ts";
import { endedJob, runJob } from "./run_job.ts";
import { jobRecord, withState } from "./_test_jobs.ts";

function queued(state: string, patch: Partial<JobRecord> = {}): JobRecord {
  return jobRecord(state, "queued", patch);
}

function outcome(status: RunRecord["status"], exitCode: number, blocking = false) {
  return {
    record: {
      id: "20260101T000000Z-aaaaaa",
      status,
      blocking,
      reviewKind: "review",
      target: { kind: "worktree", label: "working tree" },
      provider: "claude",
      startedAt: "",
      finishedAt: "",
      durationMs: 1,
      attempts: [],
      cached: false,
      runDir: "/state/runs/20260101T000000Z-aaaaaa",
    },
    exitCode,
  } as ReviewOutcome<unknown>;
}

Deno.test("endedJob() maps how the review ended to the job's final state", async (t) => {
  const job = { ...queued("/s"), state: "running" as const };
  const now = new Date("2026-01-01T00:00:10Z");
  const cases: [string, Parameters<typeof endedJob>[1], Partial<JobRecord>, JobRecord][] = [
    [
      "finished, blocking",
      { outcome: outcome("needs-attention", 1, true), ceilingPassed: false },
      {},
      {
        ...job,
        state: "finished",
        status: "needs-attention",
        blocking: true,
        exitCode: 1,
      } as JobRecord,
    ],
    [
      "finished, could not run",
      { outcome: outcome("provider-error", 3), ceilingPassed: false },
      {},
      {
        ...job,
        state: "finished",
        status: "provider-error",
        blocking: false,
        exitCode: 3,
      } as JobRecord,
    ],
  ];
  for (const [name, end, patch, expected] of cases) {
    await t.step(name, () => {
      const ended = endedJob({ ...job, ...patch }, end, now);
      assert.equal(ended.state, expected.state);
      assert.equal(ended.status, expected.status);
      assert.equal(ended.exitCode, expected.exitCode);
      assert.equal(ended.runDir, "/state/runs/20260101T000000Z-aaaaaa");
      assert.equal(ended.finishedAt, now.toISOString());
    });
  }
  await t.step("finished with partial coverage: recorded partial; complete: not", () => {
    const partial = outcome("approved", 0);
    partial.record.coverage = { status: "partial" } as NonNullable<RunRecord["coverage"]>;
    assert.equal(endedJob(job, { outcome: partial, ceilingPassed: false }, now).partial, true);
    const full = endedJob(job, { outcome: outcome("approved", 0), ceilingPassed: false }, now);
    assert.equal(full.partial, undefined);
  });
  await t.step("interrupted after a cancel request: cancelled", () => {
    const ended = endedJob(
      { ...job, cancelRequestedAt: "x" },
      { outcome: outcome("interrupted", 130), ceilingPassed: false },
      now,
    );
    assert.equal(ended.state, "cancelled");
    assert.equal(ended.runId, "20260101T000000Z-aaaaaa");
  });
  await t.step("interrupted at the ceiling: failed with the ceiling", () => {
    const ended = endedJob(job, { outcome: outcome("interrupted", 130), ceilingPassed: true }, now);
    assert.equal(ended.state, "failed");
    assert.match(ended.reason!, /passed its wall-clock ceiling of 600 s/);
  });
  await t.step("interrupted by another signal: failed", () => {
    const ended = endedJob(
      job,
      { outcome: outcome("interrupted", 130), ceilingPassed: false },
      now,
    );
    assert.equal(ended.state, "failed");
    assert.equal(ended.reason, "The job process was interrupted by a signal");
  });
  await t.step("the review threw: failed with its message", () => {
    const ended = endedJob(job, { error: new Error("Invalid config"), ceilingPassed: false }, now);
    assert.equal(ended.state, "failed");
    assert.equal(ended.reason, "The review could not run: Invalid config");
  });
});

Deno.test("runJob() takes a queued job up, records its run, and finishes it", async () => {
  await withState(async (state) => {
    const job = queued(state);
    await createJob(state, job);
    let during: JobRecord | null = null;
    const end = await runJob({ state, id: job.id }, async (hooks) => {
      during = await readJob(state, job.id);
      await hooks.onRunOpened({ id: "r1", runDir: "/state/runs/r1", label: "main...HEAD" });
      assert.equal(hooks.signal.aborted, false);
      return outcome("approved", 0);
    }, {
      runner: runProcess,
      now: () => new Date(),
      signal: new AbortController().signal,
      pid: Deno.pid,
    });
    assert.equal(during!.state, "running");
    assert.equal(during!.process!.pid, Deno.pid);
    assert.match(during!.process!.startedAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal(end.exitCode, 0);
    const stored = (await readJob(state, job.id))!;
    assert.equal(stored.state, "finished");
    assert.equal(stored.status, "approved");
    assert.equal(stored.target, "working tree"); // from the outcome's record
  });
});

Deno.test("runJob() does not run a job cancelled while queued, nor one already taken up", async () => {
  await withState(async (state) => {
    const cancelled = queued(state, { state: "cancelled" });
    const running = queued(state, { state: "running" });
    await createJob(state, cancelled);
    await createJob(state, running);
    const never = () => Promise.reject(new Error("must not run"));
    const deps = {
      runner: runProcess,
      now: () => new Date(),
      signal: new AbortController().signal,
      pid: Deno.pid,
    };
    assert.equal((await runJob({ state, id: cancelled.id }, never, deps)).exitCode, 130);
    assert.equal((await runJob({ state, id: running.id }, never, deps)).exitCode, 2);
    assert.equal((await readJob(state, running.id))!.state, "running");
  });
});

Deno.test("runJob() aborts the review at the ceiling and records the job failed", async () => {
  await withState(async (state) => {
    const job = queued(state, { ceilingSeconds: 0.2 } as Partial<JobRecord>);
    await createJob(state, job);
    const end = await runJob({ state, id: job.id }, async (hooks) => {
      await new Promise((resolve) => hooks.signal.addEventListener("abort", resolve));
      return outcome("interrupted", 130);
    }, {
      runner: runProcess,
      now: () => new Date(),
      signal: new AbortController().signal,
      pid: Deno.pid,
    });
    assert.equal(end.job.state, "failed");
    assert.match(end.job.reason!, /ceiling/);
  });
});
