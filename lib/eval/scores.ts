/**
 * Adding scored runs up (docs/eval.md "Scores"), pure: recall at line and file level, how often the
 * gate blocked a defect and blocked a clean change for nothing, findings per case, hallucinated
 * findings, invalid answers and runs that could not run, tokens, cost and time — for a provider's
 * runs, per repeat with the spread between repeats, and per kind of case. A run that could not run
 * catches nothing: it stays in recall's denominator, and counts as could-not-run beside it.
 *
 * @module
 */
import type { KindScores, RunResult, Scores, SpreadKey, SpreadOf, Timing } from "./record.ts";
import { SPREAD_KEYS } from "./record.ts";
import { compareCodeUnits } from "../base/compare.ts";

/** Statuses that carry an answer. */
const ANSWERED: ReadonlySet<string> = new Set(["approved", "needs-attention"]);

/** `part / whole`, or null when there is no whole. */
function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

/** The sum of a field over the runs that report it, or null when none does. */
function reported(runs: readonly RunResult[], key: "inputTokens" | "outputTokens" | "costUsd") {
  const values = runs.map((r) => r[key]).filter((v): v is number => v !== undefined);
  return { sum: values.length === 0 ? null : values.reduce((a, b) => a + b, 0), n: values.length };
}

/** Mean, median and largest of some times; null for none. */
export function timing(values: readonly number[]): Timing | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return {
    mean: values.reduce((a, b) => a + b, 0) / values.length,
    median,
    max: sorted[sorted.length - 1],
  };
}

/** The counts of defects caught, over the runs of defect cases. */
function defectCounts(runs: readonly RunResult[]) {
  const defects = runs.flatMap((r) => r.defects);
  return {
    defects: defects.length,
    lineHits: defects.filter((d) => d.found === "line").length,
    fileHits: defects.filter((d) => d.found !== "none").length,
  };
}

/**
 * The scores of a set of runs.
 *
 * @param runs scored runs (runs never started left out)
 * @example
 * ```ts
 * import { scoresOf } from "./scores.ts";
 * scoresOf([]).lineRecall; // null: nothing to catch
 * ```
 */
export function scoresOf(runs: readonly RunResult[]): Scores {
  const answered = runs.filter((r) => ANSWERED.has(r.status));
  const defectRuns = runs.filter((r) => !r.clean);
  const cleanRuns = runs.filter((r) => r.clean);
  const { defects, lineHits, fileHits } = defectCounts(defectRuns);
  const findings = answered.flatMap((r) => r.findings);
  const hallucinated = findings.filter((f) => f.hallucinated).length;
  const invalidAnswers = runs.filter((r) => r.status === "invalid-answer").length;
  const couldNotRun = runs.length - answered.length - invalidAnswers;
  const input = reported(runs, "inputTokens");
  const output = reported(runs, "outputTokens");
  const cost = reported(runs, "costUsd");
  const tokenRuns = runs.filter((r) => r.inputTokens !== undefined || r.outputTokens !== undefined);
  const tokens = (input.sum ?? 0) + (output.sum ?? 0);
  const blockedDefectRuns = defectRuns.filter((r) => r.blocking).length;
  const falseBlocks = cleanRuns.filter((r) => r.blocking).length;
  return {
    runs: runs.length,
    answered: answered.length,
    defects,
    lineHits,
    fileHits,
    lineRecall: rate(lineHits, defects),
    fileRecall: rate(fileHits, defects),
    defectRuns: defectRuns.length,
    blockedDefectRuns,
    blockRate: rate(blockedDefectRuns, defectRuns.length),
    cleanRuns: cleanRuns.length,
    falseBlocks,
    falseBlockRate: rate(falseBlocks, cleanRuns.length),
    findings: findings.length,
    findingsPerCase: rate(findings.length, answered.length),
    hallucinated,
    hallucinationRate: rate(hallucinated, findings.length),
    invalidAnswers,
    invalidAnswerRate: rate(invalidAnswers, runs.length),
    couldNotRun,
    couldNotRunRate: rate(couldNotRun, runs.length),
    inputTokens: input.sum,
    outputTokens: output.sum,
    tokensPerCase: rate(tokens, tokenRuns.length),
    costUsd: cost.sum,
    costPerCase: cost.sum === null ? null : rate(cost.sum, cost.n),
    costReported: cost.n,
    fakeRuns: runs.filter((r) => r.fake).length,
    reviewMs: timing(runs.map((r) => r.reviewMs)),
  };
}

/**
 * How each rate varied between repeats: smallest, largest and standard deviation (population) of
 * the repeats that had it (a rate that is null in a repeat is left out of it).
 *
 * @param repeats the scores of each repeat
 * @returns one entry per rate any repeat had; empty with fewer than two repeats
 */
export function spreadOf(repeats: readonly Scores[]): Partial<Record<SpreadKey, SpreadOf>> {
  const out: Partial<Record<SpreadKey, SpreadOf>> = {};
  if (repeats.length < 2) return out;
  for (const key of SPREAD_KEYS) {
    const values = repeats.map((s) => s[key]).filter((v): v is number => v !== null);
    if (values.length === 0) continue;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
    out[key] = { min: Math.min(...values), max: Math.max(...values), stdev: Math.sqrt(variance) };
  }
  return out;
}

/** What a run came to, for comparing repeats: answered or not, blocked or not, each defect's hit. */
function outcomeOf(run: RunResult): string {
  const answered = ANSWERED.has(run.status) ? "answered" : run.status;
  return [answered, run.blocking, ...run.defects.map((d) => d.found)].join("|");
}

/**
 * The cases whose outcome differed between repeats (a model is not deterministic).
 *
 * @param runs every run of one provider column, all repeats
 * @returns case ids in id order
 */
export function unstableCases(runs: readonly RunResult[]): string[] {
  const seen = new Map<string, Set<string>>();
  for (const run of runs) {
    if (!seen.has(run.case)) seen.set(run.case, new Set());
    seen.get(run.case)!.add(outcomeOf(run));
  }
  return [...seen].filter(([, outcomes]) => outcomes.size > 1).map(([id]) => id)
    .sort(compareCodeUnits);
}

/**
 * The scores of each kind of case, in kind order.
 *
 * @param runs every run of one provider column
 */
export function kindScoresOf(runs: readonly RunResult[]): KindScores[] {
  const byKind = new Map<string, RunResult[]>();
  for (const run of runs) byKind.set(run.kind, [...byKind.get(run.kind) ?? [], run]);
  return [...byKind.keys()].sort(compareCodeUnits).map((kind) => {
    const all = byKind.get(kind)!;
    const { defects, lineHits, fileHits } = defectCounts(all.filter((r) => !r.clean));
    const clean = all.filter((r) => r.clean);
    const falseBlocks = clean.filter((r) => r.blocking).length;
    return {
      kind,
      cases: new Set(all.map((r) => r.case)).size,
      runs: all.length,
      defects,
      lineHits,
      fileHits,
      lineRecall: rate(lineHits, defects),
      fileRecall: rate(fileHits, defects),
      cleanRuns: clean.length,
      falseBlocks,
      falseBlockRate: rate(falseBlocks, clean.length),
    };
  });
}
