/**
 * `review-gate jobs [--json] [--prune [DAYS]]`: list the repository's background jobs (id, state,
 * verdict, age, provider, target), each refreshed first so a dead job shows as failed; or remove
 * the ended ones (finished, failed, cancelled) older than DAYS (default 7; 0 = all ended). Runs
 * stay in `runs/`.
 * This file defines the command; its work, lib/cli/jobs_action.ts, loads when it runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";

/** Days an ended job is kept by `jobs --prune` without a number. */
export const DEFAULT_PRUNE_DAYS = 7;

/** `jobs`. */
export const jobsRoutes: CommandRoutes = {
  jobs: defineCommand({
    docs: { brief: "List background jobs (review --background); --prune removes old ended ones" },
    parameters: {
      flags: {
        prune: {
          kind: "parsed",
          parse: String,
          optional: true,
          inferEmpty: true,
          placeholder: "days",
          brief: `remove ended jobs older than DAYS (default ${DEFAULT_PRUNE_DAYS})`,
        },
        json: flag("print the job records as JSON"),
      },
    },
    async func(this: CliContext, flags: { prune?: string; json?: boolean }) {
      // `--prune` without a number is given as "" (the default number of days)
      const prune = flags.prune === "" ? true : flags.prune;
      await (await import("./jobs_action.ts")).jobsAction(
        { ...flags, prune },
        this.deps,
        DEFAULT_PRUNE_DAYS,
      );
    },
  }),
};
