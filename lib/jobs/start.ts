/**
 * Starting a background job (`review … --background`): write its record (`queued`), start
 * review-gate again as a detached process — its own session and process group, output to the job's
 * log — running the same review with `--job-id <id>`, and record the process's pid and start time
 * while the job is still queued (the job writes them too when it takes the job up). The caller
 * prints the id and returns at once.
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import { selfArgv, spawnDetached } from "../exec/detached.ts";
import type { Runner } from "../exec/exec.ts";
import { processInfo } from "../exec/process_info.ts";
import { JOB_ID_OPTION } from "./job_id_option.ts";
import { createJob, jobLogPath, type JobRecord, newJobId, updateJob } from "../store/jobs.ts";

/**
 * A job's wall-clock ceiling: config `background.max_seconds`, else twice `timeout_seconds` plus 120
 * (room for both attempts of a slow provider, collection and storing).
 *
 * @returns seconds
 */
export function jobCeilingSeconds(config: Config): number {
  return config.background?.max_seconds ?? Math.ceil(2 * config.timeout_seconds + 120);
}

/** What a job is started with. */
export interface JobStart {
  /** The state dir (lib/store/state.ts). */
  state: string;
  /** The `review` arguments to run (without `--background`). */
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** This review-gate (`Deno.execPath()`, main.ts). */
  self: { execPath: string; mainPath?: string; launcher?: string };
  /** What the flags say is reviewed, until the job knows the change's label. */
  target: string;
  provider: string;
  answerKind: string;
  config: Config;
  runner: Runner;
  now: () => Date;
}

/**
 * Create and start a job.
 *
 * @returns the job's record as it stands once the process runs
 * @throws {import("../base/errors.ts").StoreError} the record cannot be written;
 *   {@linkcode import("../exec/exec.ts").SpawnError} the process cannot be started (the record
 *   then says `failed`)
 */
export async function startJob(start: JobStart): Promise<JobRecord> {
  const created = start.now();
  const id = newJobId(created);
  const log = jobLogPath(start.state, id);
  const job: JobRecord = {
    version: 1,
    id,
    state: "queued",
    createdAt: created.toISOString(),
    updatedAt: created.toISOString(),
    args: start.args,
    cwd: start.cwd,
    target: start.target,
    provider: start.provider,
    answerKind: start.answerKind,
    ceilingSeconds: jobCeilingSeconds(start.config),
    log,
  };
  await createJob(start.state, job);
  let pid: number;
  try {
    pid = await spawnDetached({
      // the job's id first: its args may end in "-- PATH…", after which no word is a flag
      argv: [...selfArgv(start.self), "review", JOB_ID_OPTION, id, ...start.args],
      cwd: start.cwd,
      env: definedEnv(start.env),
      log,
    });
  } catch (error) {
    const reason = `Could not start the job process: ${(error as Error).message}`;
    await updateJob(start.state, id, (current) => ({
      ...current,
      state: "failed",
      reason,
      finishedAt: start.now().toISOString(),
      updatedAt: start.now().toISOString(),
    }));
    throw error;
  }
  let info;
  try {
    info = await processInfo(start.runner, pid);
  } catch {
    return job; // ps cannot tell now; the job records itself when it starts
  }
  // gone already (and still queued): it died at once; "status" will say why from its log
  const startedAt = info?.startedAt ?? GONE;
  const after = await updateJob(
    start.state,
    id,
    (current) =>
      current.state !== "queued" || current.process ? null : {
        ...current,
        process: { pid, startedAt },
        updatedAt: start.now().toISOString(),
      },
  );
  return after ?? job;
}

/** The start time recorded for a job process that was gone before it could be asked. */
export const GONE = "gone";

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
