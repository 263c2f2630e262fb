/**
 * `review-gate cancel [ID] [--json]`: stop a background job (default: the newest queued or running
 * one) and everything it started, provider included (lib/jobs/cancel.ts), and record it
 * `cancelled`. Exit 0 when nothing of the job runs any more (also when it had already ended);
 * 3 when a process of it could not be stopped (named).
 * This file defines the command; its work, lib/cli/cancel_action.ts, loads when it runs.
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

/** `cancel`. */
export const cancelRoutes: CommandRoutes = {
  cancel: defineCommand({
    docs: { brief: "Stop a background job and its provider (default: the newest running one)" },
    parameters: {
      flags: { json: flag("print what was done as JSON") },
      positional: jobIdArgument("job id, or a unique part of it"),
    },
    async func(this: CliContext, flags: { json?: boolean }, id?: string) {
      this.setExit(await (await import("./cancel_action.ts")).cancel(id, flags, this.deps));
    },
  }),
};
