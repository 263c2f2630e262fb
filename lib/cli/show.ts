/**
 * `review-gate show [RUN] [--format F [--output FILE]]… [--json]`: re-render a stored run (default:
 * the newest finished one) from its `run.json` and answer, through the same renderers as `review`,
 * with no model call, and exit with the run's exit code (docs/design.md "Statuses and exit
 * codes"); an unknown run is a usage error (exit 2). This file defines the command; its work,
 * lib/cli/show_action.ts, loads when it runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";
import { OUTPUT_FLAGS } from "./outputs.ts";
import type { ShowFlags } from "./show_action.ts";

const BRIEF = "Print a stored run again (default: the newest), in any format; no model call";

const SHOW_HELP = `
RUN is a run id (the "Run folder:" line of a review ends in it) or a unique part of it, at least 4
characters. The run's stored answer and record are rendered by the same renderers as review's, under
the policy of the config as it is now (fail_on, min_confidence…); the exit code is the run's own: 0
approved or not blocking, 1 blocking, 3 could not run, 130 interrupted. An unknown or ambiguous RUN,
or a run still running, exits 2.`;

/** `show`. */
export const showRoutes: CommandRoutes = {
  show: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + SHOW_HELP },
    parameters: {
      flags: {
        ...OUTPUT_FLAGS,
        json: flag("print the run envelope as JSON on stdout (same as --format json)"),
      },
      positional: {
        kind: "tuple",
        parameters: [{
          placeholder: "run",
          brief: "run id, or a unique part of it (default: the newest run)",
          parse: String,
          optional: true,
        }],
      },
    },
    async func(this: CliContext, flags: ShowFlags, run?: string) {
      const { show } = await import("./show_action.ts");
      this.setExit(await show(run, flags, { deps: this.deps, args: this.args }));
    },
  }),
};
