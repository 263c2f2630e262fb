/**
 * Keeping a job's state true (the reference system's "stuck running" failure): a `queued` or
 * `running` job whose process is gone — checked by pid *and* start time, so a reused pid does not
 * count — is never shown as running. Whoever looks (`jobs`, `status`, `result`, `cancel`) settles
 * it under the jobs lock: `finished` when its run had finished (the job died between storing the
 * run and writing its own record), else `failed` with the reason and the last line of its log; a
 * provider it left behind is stopped. A job still running past its wall-clock ceiling (plus a
 * grace, for a job that did not stop itself) is killed and marked `failed`.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { isRunning } from "../exec/process_info.ts";
import { exitCodeFor } from "../review/exit_code.ts";
import { ENDED_STATES, type JobRecord, updateJob } from "../store/jobs.ts";
import { readRunRecord } from "../store/run_dir.ts";
import { RUNNING_STATUS, type RunRecord, type StoredRunRecord } from "../store/run_record.ts";
import { killRecorded, signalGroup } from "./stop.ts";

/** How long a job may stay queued without a process, milliseconds. */
export const QUEUE_GRACE_MS = 60_000;
/** How long past its ceiling a job may still run before it is killed, milliseconds. */
export const CEILING_GRACE_MS = 30_000;

/** The I/O of a refresh. */
export interface RefreshDeps {
  runner: Runner;
  now: () => Date;
}

/**
 * The last non-empty line of a job's log, for failure reasons.
 *
 * @returns at most 300 characters, or "" when the log is empty or unreadable
 */
export async function logTail(path: string): Promise<string> {
  try {
    const text = await Deno.readTextFile(path);
    const line = text.trimEnd().split("\n").at(-1)?.trim() ?? "";
    return line.length > 300 ? `${line.slice(0, 299)}…` : line;
  } catch {
    return "";
  }
}

function deadReason(job: JobRecord, found: { tail: string; stopped: number[] }): string {
  const who = job.process ? `The job process (pid ${job.process.pid})` : "The job process";
  const when = job.state === "queued" ? "before it started the review" : "before the review ended";
  const stopped = found.stopped.length > 0
    ? `; what it had started (pid ${found.stopped.join(", ")}) was stopped`
    : "";
  return `${who} ended ${when}: it was killed (e.g. kill -9), crashed, or the machine slept or ` +
    `restarted${stopped}${found.tail ? `; its log ends: ${found.tail}` : ""}`;
}

/**
 * The settled record of a job whose process is gone (pure).
 *
 * @param job the record
 * @param found the job's run record (when it has a run), the last line of its log, and the pids
 *   of what it left running that were stopped
 * @param now the clock reading
 */
export function settleDead(
  job: JobRecord,
  found: { run: StoredRunRecord | null; tail: string; stopped: number[] },
  now: Date,
): JobRecord {
  const { run } = found;
  if (run && run.status !== RUNNING_STATUS) {
    const finished = run as RunRecord;
    return {
      ...job,
      state: "finished",
      status: finished.status,
      blocking: finished.blocking,
      ...(finished.coverage?.status === "partial" ? { partial: true } : {}),
      exitCode: exitCodeFor(finished.status, finished.blocking),
      reason: "The job process ended before it recorded its result; the run had finished",
      finishedAt: finished.finishedAt,
      updatedAt: now.toISOString(),
    };
  }
  return {
    ...job,
    state: "failed",
    reason: deadReason(job, found),
    finishedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/**
 * Bring a job's record in line with its process.
 *
 * @param state the state dir
 * @param job the record as read
 * @returns the record as it stands now (unchanged when the process runs, `ps` cannot tell, or the
 *   job has ended)
 * @throws {import("../base/errors.ts").StoreError} when the jobs lock or file cannot be had
 */
export async function refreshJob(
  state: string,
  job: JobRecord,
  deps: RefreshDeps,
): Promise<JobRecord> {
  if (ENDED_STATES.has(job.state)) return job;
  const age = deps.now().getTime() - Date.parse(job.createdAt);
  if (!job.process) {
    if (age < QUEUE_GRACE_MS) return job;
  } else {
    let running: boolean;
    try {
      running = await isRunning(deps.runner, job.process);
    } catch {
      return job; // liveness unknown: say what the record says
    }
    if (running && age < job.ceilingSeconds * 1000 + CEILING_GRACE_MS) return job;
    if (running) return await killOverdue(state, job, deps);
  }
  const found = {
    run: job.runDir ? await readRunRecord(job.runDir) : null,
    tail: await logTail(job.log),
    // a provider the dead job left behind (it runs in its own session) is stopped
    stopped: await killRecorded(deps.runner, job.children ?? []),
  };
  return await updateJob(state, job.id, (current) => {
    const same = current.process?.pid === job.process?.pid && current.runDir === job.runDir;
    if (ENDED_STATES.has(current.state) || !same) return null; // changed meanwhile: look again later
    return settleDead(current, found, deps.now());
  }) ?? job;
}

/** Kill a job that outran its ceiling and did not stop itself; mark it failed. */
async function killOverdue(state: string, job: JobRecord, deps: RefreshDeps): Promise<JobRecord> {
  signalGroup(job.process!.pid, "SIGKILL");
  await killRecorded(deps.runner, job.children ?? []);
  const now = deps.now().toISOString();
  return await updateJob(state, job.id, (current) =>
    ENDED_STATES.has(current.state) ? null : {
      ...current,
      state: "failed",
      reason: `The job ran past its wall-clock ceiling of ${job.ceilingSeconds} s and did not ` +
        `stop: it was killed`,
      finishedAt: now,
      updatedAt: now,
    }) ?? job;
}
