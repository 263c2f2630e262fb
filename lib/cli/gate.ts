/**
 * `review-gate gate enable|disable <pre-push|claude-stop|codex-stop|copilot-stop|qwen-stop|gemini-stop|all>`, `gate warn|block <…>` and
 * `gate status`: turn the gates on and off, or between warn and block mode (README "Warn first"),
 * in config without uninstalling them. This file defines the command; its work,
 * lib/cli/gate_action.ts, loads when it runs.
 *
 * @module
 */
import { buildRouteMap } from "@stricli/core";
import { type CliContext, type CommandRoutes, defineCommand, flag } from "./command.ts";

/** The gate argument every subcommand that names gates takes. */
const GATE_ARGUMENT = {
  kind: "tuple",
  parameters: [{
    placeholder: "gate",
    brief:
      "pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop or all (required: never all by default)",
    parse: String,
  }],
} as const;

/** `gate warn` or `gate block`: set the gates' `mode`. */
function modeCommand(mode: "warn" | "block") {
  return defineCommand({
    docs: {
      brief: mode === "warn"
        ? "Put a gate in warn mode: it says what it would block and lets the work through"
        : "Put a gate in block mode (the default): blocking findings block",
    },
    parameters: {
      flags: {
        user: flag("edit the user config instead of the repository's .review-gate.json"),
      },
      positional: GATE_ARGUMENT,
    },
    async func(this: CliContext, flags: { user?: boolean }, which: string) {
      await (await import("./gate_action.ts")).setMode(mode, which, flags, this.deps);
    },
  });
}

/** `gate enable` or `gate disable`. */
function toggleCommand(enable: boolean) {
  return defineCommand({
    docs: { brief: enable ? "Enable a gate" : "Disable a gate" },
    parameters: {
      flags: {
        user: flag("edit the user config instead of the repository's .review-gate.json"),
      },
      positional: GATE_ARGUMENT,
    },
    async func(this: CliContext, flags: { user?: boolean }, which: string) {
      await (await import("./gate_action.ts")).toggle(enable, which, flags, this.deps);
    },
  });
}

/** `gate` and its subcommands. */
export const gateRoutes: CommandRoutes = {
  gate: buildRouteMap({
    docs: {
      brief:
        "Turn the gates on or off, or between warn and block mode, in config without uninstalling them",
    },
    routes: {
      enable: toggleCommand(true),
      disable: toggleCommand(false),
      warn: modeCommand("warn"),
      block: modeCommand("block"),
      status: defineCommand({
        docs: {
          brief:
            "Show which gates are enabled and in which mode, whether and where each is installed, and where config comes from",
        },
        parameters: {},
        async func(this: CliContext) {
          await (await import("./gate_action.ts")).status(this.deps);
        },
      }),
    },
  }),
};
