/**
 * The work of `review-gate jobs`, loaded when it runs (lib/cli/jobs.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { renderJobsTable } from "../jobs/describe.ts";
import { refreshJob } from "../jobs/refresh.ts";
import { endedBefore, listJobs, removeJob } from "../store/jobs.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";

function pruneDays(value: string | true, defaultDays: number): number {
  if (value === true) return defaultDays;
  const days = Number(value);
  if (!Number.isFinite(days) || days < 0) {
    throw new UsageError(`Invalid --prune "${value}": give a number of days, 0 or more`);
  }
  return days;
}

/** `jobs`: the command's work (lib/cli/jobs.ts parses its arguments). */
export async function jobsAction(
  flags: { prune?: string | true; json?: boolean },
  deps: CliDeps,
  defaultPruneDays: number,
): Promise<void> {
  const { state, io } = await openJobState(deps);
  const jobs = await Promise.all((await listJobs(state)).map((j) => refreshJob(state, j, io)));
  if (flags.prune !== undefined) {
    const cutoff = deps.now().getTime() - pruneDays(flags.prune, defaultPruneDays) * 86_400_000;
    const old = jobs.filter((j) => endedBefore(j, cutoff));
    for (const job of old) await removeJob(state, job.id);
    deps.stdout.write(
      flags.json
        ? JSON.stringify({ removed: old.map((j) => j.id) }) + "\n"
        : `Removed ${old.length} ended job${old.length === 1 ? "" : "s"}\n`,
    );
    return;
  }
  deps.stdout.write(
    flags.json ? JSON.stringify(jobs, null, 2) + "\n" : renderJobsTable(jobs, deps.now()),
  );
}
