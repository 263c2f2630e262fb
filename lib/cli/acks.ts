/**
 * `review-gate acks [--prune] [--json]`: list the acknowledged findings of the repository
 * (`.review-gate/acks.json`), which hold and which expired; `--prune` removes the expired ones.
 * This file defines the command; its work, lib/cli/acks_action.ts, loads when it runs.
 *
 * @module
 */
import { ACKS_FILE } from "../acks/types.ts";
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";

/** `acks`. */
export const acksRoutes: CommandRoutes = {
  acks: defineCommand({
    docs: { brief: `List acknowledged findings (${ACKS_FILE}); --prune removes expired ones` },
    parameters: {
      flags: {
        prune: flag("remove the acknowledgements that expired"),
        json: flag("print them as JSON (each with `active`)"),
      },
    },
    async func(this: CliContext, flags: { prune?: boolean; json?: boolean }) {
      await (await import("./acks_action.ts")).acksAction(flags, this.deps);
    },
  }),
};
