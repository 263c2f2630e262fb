/**
 * `review-gate jobs [--json] [--prune [DAYS]]`: list the repository's background jobs (id, state,
 * verdict, age, provider, target), each refreshed first so a dead job shows as failed; or remove
 * the ended ones (finished, failed, cancelled) older than DAYS (default 7; 0 = all ended). Runs
 * stay in `runs/`.
 *
 * @module
 */
import type { Command } from "commander";
import { UsageError } from "../base/errors.ts";
import { renderJobsTable } from "../jobs/describe.ts";
import { refreshJob } from "../jobs/refresh.ts";
import { ENDED_STATES, listJobs, removeJob } from "../store/jobs.ts";
import type { CliDeps } from "./deps.ts";
import { openJobState } from "./job_state.ts";

/** Days an ended job is kept by `jobs --prune` without a number. */
export const DEFAULT_PRUNE_DAYS = 7;

function pruneDays(value: string | true): number {
  if (value === true) return DEFAULT_PRUNE_DAYS;
  const days = Number(value);
  if (!Number.isFinite(days) || days < 0) {
    throw new UsageError(`Invalid --prune "${value}": give a number of days, 0 or more`);
  }
  return days;
}

/** Register `jobs` on the program. */
export function registerJobs(program: Command, deps: CliDeps): void {
  program.command("jobs")
    .description("List background jobs (review --background); --prune removes old ended ones")
    .option("--prune [days]", `remove ended jobs older than DAYS (default ${DEFAULT_PRUNE_DAYS})`)
    .option("--json", "print the job records as JSON")
    .action(async (flags: { prune?: string | true; json?: boolean }) => {
      const { state, io } = await openJobState(deps);
      const jobs = await Promise.all((await listJobs(state)).map((j) => refreshJob(state, j, io)));
      if (flags.prune !== undefined) {
        const cutoff = deps.now().getTime() - pruneDays(flags.prune) * 86_400_000;
        const old = jobs.filter((j) =>
          ENDED_STATES.has(j.state) && Date.parse(j.finishedAt ?? j.updatedAt) <= cutoff
        );
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
    });
}
