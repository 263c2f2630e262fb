/**
 * `review-gate gate enable|disable|status [pre-push|claude-stop|codex-stop|all]`: turn the gates on
 * and off in config without uninstalling them. This file defines the command; its work,
 * lib/cli/gate_action.ts, loads when it runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import type { CliDeps } from "./deps.ts";

/** Register `gate` on the program. */
export function registerGate(program: Command, deps: CliDeps): void {
  const gate = program.command("gate").description(
    "Turn the gates on or off in config without uninstalling them",
  );
  const userOption = () =>
    new Option("--user", "edit the user config instead of the repository's .review-gate.json");
  gate.command("enable").argument("[gate]", "pre-push, claude-stop, codex-stop or all", "all")
    .addOption(
      userOption(),
    )
    .description("Enable a gate").action((which: string, flags: { user?: boolean }) =>
      import("./gate_action.ts").then((m) => m.toggle(true, which, flags, deps))
    );
  gate.command("disable").argument("[gate]", "pre-push, claude-stop, codex-stop or all", "all")
    .addOption(
      userOption(),
    )
    .description("Disable a gate").action((which: string, flags: { user?: boolean }) =>
      import("./gate_action.ts").then((m) => m.toggle(false, which, flags, deps))
    );
  gate.command("status").description(
    "Show which gates are enabled, whether and where each is installed, and where config comes from",
  )
    .action(() => import("./gate_action.ts").then((m) => m.status(deps)));
}
