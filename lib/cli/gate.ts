/**
 * `review-gate gate enable|disable <pre-push|claude-stop|codex-stop|all>` and `gate status`: turn the gates on
 * and off in config without uninstalling them. This file defines the command; its work,
 * lib/cli/gate_action.ts, loads when it runs.
 *
 * @module
 */
import { buildRouteMap } from "@stricli/core";
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";

/** `gate enable` or `gate disable`. */
function toggleCommand(enable: boolean) {
  return defineCommand({
    docs: { brief: enable ? "Enable a gate" : "Disable a gate" },
    parameters: {
      flags: {
        user: flag("edit the user config instead of the repository's .review-gate.json"),
      },
      positional: {
        kind: "tuple",
        parameters: [{
          placeholder: "gate",
          brief: "pre-push, claude-stop, codex-stop or all (required: never all by default)",
          parse: String,
        }],
      },
    },
    async func(this: CliContext, flags: { user?: boolean }, which: string) {
      await (await import("./gate_action.ts")).toggle(enable, which, flags, this.deps);
    },
  });
}

/** `gate` and its subcommands. */
export const gateRoutes: CommandRoutes = {
  gate: buildRouteMap({
    docs: { brief: "Turn the gates on or off in config without uninstalling them" },
    routes: {
      enable: toggleCommand(true),
      disable: toggleCommand(false),
      status: defineCommand({
        docs: {
          brief:
            "Show which gates are enabled, whether and where each is installed, and where config comes from",
        },
        parameters: {},
        async func(this: CliContext) {
          await (await import("./gate_action.ts")).status(this.deps);
        },
      }),
    },
  }),
};
