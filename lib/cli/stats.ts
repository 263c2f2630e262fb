/**
 * `review-gate stats [--since 7d] [--by provider|gate|day] [--json]`: what the reviews of this
 * repository cost and did, from `records.jsonl` (the ledger, one line per run): runs, model calls,
 * cache hits, blocks, runs NOT reviewed, acknowledged findings, tokens and the cost providers
 * reported (Codex and Vibe report none: "not reported", never 0); once a gate ran in warn mode,
 * each gate's would-have-blocked and acknowledged rates per mode (README "Warn first"); and the
 * hook runs a switch let through without a review (README "Skips": lib/cli/stats_skips.ts).
 * This file defines the command; its work, lib/cli/stats_action.ts, loads when it runs.
 *
 * @module
 */
import type { GroupBy } from "../store/stats.ts";
import { type CliContext, type CommandRoutes, defineCommand, flag, text } from "./command.ts";

/** `stats`. */
export const statsRoutes: CommandRoutes = {
  stats: defineCommand({
    docs: {
      brief:
        "What the reviews of this repository cost and did (from records.jsonl), what reviewing while the agent works cost and saved, and the skips the hooks recorded",
    },
    parameters: {
      flags: {
        since: text("when", "only runs since then: 7d, 24h, 2w or a day (2026-11-01)"),
        by: {
          kind: "enum",
          values: ["provider", "gate", "day"],
          optional: true,
          placeholder: "group",
          brief: "one row per provider, gate or day",
        },
        json: flag("print the totals as JSON"),
      },
    },
    async func(this: CliContext, flags: { since?: string; by?: GroupBy; json?: boolean }) {
      await (await import("./stats_action.ts")).statsAction(flags, this.deps);
    },
  }),
};
