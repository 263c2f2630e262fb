/**
 * `review-gate result [ID] [--json]`: print the review a background job ran (default: the newest
 * job), read back from the job's own run folder — never "the latest run", which is another job's
 * when two ran at once — through the same renderers as `review`, and exit with the review's exit
 * code. A job that failed or was cancelled says why (exit 3 or 130); one still running says how to
 * wait (exit 2).
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
      brief: "Print the review of a background job (default: the newest); exit with its code",
    },
    parameters: {
      flags: { json: flag("print the run envelope as JSON") },
      positional: jobIdArgument("job id, or a unique part of it (default: the newest job)"),
    },
    async func(this: CliContext, flags: { json?: boolean }, id?: string) {
      this.setExit(await (await import("./result_action.ts")).result(id, flags, this.deps));
    },
  }),
};
