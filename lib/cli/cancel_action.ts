/**
 * The work of `review-gate cancel`, loaded when it runs (lib/cli/cancel.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { ExitCode } from "../base/errors.ts";
import { cancelJob } from "../jobs/cancel.ts";
import { findJob } from "../jobs/find.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";

export async function cancel(
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
