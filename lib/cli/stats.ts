/**
 * `review-gate stats [--since 7d] [--by provider|gate|day] [--json]`: what the reviews of this
 * repository cost and did, from `records.jsonl` (the ledger, one line per run): runs, model calls,
 * cache hits, blocks, runs NOT reviewed, acknowledged findings, tokens and the cost providers
 * reported (Codex and Vibe report none: "not reported", never 0).
 * This file defines the command; its work, lib/cli/stats_action.ts, loads when it runs.
 *
 * @module
 */
import { type Command, Option } from "commander";
import type { GroupBy } from "../store/stats.ts";
import type { CliDeps } from "./deps.ts";

/** Register `stats` on the program. */
export function registerStats(program: Command, deps: CliDeps): void {
  program.command("stats")
    .description("What the reviews of this repository cost and did (from records.jsonl)")
    .option("--since <when>", "only runs since then: 7d, 24h, 2w or a day (2026-11-01)")
    .addOption(
      new Option("--by <group>", "one row per provider, gate or day").choices([
        "provider",
        "gate",
        "day",
      ]),
    )
    .option("--json", "print the totals as JSON")
    .action(async (flags: { since?: string; by?: GroupBy; json?: boolean }) =>
      await (await import("./stats_action.ts")).statsAction(flags, deps)
    );
}
