import assert from "node:assert/strict";
import type { JobRecord } from "../store/jobs.ts";
import { formatAge, jobVerdict, renderJobsTable, renderJobStatus } from "./describe.ts";

const NOW = new Date("2026-01-01T00:01:00Z");

function job(patch: Partial<JobRecord>): JobRecord {
  return {
    version: 1,
    id: "job-20260101T000000Z-a1b2c3",
    state: "finished",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:30Z",
    startedAt: "2026-01-01T00:00:01Z",
    finishedAt: "2026-01-01T00:00:31Z",
    args: [],
    cwd: "/repo",
    target: "working tree",
    provider: "claude",
    answerKind: "review",
    ceilingSeconds: 600,
    log: "/repo/.git/review-gate/jobs/job-20260101T000000Z-a1b2c3.log",
    ...patch,
  };
}

Deno.test("jobVerdict() and renderJobStatus() never show a job no model judged as anything but NOT reviewed, and say partially reviewed", async (t) => {
  const cases: [string, Partial<JobRecord>, string, RegExp][] = [
    [
      "approved",
      { status: "approved", blocking: false, exitCode: 0 },
      "approved",
      /: finished after 30\.0 s — approved \(exit 0\)$/m,
    ],
    [
      "blocking",
      { status: "needs-attention", blocking: true, exitCode: 1 },
      "needs-attention (blocking)",
      /: finished after 30\.0 s — needs-attention, blocking \(exit 1\)$/m,
    ],
    [
      "partially reviewed",
      { status: "approved", blocking: false, exitCode: 0, partial: true },
      "approved, only partially reviewed",
      /: finished after 30\.0 s — approved, only partially reviewed \(exit 0\)$/m,
    ],
    [
      "could not run",
      { status: "timeout", blocking: false, exitCode: 3 },
      "not reviewed (timeout)",
      /: finished after 30\.0 s — NOT reviewed \(timeout\) \(exit 3\)$/m,
    ],
    [
      "none of the change shown",
      { status: "not-reviewed", blocking: false, exitCode: 3 },
      "not reviewed (not-reviewed)",
      /— NOT reviewed \(not-reviewed\) \(exit 3\)$/m,
    ],
    [
      "failed",
      { state: "failed", reason: "The job process (pid 7) ended before the review ended" },
      "not reviewed",
      /: failed after 30\.0 s — NOT reviewed\n.*\n {2}The job process \(pid 7\) ended/,
    ],
    [
      "cancelled",
      { state: "cancelled" },
      "not reviewed",
      /: cancelled after 30\.0 s — NOT reviewed/,
    ],
    [
      "running",
      { state: "running", finishedAt: undefined, process: { pid: 42, startedAt: "x" } },
      "…",
      /: running for 59s\n[\s\S]*process: pid 42/,
    ],
  ];
  for (const [name, patch, verdict, status] of cases) {
    await t.step(name, () => {
      const j = job(patch);
      assert.equal(jobVerdict(j), verdict);
      assert.match(renderJobStatus(j, NOW), status);
      assert.ok(renderJobsTable([j], NOW).split("\n")[1].includes(verdict));
    });
  }
});

Deno.test("formatAge() gives seconds, minutes, hours, days", () => {
  assert.deepEqual([-5, 0, 59_999, 60_000, 3_600_000, 86_400_000 * 3].map(formatAge), [
    "0s",
    "0s",
    "59s",
    "1m",
    "1h",
    "3d",
  ]);
});

Deno.test("renderJobStatus() rounds a job's time as result rounds the review's: 0.8 s, not 0s", () => {
  const quick = job({
    status: "approved",
    blocking: false,
    exitCode: 0,
    startedAt: "2026-01-01T00:00:01.000Z",
    finishedAt: "2026-01-01T00:00:01.800Z",
  });
  assert.match(renderJobStatus(quick, NOW), /: finished after 0\.8 s — approved \(exit 0\)$/m);
  const long = job({ status: "approved", exitCode: 0, finishedAt: "2026-01-01T00:02:31Z" });
  assert.match(renderJobStatus(long, NOW), /: finished after 2m — approved/);
});

Deno.test("a background worker's job, recorded before jobs carried `work` (known by its args), is shown as a worker with unknown tallies, never undefined", () => {
  const old = job({
    args: ["hook", "claude-worker", "sess-7", "/repo", "job-20260101T000000Z-a1b2c3"],
    target: "this Claude Code turn's changes, reviewed while the agent works",
    reason: "the Stop answered",
  });
  assert.equal(jobVerdict(old), "no verdict (background: ? calls, ? parts answered)");
  const status = renderJobStatus(old, NOW);
  assert.doesNotMatch(status, /undefined/);
  assert.match(
    status,
    /— background review of session sess-7's turn: \? calls, \? parts answered$/m,
  );
  assert.match(status, /^ {2}ended: the Stop answered$/m);
  const running = renderJobStatus({ ...old, state: "running", finishedAt: undefined }, NOW);
  assert.match(running, /running for 59s\n {2}background review of session sess-7's turn\n/);
});
