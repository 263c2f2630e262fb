/**
 * `review-gate acks [--prune] [--json]`: list the acknowledged findings of the repository
 * (`.review-gate/acks.json`), which hold and which expired; `--prune` removes the expired ones.
 * This file defines the command; its work, lib/cli/acks_action.ts, loads when it runs.
 *
 * @module
 */
import type { Command } from "commander";
import { ACKS_FILE } from "../acks/types.ts";
import type { CliDeps } from "./deps.ts";

/** Register `acks` on the program. */
export function registerAcks(program: Command, deps: CliDeps): void {
  program.command("acks")
    .description(`List acknowledged findings (${ACKS_FILE}); --prune removes expired ones`)
    .option("--prune", "remove the acknowledgements that expired")
    .option("--json", "print them as JSON (each with `active`)")
    .action(async (flags: { prune?: boolean; json?: boolean }) =>
      await (await import("./acks_action.ts")).acksAction(flags, deps)
    );
}
