/**
 * `review-gate cancel [ID] [--json]`: stop a background job (default: the newest queued or running
 * one) and everything it started, provider included (lib/jobs/cancel.ts), and record it
 * `cancelled`. Exit 0 when nothing of the job runs any more (also when it had already ended);
 * 3 when a process of it could not be stopped (named).
 *
 * @module
 */
import type { Command } from "commander";
import { ExitCode } from "../base/errors.ts";
import { cancelJob } from "../jobs/cancel.ts";
import { findJob } from "../jobs/find.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";

async function cancel(
  id: string | undefined,
  flags: { json?: boolean },
  deps: CliDeps,
): Promise<number> {
  const { state, io } = await openJobState(deps);
  const job = await findJob(state, id, { ...io, active: true });
  const done = await cancelJob(state, job, io);
  if (flags.json) {
    deps.stdout.write(JSON.stringify({ ...done, job: done.job }, null, 2) + "\n");
  } else if (done.outcome === "cancelled") {
    deps.stdout.write(
      `Cancelled job ${done.job.id}${
        done.killed.length > 0 ? ` (killed pid ${done.killed.join(", ")})` : ""
      }\n`,
    );
  } else {
    deps.stdout.write(
      `Job ${done.job.id} had already ${
        done.job.state === "finished" ? "finished" : `ended (${done.job.state})`
      }\n`,
    );
  }
  if (done.left.length > 0) {
    deps.stderr.write(`review-gate: still running after cancel: pid ${done.left.join(", ")}\n`);
    return ExitCode.couldNotRun;
  }
  return ExitCode.ok;
}

/** Register `cancel` on the program. */
export function registerCancel(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  program.command("cancel")
    .description("Stop a background job and its provider (default: the newest running one)")
    .argument("[id]", "job id, or a unique part of it")
    .option("--json", "print what was done as JSON")
    .action(async (id: string | undefined, flags: { json?: boolean }) =>
      setExit(await cancel(id, flags, deps))
    );
}
