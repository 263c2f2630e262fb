/**
 * The job side of `review --background`: the detached process started with `--job-id <id>` takes
 * its job up (`queued` → `running`, with its own pid and start time; a job cancelled while queued
 * is not run), runs the review under the job's wall-clock ceiling while recording its long-lived
 * children, records the run as soon as its folder exists (a job reuses its review's run folder),
 * and ends the job: `finished` with the review's status and exit code, `cancelled` when `cancel`
 * asked for it, `failed` (with the reason) when the ceiling passed, a signal stopped it or the
 * review threw.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { processInfo } from "../exec/process_info.ts";
import type { ReviewOutcome } from "../review/run_review.ts";
import { ENDED_STATES, type JobRecord, readJob, updateJob } from "../store/jobs.ts";
import { trackJobChildren } from "./track_children.ts";

/** What the job gives the review it runs. */
export interface JobHooks {
  /** Aborts on the process's interrupt signal (a cancel) and at the ceiling. */
  signal: AbortSignal;
  /** Records the run (pass on as `ReviewDeps.onRunOpened`). */
  onRunOpened: (run: { id: string; runDir: string; label: string }) => Promise<void>;
}

/** The I/O of a job. */
export interface JobDeps {
  runner: Runner;
  now: () => Date;
  /** Aborted on SIGINT/SIGTERM/SIGHUP (`cancel` sends SIGTERM). */
  signal: AbortSignal;
  /** This process's id. */
  pid: number;
}

/** How a job's review ended, and the exit code of the job process. */
export interface JobEnd {
  job: JobRecord;
  /** The review's outcome, when the review ran and returned. */
  outcome?: ReviewOutcome<unknown>;
  exitCode: number;
}

/** Take the job up: `queued` → `running`; `null` when it must not run (cancelled, ended, gone). */
async function takeUp(state: string, id: string, deps: JobDeps): Promise<JobRecord | null> {
  const own = await processInfo(deps.runner, deps.pid).catch(() => null);
  const now = deps.now().toISOString();
  const job = await updateJob(state, id, (current) =>
    current.state !== "queued" ? null : {
      ...current,
      state: "running",
      process: {
        pid: deps.pid,
        startedAt: own?.startedAt ?? current.process?.startedAt ?? "unknown",
      },
      startedAt: now,
      updatedAt: now,
    });
  return job?.state === "running" && job.process?.pid === deps.pid ? job : null;
}

/**
 * The final record of a job from how its review ended (pure).
 *
 * @param job the record as it stands (a cancel may have set `cancelRequestedAt`)
 * @param end the outcome, or the error the review threw; `ceilingPassed` when the ceiling fired
 * @param now the clock reading
 */
export function endedJob(
  job: JobRecord,
  end: { outcome?: ReviewOutcome<unknown>; error?: unknown; ceilingPassed: boolean },
  now: Date,
): JobRecord {
  const base = { ...job, finishedAt: now.toISOString(), updatedAt: now.toISOString() };
  const { outcome } = end;
  const record = outcome?.record;
  const run = record?.runDir ? { runId: record.id, runDir: record.runDir } : {};
  const stopped = end.error === undefined && record?.status === "interrupted";
  if ((stopped || end.error !== undefined) && job.cancelRequestedAt) {
    return { ...base, ...run, state: "cancelled", reason: "Cancelled by review-gate cancel" };
  }
  if ((stopped || end.error !== undefined) && end.ceilingPassed) {
    return {
      ...base,
      ...run,
      state: "failed",
      reason: `The job passed its wall-clock ceiling of ${job.ceilingSeconds} s (config ` +
        `background.max_seconds) and was stopped`,
    };
  }
  if (end.error !== undefined) {
    const message = end.error instanceof Error ? end.error.message : String(end.error);
    return { ...base, state: "failed", reason: `The review could not run: ${message}` };
  }
  if (stopped) {
    return {
      ...base,
      ...run,
      state: "failed",
      reason: "The job process was interrupted by a signal",
    };
  }
  return {
    ...base,
    ...run,
    state: "finished",
    status: record!.status,
    blocking: record!.blocking,
    ...(record!.coverage?.status === "partial" ? { partial: true } : {}),
    exitCode: outcome!.exitCode,
    target: record!.target.label || job.target,
  };
}

/**
 * Run a job's review in this process.
 *
 * @param at the state dir and the job id
 * @param review runs the review with the job's signal and run hook; may throw
 * @param deps runner, clock, interrupt signal, own pid
 * @returns the ended job, the outcome, and the exit code for this process (the review's; 130 for a
 *   job that must not run or was cancelled; the error's for a review that threw)
 * @throws what `review` threw, once the job is recorded as failed
 */
export async function runJob(
  at: { state: string; id: string },
  review: (hooks: JobHooks) => Promise<ReviewOutcome<unknown>>,
  deps: JobDeps,
): Promise<JobEnd> {
  const job = await takeUp(at.state, at.id, deps);
  if (job === null) {
    const current = await readJob(at.state, at.id);
    return { job: current!, exitCode: current?.state === "cancelled" ? 130 : 2 };
  }
  const ceiling = new AbortController();
  const left = Date.parse(job.createdAt) + job.ceilingSeconds * 1000 - deps.now().getTime();
  const timer = setTimeout(() => ceiling.abort(new Error("ceiling")), Math.max(0, left));
  const stopTracking = trackJobChildren(at, deps.runner);
  const hooks: JobHooks = {
    signal: AbortSignal.any([deps.signal, ceiling.signal]),
    onRunOpened: async (run) => {
      await updateJob(at.state, at.id, (current) => ({
        ...current,
        runId: run.id,
        runDir: run.runDir,
        target: run.label,
        updatedAt: deps.now().toISOString(),
      }));
    },
  };
  let outcome: ReviewOutcome<unknown> | undefined;
  let error: unknown;
  try {
    outcome = await review(hooks);
  } catch (thrown) {
    error = thrown;
  } finally {
    clearTimeout(timer);
    await stopTracking();
  }
  const ended = await updateJob(
    at.state,
    at.id,
    (current) =>
      ENDED_STATES.has(current.state) ? null : endedJob(current, {
        outcome,
        error,
        ceilingPassed: ceiling.signal.aborted,
      }, deps.now()),
  );
  if (error !== undefined) throw error;
  const exitCode = ended?.state === "cancelled" ? 130 : outcome!.exitCode;
  return { job: ended ?? job, outcome, exitCode };
}
