/**
 * `review-gate jobs [--json] [--prune [DAYS]]`: list the repository's background jobs (id, state,
 * verdict, age, provider, target), each refreshed first so a dead job shows as failed; or remove
 * the ended ones (finished, failed, cancelled) older than DAYS (default 7; 0 = all ended). Runs
 * stay in `runs/`.
 * This file defines the command; its work, lib/cli/jobs_action.ts, loads when it runs.
 *
 * @module
 */
import type { Command } from "commander";
import type { CliDeps } from "./deps.ts";

/** Days an ended job is kept by `jobs --prune` without a number. */
export const DEFAULT_PRUNE_DAYS = 7;

/** Register `jobs` on the program. */
export function registerJobs(program: Command, deps: CliDeps): void {
  program.command("jobs")
    .description("List background jobs (review --background); --prune removes old ended ones")
    .option("--prune [days]", `remove ended jobs older than DAYS (default ${DEFAULT_PRUNE_DAYS})`)
    .option("--json", "print the job records as JSON")
    .action(async (flags: { prune?: string | true; json?: boolean }) =>
      await (await import("./jobs_action.ts")).jobsAction(flags, deps, DEFAULT_PRUNE_DAYS)
    );
}
