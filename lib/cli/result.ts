/**
 * `review-gate result [ID] [--json]`: print the review a background job ran (default: the newest
 * job), read back from the job's own run folder — never "the latest run", which is another job's
 * when two ran at once — through the same renderers as `review`, and exit with the review's exit
 * code. A job that failed or was cancelled says why (exit 3 or 130); one still running says how to
 * wait (exit 2). An agent turn's background worker (lib/jobs/worker_job.ts) has no verdict: it says
 * so and exits 3. Without an id, the newest review job (never a worker).
 * This file defines the command; its work, lib/cli/result_action.ts, loads when it runs.
 *
 * @module
 */
import {
  type CliContext,
  type CommandRoutes,
  defineCommand,
  flag,
  jobIdArgument,
} from "./command.ts";

/** `result`. */
export const resultRoutes: CommandRoutes = {
  result: defineCommand({
    docs: {
      brief:
        "Print the review of a background job (default: the newest review job); exit with its code",
    },
    parameters: {
      flags: { json: flag("print the run envelope as JSON") },
      positional: jobIdArgument(
        "job id, or a unique part of it (default: the newest review job; an agent turn's background worker, which gives no verdict, only by its id)",
      ),
    },
    async func(this: CliContext, flags: { json?: boolean }, id?: string) {
      this.setExit(await (await import("./result_action.ts")).result(id, flags, this.deps));
    },
  }),
};
