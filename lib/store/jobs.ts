/**
 * Background jobs' records (docs/design.md "Background jobs"): `jobs/<id>.json` in the state
 * dir, one per `review --background`, plus `jobs/<id>.log` (the job process's stdout and stderr).
 * Every change is a read-modify-write under one exclusive lock, `jobs/.lock` (lib/store/lock.ts,
 * a bounded wait), written atomically (temp file + rename): a reader never sees half a file, and
 * two writers — the job itself, `status` marking a dead job failed, `cancel` — never overwrite each
 * other's transition ({@linkcode updateJob} decides on the record as it is under the lock).
 *
 * @module
 */
import { join } from "../base/path.ts";
import { StoreError } from "../base/errors.ts";
import { guardStore } from "./_guard.ts";
import { jsonText, writeStoreFile } from "./_write.ts";
import { lockFile } from "./lock.ts";
import { newRunId } from "./run_dir.ts";
import type { ReviewStatus } from "./run_record.ts";
import { pathExists } from "../base/path_exists.ts";
import { compareCodeUnits } from "../base/compare.ts";

/** Every state a job can be in, in lifecycle order. */
export const JOB_STATES = ["queued", "running", "finished", "failed", "cancelled"] as const;
/** One job state. */
export type JobState = typeof JOB_STATES[number];

/** States a job never leaves. */
export const ENDED_STATES: ReadonlySet<JobState> = new Set(["finished", "failed", "cancelled"]);

/** A process as recorded: its pid and `ps` start time (lib/exec/process_info.ts). */
export interface TrackedProcess {
  pid: number;
  /** ISO start time with whole seconds. */
  startedAt: string;
}

/** `jobs/<id>.json`. */
export interface JobRecord {
  version: 1;
  id: string;
  state: JobState;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
  /** When the job process took the job up. */
  startedAt?: string;
  finishedAt?: string;
  /** The `review` arguments the job runs (without `--background`). */
  args: string[];
  /** Where the job runs. */
  cwd: string;
  /** What it reviews: the flags' idea first, the change's label once collected. */
  target: string;
  provider: string;
  /** "review" or "compliance". */
  answerKind: string;
  /** Wall-clock ceiling of the whole job, seconds. */
  ceilingSeconds: number;
  /** The job process (its process group and session leader). */
  process?: TrackedProcess;
  /** Long-lived children of the job (provider CLIs), each leading its own process group. */
  children?: TrackedProcess[];
  /** The run the job's review opened (`runs/<runId>/`). */
  runId?: string;
  runDir?: string;
  /** finished: the review's status, exit code and whether it blocks. */
  status?: ReviewStatus;
  exitCode?: number;
  blocking?: boolean;
  /** finished: true when only part of the change reached the model (the run's coverage). */
  partial?: boolean;
  /** failed or cancelled: why, one line. */
  reason?: string;
  /** Set by `cancel` before it signals the job. */
  cancelRequestedAt?: string;
  /**
   * Set on a session's background worker (docs/design.md "Review while working"): the agent
   * session it reviews for and, once it ended, its tallies. Such a job gives no verdict of its own.
   */
  work?: WorkerTally;
  /** The job process's output. */
  log: string;
}

/** A background worker's job: its session, and what it did (counts, set when it ends). */
export interface WorkerTally {
  sessionId: string;
  /** Model calls it started. */
  calls?: number;
  /** Parts a background call answered (verdict keys). */
  answered?: number;
}

/** Longest wait for the jobs lock, milliseconds. */
export const JOBS_LOCK_TIMEOUT_MS = 5_000;

const JOB_ID = /^job-\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/** `<state>/jobs`. */
export function jobsDir(state: string): string {
  return join(state, "jobs");
}

/**
 * A new sortable job id, `job-YYYYMMDDTHHMMSSZ-<6 hex>`.
 *
 * @param now the clock reading
 */
export function newJobId(now: Date): string {
  return `job-${newRunId(now)}`;
}

function jobPath(state: string, id: string): string {
  if (!JOB_ID.test(id)) throw new TypeError(`Invalid job id "${id}"`);
  return join(jobsDir(state), `${id}.json`);
}

/** The log file of a job. */
export function jobLogPath(state: string, id: string): string {
  return jobPath(state, id).replace(/\.json$/, ".log");
}

async function withJobsLock<T>(state: string, fn: () => Promise<T>): Promise<T> {
  const dir = jobsDir(state);
  await guardStore(dir, () => Deno.mkdir(dir, { recursive: true, mode: 0o700 }), "the jobs folder");
  const lock = await lockFile(join(dir, ".lock"), { timeoutMs: JOBS_LOCK_TIMEOUT_MS });
  if (!lock) {
    throw new StoreError(
      join(dir, ".lock"),
      new Error(`another process held it for ${JOBS_LOCK_TIMEOUT_MS / 1000} s`),
      "the jobs lock",
    );
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

function parseJob(text: string): JobRecord | null {
  try {
    const value = JSON.parse(text);
    if (value?.version !== 1 || typeof value.id !== "string") return null;
    if (!JOB_STATES.includes(value.state)) return null;
    return value as JobRecord;
  } catch {
    return null;
  }
}

/**
 * Read one job.
 *
 * @returns the record, or `null` when it does not exist or cannot be read
 * @throws {TypeError} for a malformed id
 */
export async function readJob(state: string, id: string): Promise<JobRecord | null> {
  try {
    return parseJob(await Deno.readTextFile(jobPath(state, id)));
  } catch (error) {
    if (error instanceof TypeError) throw error;
    return null;
  }
}

/**
 * Every readable job, oldest first (by creation time, in milliseconds).
 *
 * @param state the state dir
 */
export async function listJobs(state: string): Promise<JobRecord[]> {
  const ids: string[] = [];
  try {
    for await (const entry of Deno.readDir(jobsDir(state))) {
      const id = entry.name.replace(/\.json$/, "");
      if (entry.isFile && entry.name.endsWith(".json") && JOB_ID.test(id)) ids.push(id);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const jobs = (await Promise.all(ids.map((id) => readJob(state, id))))
    .filter((job): job is JobRecord => job !== null);
  return jobs.sort((a, b) =>
    compareCodeUnits(a.createdAt, b.createdAt) || compareCodeUnits(a.id, b.id)
  );
}

/**
 * Write a new job's record.
 *
 * @throws {StoreError} when the folder, the lock or the file cannot be had, or the id exists
 */
export async function createJob(state: string, job: JobRecord): Promise<void> {
  const path = jobPath(state, job.id);
  await withJobsLock(state, () =>
    guardStore(path, async () => {
      if (await pathExists(path)) {
        throw new Error("a job with this id exists");
      }
      await writeStoreFile(path, jsonText(job));
    }, "the job record"));
}

/**
 * Change a job under the jobs lock: `change` sees the record as it is now and returns the next
 * one, or `null` to leave it as it is.
 *
 * @param state the state dir
 * @param id the job id
 * @param change decides on the current record (may be called with a record another process just
 *   wrote; never with `null`)
 * @returns the record after the change, or `null` when the job does not exist
 * @throws {StoreError} when the lock or the file cannot be had
 */
export async function updateJob(
  state: string,
  id: string,
  change: (job: JobRecord) => JobRecord | null,
): Promise<JobRecord | null> {
  const path = jobPath(state, id);
  return await withJobsLock(state, async () => {
    const current = await readJob(state, id);
    if (current === null) return null;
    const next = change(current);
    if (next === null) return current;
    await guardStore(path, () => writeStoreFile(path, jsonText(next)), "the job record");
    return next;
  });
}

/**
 * Remove a job's record and log.
 *
 * @throws {StoreError} when the lock cannot be had or the files cannot be removed
 */
export async function removeJob(state: string, id: string): Promise<void> {
  const path = jobPath(state, id);
  await withJobsLock(state, () =>
    guardStore(path, async () => {
      for (const file of [path, jobLogPath(state, id)]) {
        await Deno.remove(file).catch((error) => {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        });
      }
    }, "the job record"));
}

/**
 * Whether a job has ended and did so at or before `before` (ms since the epoch): by when it ended,
 * else when its record was last written. What `jobs --prune` and `prune` remove.
 */
export function endedBefore(job: JobRecord, before: number): boolean {
  return ENDED_STATES.has(job.state) && Date.parse(job.finishedAt ?? job.updatedAt) <= before;
}
