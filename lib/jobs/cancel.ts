/**
 * Cancelling a job (`review-gate cancel`), so that nothing it started keeps running — the
 * reference system's cancel left the provider running. A queued job with no process yet is marked
 * `cancelled` (its process, when it starts, does not run the review). A running job is asked to stop
 * first: `cancelRequestedAt` is recorded, then SIGTERM goes to its process group; the job's own
 * interrupt handling kills the provider's group (its own session), stores the run as
 * `interrupted` and records `cancelled`. Whatever still runs after {@linkcode CANCEL_GRACE_MS} —
 * the job, the children it recorded, the descendants `ps` showed under it before the signal — is
 * killed with SIGKILL, each checked by pid and start time; the job is then recorded `cancelled`
 * whatever it managed to write.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { isRunning } from "../exec/process_info.ts";
import {
  ENDED_STATES,
  type JobRecord,
  readJob,
  type TrackedProcess,
  updateJob,
} from "../store/jobs.ts";
import { refreshJob } from "./refresh.ts";
import { descendantsNow, killRecorded, signalGroup, stillRunning } from "./stop.ts";

/** How long a job gets to stop on SIGTERM before it is killed, milliseconds. */
export const CANCEL_GRACE_MS = 10_000;

/** What a cancel did. */
export interface CancelResult {
  /** The job's record afterwards. */
  job: JobRecord;
  /** What happened, one line: "cancelled", "already finished", … */
  outcome: "cancelled" | "ended-before" | "already-ended";
  /** Pids killed with SIGKILL after the grace (empty when the job stopped by itself). */
  killed: number[];
  /** Pids of processes of the job still running afterwards (should be empty). */
  left: number[];
}

/** The I/O of a cancel. */
export interface CancelDeps {
  runner: Runner;
  now: () => Date;
  /** Waits (injectable for tests). */
  sleep?: (ms: number) => Promise<void>;
  /** Grace before SIGKILL, milliseconds. */
  graceMs?: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Cancel a job.
 *
 * @param state the state dir
 * @param job the job as read
 * @returns what happened and what is left (nothing, unless a process could not be killed)
 * @throws {import("../base/errors.ts").StoreError} when the jobs lock or file cannot be had
 */
export async function cancelJob(
  state: string,
  job: JobRecord,
  deps: CancelDeps,
): Promise<CancelResult> {
  const current = await refreshJob(state, job, deps);
  if (ENDED_STATES.has(current.state)) {
    return { job: current, outcome: "already-ended", killed: [], left: [] };
  }
  const now = deps.now().toISOString();
  const asked = await updateJob(state, job.id, (latest) => {
    if (ENDED_STATES.has(latest.state)) return null;
    if (!latest.process) {
      return {
        ...latest,
        state: "cancelled",
        reason: "Cancelled by review-gate cancel before it started",
        cancelRequestedAt: now,
        finishedAt: now,
        updatedAt: now,
      };
    }
    return { ...latest, cancelRequestedAt: now, updatedAt: now };
  }) ?? current;
  if (ENDED_STATES.has(asked.state)) {
    const outcome = asked.state === "cancelled" && !asked.process ? "cancelled" : "ended-before";
    return { job: asked, outcome, killed: [], left: [] };
  }
  return await stopRunning(state, asked, deps);
}

/** SIGTERM the job's group, wait, SIGKILL what is left, record `cancelled`. */
async function stopRunning(
  state: string,
  job: JobRecord,
  deps: CancelDeps,
): Promise<CancelResult> {
  const process = job.process!;
  const sleep = deps.sleep ?? pause;
  // Known before the signal: once the job exits, its children are orphans ps cannot tie to it.
  const tracked: TrackedProcess[] = [
    process,
    ...await descendantsNow(deps.runner, process),
    ...job.children ?? [],
  ];
  signalGroup(process.pid, "SIGTERM");
  const deadline = Date.now() + (deps.graceMs ?? CANCEL_GRACE_MS);
  while (Date.now() < deadline && await isRunning(deps.runner, process).catch(() => false)) {
    await sleep(100);
  }
  const latest = await readBack(state, job);
  const killed = await killRecorded(deps.runner, [...tracked, ...latest.children ?? []]);
  const left = await stillRunning(deps.runner, tracked);
  const now = deps.now().toISOString();
  const ended =
    await updateJob(state, job.id, (current) =>
      ENDED_STATES.has(current.state) ? null : {
        ...current,
        state: "cancelled",
        reason: killed.length > 0
          ? `Cancelled by review-gate cancel; killed after ${
            (deps.graceMs ?? CANCEL_GRACE_MS) / 1000
          } s: pid ${killed.join(", ")}`
          : "Cancelled by review-gate cancel",
        finishedAt: now,
        updatedAt: now,
      }) ?? latest;
  const outcome = ended.state === "cancelled" ? "cancelled" : "ended-before";
  return { job: ended, outcome, killed, left };
}

async function readBack(state: string, job: JobRecord): Promise<JobRecord> {
  return await readJob(state, job.id) ?? job;
}
