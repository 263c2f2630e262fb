/**
 * `review-gate status [ID] [--wait] [--timeout S] [--json]`: one background job's state (default:
 * the newest), refreshed first — a job whose process is gone is never shown running. `--wait`
 * polls until the job has ended (or `--timeout` seconds passed, or Ctrl-C, which stops the waiting,
 * not the job, and says so). Reads never see half a record (the job's writes are atomic renames)
 * and a dead job is settled under the jobs lock, so `status` racing the job's own last write
 * reports what the job wrote.
 *
 * Exit codes: 0 shown (and, with `--wait`, ended); 1 `--wait` gave up before the job ended;
 * 2 no such job; 130 interrupted.
 *
 * @module
 */
import type { Command } from "commander";
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

interface StatusFlags {
  wait?: boolean;
  timeout?: string;
  json?: boolean;
}

async function show(id: string | undefined, flags: StatusFlags, deps: CliDeps): Promise<number> {
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

/** Register `status` on the program. */
export function registerStatus(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  program.command("status")
    .description("Show a background job (default: the newest); --wait until it ends")
    .argument("[id]", "job id, or a unique part of it (default: the newest job)")
    .option("--wait", "wait until the job has ended")
    .option("--timeout <seconds>", "with --wait: give up after this many seconds (exit 1)")
    .option("--json", "print the job record as JSON")
    .action(async (id: string | undefined, flags: StatusFlags) =>
      setExit(await show(id, flags, deps))
    );
}
