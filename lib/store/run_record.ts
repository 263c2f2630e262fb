/**
 * Review statuses and the run record stored as `runs/<id>/run.json` (docs/design.md "Statuses and
 * exit
 * codes", "Store"). They live with the store, which writes them, so the store takes no type from the
 * review pipeline above it.
 *
 * @module
 */
import type { Refusal } from "../answer/types.ts";
import type { FindingNote, ReviewAnswer } from "../kinds/review/types.ts";
import type { Coverage } from "../git/types.ts";
import type { ProviderName } from "../providers/registry.ts";
import type { ProviderChoice } from "../providers/choice.ts";
import type { Usage } from "../providers/provider.ts";
import type { CouncilPolicy } from "../kinds/review/types.ts";
import type { AttemptRecord } from "../session/types.ts";
import type { RulesReport } from "../rules/report.ts";

/** Every status a review can end in (contract). */
export const REVIEW_STATUSES = [
  "approved",
  "needs-attention",
  "invalid-answer",
  "provider-error",
  "timeout",
  "interrupted",
  "nothing-to-review",
  "not-reviewed",
  "over-budget",
] as const;
/** One review status. */
export type ReviewStatus = typeof REVIEW_STATUSES[number];

/**
 * Statuses meaning "not reviewed" (exit 3): never shown as findings, never as a pass. The first
 * three could not run; "not-reviewed" had a change none of whose diff could be shown to the model
 * (binary, undecodable, submodules, over budget), or CI could not ask one (a fork's pull request
 * has no secrets), so the model was not asked; "over-budget" is a
 * gate's review the daily spending limit (`budget.usd_per_day`) stopped before any model call.
 */
export const COULD_NOT_RUN: ReadonlySet<ReviewStatus> = new Set([
  "invalid-answer",
  "provider-error",
  "timeout",
  "not-reviewed",
  "over-budget",
]);

/** The run record: `runs/<id>/run.json`, always written, also the `--json` envelope's core. */
export interface RunRecord {
  /** Run id: sortable, `YYYYMMDDTHHMMSSZ-<6 hex>`. */
  id: string;
  status: ReviewStatus;
  /** True when policy says this result blocks (exit 1 for `review`). */
  blocking: boolean;
  /** Prompt variant: "review" or "adversarial-review". */
  reviewKind: string;
  /**
   * Answer kind (lib/kinds/registry.ts): "review" or "compliance"; absent in records written
   * before there were kinds (those are reviews).
   */
  answerKind?: string;
  /** The kind's input as recorded (compliance: the plan's path, sha256 and items). */
  kindInput?: unknown;
  /** Which gate asked for the review (`pre-push`, `claude-stop`, `ci`…); absent when run by hand. */
  gate?: string;
  /**
   * `"warn"` when the asking gate was in warn mode (README "Warn first"): its blocking findings did
   * not block (`blocking` is false unless `on_partial: "block"` blocked); absent otherwise.
   */
  gateMode?: "warn";
  /** In warn mode: how many findings would have blocked (absent when none would). */
  wouldBlock?: number;
  focus?: string;
  target: { kind: string; label: string; from?: string; to?: string };
  provider: ProviderName;
  /**
   * Set when `provider: "auto"` chose the provider (lib/providers/auto.ts): the providers passed
   * over before it, each with why. Absent when the provider was named (or a council asked).
   */
  providerChoice?: ProviderChoice;
  model?: string;
  /**
   * True when the provider program was the bundled fake (fixtures/fake, lib/providers/bundled_fake.ts):
   * a scripted answer, whose reported usage and cost are made up.
   */
  fakeProvider?: boolean;
  sessionId?: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  attempts: AttemptRecord[];
  usage?: Usage;
  costUsd?: number;
  coverage?: Coverage;
  /** The team's rules: where they came from, guidelines sent, files excluded by rule. */
  rules?: RulesReport;
  fingerprint?: string;
  cacheKey?: string;
  /** True when the verdict came from the cache (no model call). */
  cached: boolean;
  /** A cached verdict: the run that reviewed the change and when it finished (ISO 8601). */
  cachedFrom?: { runId: string; reviewedAt?: string };
  /** For could-not-run statuses: what went wrong, one line. */
  message?: string;
  /** Final refusal for invalid-answer. */
  refusal?: Refusal[];
  /**
   * One note per finding of the answer, same order: fingerprint and acknowledgement
   * (lib/kinds/review/types.ts `FindingNote`). Absent for runs without an answer.
   */
  findingNotes?: FindingNote[];
  /** Review: counts by severity, for records.jsonl and quick rendering. */
  findingCounts?: Record<string, number>;
  /** Compliance: counts of plan items by status. */
  itemCounts?: Record<string, number>;
  /** Absolute run folder. */
  runDir: string;
  /** Decoder notes (normalisations). */
  notes?: string[];
  /** A review in several model calls: each part (chunk of the review plan) and how it went. */
  parts?: PartRecord[];
  /**
   * A merged answer (parts, council): per finding of `answer.json`, same order, which parts and
   * providers reported it.
   */
  findingSources?: { parts: number[]; providers: string[] }[];
  /**
   * A council review: its providers (`provider` is the first) and the policy that decided which
   * findings block; each finding's agreement is in its note.
   */
  council?: { providers: ProviderName[]; policy: CouncilPolicy };
}

/** One part of a multi-call review. */
export interface PartRecord {
  /** 1-based chunk number. */
  part: number;
  /** "ok" (an answer, fresh or cached) or how its call failed. */
  status: string;
  /** True when its verdict came from the cache (the chunk was reviewed before). */
  cached: boolean;
  /** Files, changed lines and diff bytes it showed. */
  files: number;
  lines: number;
  bytes: number;
  /** Provider and session (a council has several providers). */
  provider?: string;
  sessionId?: string;
  /** Why it failed. */
  message?: string;
}

/**
 * The status `run.json` carries while its run is still going: written when the run folder is
 * created, replaced (atomically) by the final {@linkcode RunRecord} when the run ends. A `run.json`
 * that still says "running" after review-gate exited means the run never finished (e.g. `kill -9`).
 * Only ever stored, never returned: not a {@linkcode ReviewStatus}, not in
 * {@linkcode REVIEW_STATUSES}, no exit code.
 */
export const RUNNING_STATUS = "running";

/** `run.json` of a run that has started and not (yet) finished; see {@linkcode RUNNING_STATUS}. */
export interface RunningRecord
  extends Omit<RunRecord, "status" | "blocking" | "finishedAt" | "durationMs"> {
  status: typeof RUNNING_STATUS;
}

/** What `run.json` may hold: a finished run's record or a started run's placeholder. */
export type StoredRunRecord = RunRecord | RunningRecord;

/**
 * A finished review: the record plus the answer on success. `A` is the answer's type: a review
 * answer by default; `unknown` where runs of every answer kind pass (`record.answerKind` says
 * which).
 */
export interface ReviewResult<A = ReviewAnswer> {
  record: RunRecord;
  answer?: A;
}
