/**
 * `review-gate cancel [ID] [--json]`: stop a background job (default: the newest queued or running
 * one) and everything it started, provider included (lib/jobs/cancel.ts), and record it
 * `cancelled`. Exit 0 when nothing of the job runs any more (also when it had already ended);
 * 3 when a process of it could not be stopped (named).
 * This file defines the command; its work, lib/cli/cancel_action.ts, loads when it runs.
 *
 * @module
 */
import type { Command } from "commander";
import type { CliDeps } from "./deps.ts";

/** Register `cancel` on the program. */
export function registerCancel(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  program.command("cancel")
    .description("Stop a background job and its provider (default: the newest running one)")
    .argument("[id]", "job id, or a unique part of it")
    .option("--json", "print what was done as JSON")
    .action(async (id: string | undefined, flags: { json?: boolean }) =>
      setExit(await (await import("./cancel_action.ts")).cancel(id, flags, deps))
    );
}
