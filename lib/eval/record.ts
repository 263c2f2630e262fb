/**
 * The eval record: what `review-gate eval --format json` prints (schemas/eval_report.schema.json,
 * docs/eval.md "The record"; docs/eval.md "Scores" says what each score means). Rates are fractions from 0 to 1, `null` when nothing was there to
 * count (no defect case run, no clean case run, no finding); tokens and cost are `null` when no run
 * reported them (Codex and Vibe report no cost: never 0).
 *
 * @module
 */
import type { DefectOutcome, ScoredFinding } from "./score.ts";

/** The version of the record's shape. */
export const EVAL_RECORD_VERSION = 1;

/** One review of one case by one provider column, scored. */
export interface RunResult {
  /** The case's id (`ts/off-by-one`). */
  case: string;
  kind: string;
  language: string;
  clean: boolean;
  /** 1-based repeat (`--repeat`). */
  repeat: number;
  /**
   * The review's status (docs/design.md "Statuses and exit codes"), or `error` when the review
   * threw (the message says what).
   */
  status: string;
  /** True when the gate's policy would block on the review. */
  blocking: boolean;
  /** True when only part of the change reached the model (coverage partial). */
  partial: boolean;
  /** Why a review that could not run did not (one line). */
  message?: string;
  findings: ScoredFinding[];
  defects: DefectOutcome[];
  /** The model the provider reported. */
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** The cost the provider reported, USD (never the bundled fake's: see `fake`). */
  costUsd?: number;
  /**
   * The bundled fake provider answered (lib/providers/bundled_fake.ts): its cost is made up, so
   * it is left out of `costUsd` and never counted as spend nor by `--budget`.
   */
  fake?: boolean;
  /** The review's own time (the run record's), ms. */
  reviewMs: number;
  /** The eval's time for the run, the review and its scoring together, ms. */
  wallMs: number;
}

/** A time in ms: mean, median, largest. */
export interface Timing {
  mean: number;
  median: number;
  max: number;
}

/** The scores of a set of runs (docs/eval.md "Scores"). */
export interface Scores {
  /** Runs counted (runs `--budget` or an interrupt stopped first are not). */
  runs: number;
  /** Runs that gave an answer (approved or needs-attention). */
  answered: number;
  /** Defects of the defect cases run (a case run twice counts its defects twice). */
  defects: number;
  lineHits: number;
  /** Defects caught at file level or better. */
  fileHits: number;
  lineRecall: number | null;
  fileRecall: number | null;
  /** Runs of defect cases, and how many of them the gate blocked. */
  defectRuns: number;
  blockedDefectRuns: number;
  blockRate: number | null;
  /** Runs of clean cases, and how many of them the gate blocked for nothing. */
  cleanRuns: number;
  falseBlocks: number;
  falseBlockRate: number | null;
  findings: number;
  /** Findings per answered run. */
  findingsPerCase: number | null;
  hallucinated: number;
  /** Hallucinated findings per finding. */
  hallucinationRate: number | null;
  invalidAnswers: number;
  invalidAnswerRate: number | null;
  /** Runs that could not run for any other reason (provider error, timeout, not reviewed, error). */
  couldNotRun: number;
  couldNotRunRate: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Input plus output tokens per run that reported tokens. */
  tokensPerCase: number | null;
  costUsd: number | null;
  /** Cost per run that reported one. */
  costPerCase: number | null;
  /** Runs that reported a cost. */
  costReported: number;
  /** Runs the bundled fake answered: their made-up cost is not in `costUsd`. */
  fakeRuns: number;
  /** The review's time per run, ms. */
  reviewMs: Timing | null;
}

/** The names of the rates whose spread over `--repeat` runs is reported. */
export const SPREAD_KEYS = [
  "lineRecall",
  "fileRecall",
  "blockRate",
  "falseBlockRate",
  "findingsPerCase",
  "hallucinationRate",
  "invalidAnswerRate",
  "couldNotRunRate",
] as const;

/** One spread key. */
export type SpreadKey = typeof SPREAD_KEYS[number];

/** How a score varied between repeats: smallest, largest, standard deviation (population). */
export interface SpreadOf {
  min: number;
  max: number;
  stdev: number;
}

/** The scores of one kind of case (`off-by-one`, `refactor`…). */
export interface KindScores {
  kind: string;
  /** Distinct cases of the kind. */
  cases: number;
  runs: number;
  defects: number;
  lineHits: number;
  fileHits: number;
  lineRecall: number | null;
  fileRecall: number | null;
  cleanRuns: number;
  falseBlocks: number;
  falseBlockRate: number | null;
}

/** One provider column's results (`--providers a,b` gives one each). */
export interface ProviderResult {
  /** The column as asked: `claude`, `codex:gpt-5`, `claude+codex` (a council). */
  label: string;
  provider: string;
  /** The model asked for (`--model`, `name:model`), when one was. */
  model?: string;
  /** The model the runs reported, when they agree on one. */
  reportedModel?: string;
  /** A council's providers. */
  council?: string[];
  /** Every run, all repeats together. */
  scores: Scores;
  /** One entry per repeat (`--repeat`), in order. */
  repeats: Scores[];
  /** How the rates varied between repeats; absent with one repeat. */
  spread?: Partial<Record<SpreadKey, SpreadOf>>;
  /** Cases whose outcome differed between repeats (caught or not, blocked or not, answered or not). */
  unstable: string[];
  kinds: KindScores[];
  runs: RunResult[];
}

/** Why the eval stopped before every run. */
export interface Stopped {
  reason: "budget" | "interrupted";
  /** Runs that never started, or that the interrupt stopped before they answered. */
  notRun: number;
}

/** The whole record. */
export interface EvalReport {
  version: typeof EVAL_RECORD_VERSION;
  tool: { name: "review-gate"; version: string };
  suite: {
    /** Absolute path of the suite's folder. */
    path: string;
    /** Cases chosen (`--cases`), of `total`. */
    cases: number;
    total: number;
    clean: number;
    languages: string[];
    kinds: string[];
  };
  settings: {
    repeat: number;
    jobs: number;
    budgetUsd?: number;
    cases?: string[];
    failOn: string;
    minConfidence: number;
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  stopped?: Stopped;
  /** What a reader should know about the run, one line each. */
  notes: string[];
  providers: ProviderResult[];
}
