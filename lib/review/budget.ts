/**
 * The gates' daily spending limit (`budget.usd_per_day`, docs/design.md "Ledger and budget"):
 * what this repository's runs spent today (UTC), from the cost providers reported in
 * `records.jsonl`, and whether a gate may still call the model. `review` run by hand is never
 * limited; a provider that reports no cost (Codex, Vibe) adds nothing.
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import { readRecords } from "../store/records.ts";

/**
 * USD spent by runs that finished today (UTC).
 *
 * @param state the state dir
 * @param now the clock
 */
export async function spentToday(state: string, now: Date): Promise<number> {
  const midnight = new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  // only the lines review-gate wrote: a line the agent appends cannot spend the budget
  const lines = await readRecords(state, midnight, { verified: true });
  return lines.reduce(
    (sum, line) => sum + (typeof line.costUsd === "number" ? line.costUsd : 0),
    0,
  );
}

/**
 * Why a gate may not call the model now, or null when it may.
 *
 * @param config the effective config (`budget.usd_per_day`)
 * @param at the asking gate (absent for `review` by hand: never limited), state dir, clock
 * @returns e.g. `the daily budget is spent: 2.0412 of 2 USD today (UTC, budget.usd_per_day); no model call …`
 */
export async function budgetStop(
  config: Pick<Config, "budget">,
  at: { gate?: string; state: string; now: Date },
): Promise<string | null> {
  const limit = config.budget?.usd_per_day;
  if (limit === undefined || at.gate === undefined) return null;
  const spent = await spentToday(at.state, at.now);
  if (spent < limit) return null;
  return `the daily budget is spent: ${
    spent.toFixed(4)
  } of ${limit} USD today (UTC, budget.usd_per_day); no model call until tomorrow or a higher budget`;
}
