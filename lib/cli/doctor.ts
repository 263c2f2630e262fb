/**
 * `review-gate doctor`: check the provider CLIs, config and hook installation. This file defines
 * the command; its work, lib/cli/doctor_action.ts, loads when it runs.
 *
 * @module
 */
import type { Command } from "commander";
import type { CliDeps } from "./deps.ts";

/** Register `doctor` on the program. */
export function registerDoctor(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  program.command("doctor")
    .description("Check provider CLIs, config and hook installation")
    .action(async () => await (await import("./doctor_action.ts")).doctorAction(deps, setExit));
}
