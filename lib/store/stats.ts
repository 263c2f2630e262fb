/**
 * The ledger's arithmetic (pure): totals over `records.jsonl` lines (lib/store/records.ts), overall
 * and grouped by provider, gate or day, for `review-gate stats`.
 *
 * @module
 */
import type { RecordLine } from "./records.ts";
import { compareCodeUnits } from "../base/compare.ts";

/** What `stats` counts over a set of runs. */
export interface Totals {
  /** Runs recorded. */
  runs: number;
  /** Runs that called the model (at least one provider invocation). */
  calls: number;
  /** Provider invocations, corrective resumes included. */
  attempts: number;
  /** Verdicts taken from the cache (no model call). */
  cacheHits: number;
  /** Runs whose verdict blocked. */
  blocks: number;
  /** Runs that gave no verdict: could not run, nothing shown, over budget, interrupted. */
  notReviewed: number;
  /** Findings acknowledged. */
  acknowledged: number;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedTokens: number;
  /**
   * USD reported by providers (runs of providers that report none add nothing, nor do the bundled
   * fake's, whose cost is made up).
   */
  costUsd: number;
  /** Runs whose provider reported a cost (the bundled fake's not counted). */
  costReported: number;
  /** Runs the bundled fake provider answered (lib/providers/bundled_fake.ts). */
  fakeRuns: number;
  /** Wall time of all runs, milliseconds. */
  wallMs: number;
}

/** How `stats` groups runs. */
export type GroupBy = "provider" | "gate" | "day";

const VERDICTS = new Set(["approved", "needs-attention", "nothing-to-review"]);

function empty(): Totals {
  return {
    runs: 0,
    calls: 0,
    attempts: 0,
    cacheHits: 0,
    blocks: 0,
    notReviewed: 0,
    acknowledged: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    costUsd: 0,
    costReported: 0,
    fakeRuns: 0,
    wallMs: 0,
  };
}

function add(t: Totals, line: RecordLine): void {
  t.runs++;
  const attempts = line.attempts ?? 0;
  t.attempts += attempts;
  if (attempts > 0) t.calls++;
  if (line.cached) t.cacheHits++;
  if (line.blocking) t.blocks++;
  if (!VERDICTS.has(line.status)) t.notReviewed++;
  t.acknowledged += line.acknowledged ?? 0;
  t.inputTokens += line.usage?.inputTokens ?? 0;
  t.outputTokens += line.usage?.outputTokens ?? 0;
  t.cachedTokens += line.usage?.cacheReadTokens ?? 0;
  if (line.fake) t.fakeRuns++;
  else if (typeof line.costUsd === "number") {
    t.costUsd += line.costUsd;
    t.costReported++;
  }
  t.wallMs += line.durationMs ?? 0;
}

/** The group a line falls in. */
export function groupKey(line: RecordLine, by: GroupBy): string {
  if (by === "provider") return line.provider;
  if (by === "gate") return line.gate ?? "by hand";
  return line.finishedAt.slice(0, 10);
}

/**
 * Totals over record lines, overall and per group.
 *
 * @param lines the ledger lines
 * @param by how to group (groups sorted by key); none: `groups` is empty
 */
export function aggregate(
  lines: readonly RecordLine[],
  by?: GroupBy,
): { total: Totals; groups: { key: string; totals: Totals }[] } {
  const total = empty();
  const groups = new Map<string, Totals>();
  for (const line of lines) {
    add(total, line);
    if (!by) continue;
    const key = groupKey(line, by);
    if (!groups.has(key)) groups.set(key, empty());
    add(groups.get(key)!, line);
  }
  total.costUsd = round(total.costUsd);
  for (const t of groups.values()) t.costUsd = round(t.costUsd);
  return {
    total,
    groups: [...groups].sort(([a], [b]) => compareCodeUnits(a, b)).map(([key, totals]) => ({
      key,
      totals,
    })),
  };
}

/** USD to 1e-8 (the float sum of many small costs otherwise shows noise digits). */
function round(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}
