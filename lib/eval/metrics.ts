/**
 * The rows every eval report shows (terminal, markdown, html), each a label and how one column's
 * scores read in it, pure: counts beside their rates (`17/29 58.6%`), "—" where there was nothing
 * to count, and "not reported" for tokens or cost a provider did not report (never 0).
 *
 * @module
 */
import type { RunResult, Scores, SpreadKey, SpreadOf } from "./record.ts";

/** One row of the summary table. */
export interface MetricRow {
  label: string;
  /** The cell of one column. */
  cell(scores: Scores): string;
  /** The rate drawn as a bar (0..1), when the row is one. */
  rate?: (scores: Scores) => number | null;
  /** Its spread key, when it varies over repeats. */
  spread?: SpreadKey;
  /** True when more is better (recall), false when less is (false blocks), absent for neither. */
  higherIsBetter?: boolean;
}

/** `0.586` → `58.6%`. */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** `part/whole rate`, or "—" when there is no whole. */
export function fraction(part: number, whole: number): string {
  return whole === 0 ? "—" : `${part}/${whole} ${percent(part / whole)}`;
}

/** USD with enough digits for the fake's fractions of a cent. */
export function usd(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(value >= 0.01 ? 4 : 5)}`;
}

/** Milliseconds as seconds (`1.2 s`) or ms below one second. */
export function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** A spread as text: `55.2%–62.1% (sd 3.4%)`. */
export function spreadText(spread: SpreadOf, key: SpreadKey): string {
  const show = key === "findingsPerCase" ? (v: number) => v.toFixed(2) : percent;
  const stdev = key === "findingsPerCase" ? spread.stdev.toFixed(2) : percent(spread.stdev);
  return `${show(spread.min)}–${show(spread.max)} (sd ${stdev})`;
}

/**
 * The cost cell: what the providers reported, "not reported" when none did, and the bundled fake's
 * runs named apart — their cost is made up, never money (lib/providers/bundled_fake.ts).
 */
function costCell(s: Scores): string {
  const fake = s.fakeRuns;
  if (s.costUsd === null) {
    return fake > 0 ? "fake (the bundled fake's made-up cost, not counted)" : "not reported";
  }
  const notes = [
    ...(s.costReported < s.runs ? [`${s.costReported} of ${s.runs} runs reported`] : []),
    ...(fake > 0 ? [`${fake} by the bundled fake not counted`] : []),
  ];
  return `${usd(s.costUsd)} (${usd(s.costPerCase ?? 0)}/case${
    notes.map((n) => `, ${n}`).join("")
  })`;
}

/** The summary's rows, in order. */
export const METRIC_ROWS: readonly MetricRow[] = [
  {
    label: "line recall",
    cell: (s) => fraction(s.lineHits, s.defects),
    rate: (s) => s.lineRecall,
    spread: "lineRecall",
    higherIsBetter: true,
  },
  {
    label: "file recall",
    cell: (s) => fraction(s.fileHits, s.defects),
    rate: (s) => s.fileRecall,
    spread: "fileRecall",
    higherIsBetter: true,
  },
  {
    label: "defects blocked",
    cell: (s) => fraction(s.blockedDefectRuns, s.defectRuns),
    rate: (s) => s.blockRate,
    spread: "blockRate",
    higherIsBetter: true,
  },
  {
    label: "clean changes blocked",
    cell: (s) => fraction(s.falseBlocks, s.cleanRuns),
    rate: (s) => s.falseBlockRate,
    spread: "falseBlockRate",
    higherIsBetter: false,
  },
  {
    label: "findings per case",
    cell: (s) => s.findingsPerCase === null ? "—" : s.findingsPerCase.toFixed(2),
    spread: "findingsPerCase",
  },
  {
    label: "hallucinated findings",
    cell: (s) => fraction(s.hallucinated, s.findings),
    rate: (s) => s.hallucinationRate,
    spread: "hallucinationRate",
    higherIsBetter: false,
  },
  {
    label: "invalid answers",
    cell: (s) => fraction(s.invalidAnswers, s.runs),
    rate: (s) => s.invalidAnswerRate,
    spread: "invalidAnswerRate",
    higherIsBetter: false,
  },
  {
    label: "could not run",
    cell: (s) => fraction(s.couldNotRun, s.runs),
    rate: (s) => s.couldNotRunRate,
    spread: "couldNotRunRate",
    higherIsBetter: false,
  },
  {
    label: "tokens per case",
    cell: (s) => s.tokensPerCase === null ? "not reported" : Math.round(s.tokensPerCase).toString(),
  },
  {
    label: "cost",
    cell: costCell,
  },
  {
    label: "review time per case",
    cell: (s) =>
      s.reviewMs === null
        ? "—"
        : `${duration(s.reviewMs.mean)} mean, ${duration(s.reviewMs.median)} median, ${
          duration(s.reviewMs.max)
        } max`,
  },
];

/** One run in a few words: caught or missed (or not answered), blocked or not, its findings. */
export function runText(run: RunResult): string {
  if (run.status !== "approved" && run.status !== "needs-attention") return run.status;
  const caught = run.clean ? [] : [
    run.defects.every((d) => d.found === "line")
      ? "caught"
      : run.defects.some((d) => d.found !== "none")
      ? "caught in file"
      : "missed",
  ];
  const hallucinated = run.findings.filter((f) => f.hallucinated).length;
  const findings = run.findings.length === 1 ? "1 finding" : `${run.findings.length} findings`;
  return [
    ...caught,
    run.blocking ? "blocked" : "not blocked",
    hallucinated > 0 ? `${findings} (${hallucinated} hallucinated)` : findings,
  ].join(", ");
}

/** The runs of one case by one column, repeats in order, as one cell. */
export function runsText(runs: readonly RunResult[]): string {
  return runs.length === 0 ? "not run" : runs.map(runText).join(" / ");
}
