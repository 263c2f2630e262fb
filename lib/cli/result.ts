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
import type { Command } from "commander";
import type { CliDeps } from "./deps.ts";

/** Register `result` on the program. */
export function registerResult(
  program: Command,
  deps: CliDeps,
  setExit: (code: number) => void,
): void {
  program.command("result")
    .description("Print the review of a background job (default: the newest); exit with its code")
    .argument("[id]", "job id, or a unique part of it (default: the newest job)")
    .option("--json", "print the run envelope as JSON")
    .action(async (id: string | undefined, flags: { json?: boolean }) =>
      setExit(await (await import("./result_action.ts")).result(id, flags, deps))
    );
}
