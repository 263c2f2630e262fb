/**
 * The work of `review-gate status`, loaded when it runs (lib/cli/status.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { ExitCode, UsageError } from "../base/errors.ts";
import { renderJobStatus } from "../jobs/describe.ts";
import { findJob } from "../jobs/find.ts";
import { ENDED_STATES, type JobRecord } from "../store/jobs.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";

/** Milliseconds between two looks at a job while waiting. */
export const WAIT_POLL_MS = 250;

function timeoutMs(value: string | undefined): number {
  if (value === undefined) return Infinity;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new UsageError(`Invalid --timeout "${value}": give a number of seconds, 0 or more`);
  }
  return seconds * 1000;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** `status`'s parsed flags. */
export type StatusFlags = {
  wait?: boolean;
  timeout?: string;
  json?: boolean;
};

export async function show(
  id: string | undefined,
  flags: StatusFlags,
  deps: CliDeps,
): Promise<number> {
  const limit = timeoutMs(flags.timeout);
  const { state, io } = await openJobState(deps);
  let job: JobRecord = await findJob(state, id, io);
  const started = Date.now();
  while (flags.wait && !ENDED_STATES.has(job.state) && Date.now() - started < limit) {
    if (deps.signal.aborted) break;
    await sleep(Math.min(WAIT_POLL_MS, Math.max(0, limit - (Date.now() - started))), deps.signal);
    job = await findJob(state, job.id, io);
  }
  deps.stdout.write(
    flags.json ? JSON.stringify(job, null, 2) + "\n" : renderJobStatus(job, deps.now()),
  );
  if (deps.signal.aborted) {
    if (!ENDED_STATES.has(job.state)) {
      deps.stderr.write(
        `review-gate: stopped waiting; job ${job.id} is still ${job.state} ` +
          `(stop it with "review-gate cancel ${job.id}")\n`,
      );
    }
    return ExitCode.interrupted;
  }
  if (flags.wait && !ENDED_STATES.has(job.state)) {
    deps.stderr.write(`review-gate: job ${job.id} is still ${job.state}\n`);
    return 1;
  }
  return ExitCode.ok;
}
