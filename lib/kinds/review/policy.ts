/**
 * The review kind's blocking policy (docs/design.md "Statuses and exit codes"; noise control of
 * issue
 * "review rules"): which findings block, the status a verdict gives, the order findings are shown
 * in, and how many are shown. Pure.
 *
 * A finding blocks when the verdict is `needs-attention`, its severity is at or above `failOn`, its
 * confidence is at least `minConfidence`, its category is one of `categories`, and its scope is
 * `introduced` — or any scope with `blockOnPreexisting`.
 *
 * @module
 */
import {
  type Category,
  type Finding,
  type FindingNote,
  type ReviewAnswer,
  SEVERITIES,
  type Severity,
} from "./types.ts";
import { compareCodeUnits } from "../../base/compare.ts";

/** Policy settings (config keys `fail_on`, `min_confidence`, `categories`, …). */
export interface Policy {
  /** Lowest severity that blocks. Default "high". */
  failOn: Severity;
  /** Lowest confidence (0..1) of a blocking finding. Default 0.5. */
  minConfidence: number;
  /** Categories whose findings may block; absent = every category. */
  categories?: readonly Category[];
  /** Whether findings of scope `pre-existing-touched` or `outside` may block. Default false. */
  blockOnPreexisting?: boolean;
  /** Most findings shown (blocking ones first, then the most severe); absent = all. */
  maxFindings?: number;
}

/** The config keys a policy is made of. */
export interface PolicyConfig {
  fail_on: Severity;
  min_confidence: number;
  categories?: readonly Category[];
  block_on_preexisting?: boolean;
  max_findings?: number;
}

/**
 * The policy a config sets.
 *
 * @param config the loaded config (`fail_on`, `min_confidence`, `categories`,
 *   `block_on_preexisting`, `max_findings`)
 * @returns the policy
 */
export function policyOf(config: PolicyConfig): Policy {
  return {
    failOn: config.fail_on,
    minConfidence: config.min_confidence,
    ...(config.categories ? { categories: config.categories } : {}),
    blockOnPreexisting: config.block_on_preexisting ?? false,
    ...(config.max_findings !== undefined ? { maxFindings: config.max_findings } : {}),
  };
}

/** Rank of a severity: 0 = critical (most severe). */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** True when `a` is more severe than `b`, or as severe with a higher confidence. */
export function moreSevere(a: Finding, b: Finding): boolean {
  const [ra, rb] = [severityRank(a.severity), severityRank(b.severity)];
  return ra < rb || (ra === rb && a.confidence > b.confidence);
}

/**
 * Which rule of a policy lets a finding through, in a few words, or `null` when every rule makes
 * it block (the verdict, acknowledgements and council agreement aside). The one place the rules
 * are written: {@linkcode findingBlocks} and {@linkcode notBlockingReason} both read them here.
 */
function policyReason(finding: Finding, policy: Policy): string | null {
  if (severityRank(finding.severity) > severityRank(policy.failOn)) {
    return `severity ${finding.severity} is below fail_on ${policy.failOn}`;
  }
  if (finding.confidence < policy.minConfidence) {
    return `confidence ${
      finding.confidence.toFixed(2)
    } is below min_confidence ${policy.minConfidence}`;
  }
  if (policy.categories !== undefined && !policy.categories.includes(finding.category)) {
    return `category ${finding.category} is not in categories`;
  }
  if (finding.scope !== "introduced" && policy.blockOnPreexisting !== true) {
    return `${finding.scope} (block_on_preexisting is false)`;
  }
  return null;
}

/** True when one finding blocks under a policy (the verdict aside). */
export function findingBlocks(finding: Finding, policy: Policy): boolean {
  return policyReason(finding, policy) === null;
}

/**
 * The findings of an answer that block under a policy ({@linkcode findingBlocks}), are not
 * acknowledged and, in a council review, were reported by enough providers (`council_policy`). An
 * `approve` verdict never blocks.
 *
 * @param answer the decoded answer
 * @param policy what blocks
 * @param notes the findings' notes, index for index (an acknowledged finding never blocks, nor
 *   one whose council agreement is not enough)
 */
export function blockingFindings(
  answer: ReviewAnswer,
  policy: Policy,
  notes?: readonly FindingNote[],
): Finding[] {
  if (answer.verdict !== "needs-attention") return [];
  return answer.findings.filter((f, i) =>
    findingBlocks(f, policy) && !notes?.[i]?.acknowledged && notes?.[i]?.agreement?.enough !== false
  );
}

/**
 * Why a finding shown in a review does not block, in a few words (`confidence 0.30 below
 * min_confidence 0.5`, `acknowledged`, …), or `null` when it blocks.
 *
 * @param finding the finding
 * @param at the answer's verdict, the policy, and the finding's note (acknowledgement, council)
 */
export function notBlockingReason(
  finding: Finding,
  at: { verdict: ReviewAnswer["verdict"]; policy: Policy; note?: FindingNote },
): string | null {
  const { policy, note } = at;
  if (note?.acknowledged) return "acknowledged";
  const reason = policyReason(finding, policy);
  if (reason !== null) return reason;
  if (note?.agreement?.enough === false) return "not enough council providers agreed";
  if (at.verdict !== "needs-attention") return `the verdict is ${at.verdict}`;
  return null;
}

/**
 * The note of each finding, looked up by the finding object itself (renderers sort findings).
 *
 * @param answer the answer whose findings the notes follow, index for index
 * @param notes the notes (absent: an empty map)
 */
export function notesByFinding(
  answer: ReviewAnswer,
  notes: readonly FindingNote[] | undefined,
): Map<Finding, FindingNote> {
  const out = new Map<Finding, FindingNote>();
  if (!notes) return out;
  answer.findings.forEach((f, i) => {
    if (notes[i]) out.set(f, notes[i]);
  });
  return out;
}

/** The status of a decoded answer. */
export function answerStatus(answer: ReviewAnswer): "approved" | "needs-attention" {
  return answer.verdict === "approve" ? "approved" : "needs-attention";
}

/** Findings sorted most severe first, then by confidence (high first), then file and line. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) =>
    severityRank(a.severity) - severityRank(b.severity) ||
    b.confidence - a.confidence ||
    compareCodeUnits(a.file, b.file) ||
    a.line_start - b.line_start
  );
}

/** The findings to show and how many were left out by `maxFindings`. */
export interface ShownFindings {
  /** Blocking findings first, then the rest, each group in {@linkcode sortFindings} order. */
  shown: Finding[];
  /** Findings not shown (0 when `maxFindings` is absent or not reached). */
  hidden: number;
}

/**
 * The findings a renderer shows under a policy: every blocking finding comes before any other, so
 * `maxFindings` never hides a blocking finding unless there are more blocking findings than that;
 * the least severe go first.
 *
 * @param answer the decoded answer
 * @param policy the policy (`maxFindings`, and what blocks)
 * @param notes the findings' notes, index for index (acknowledged findings do not block)
 */
export function shownFindings(
  answer: ReviewAnswer,
  policy: Policy,
  notes?: readonly FindingNote[],
): ShownFindings {
  const blocking = new Set(blockingFindings(answer, policy, notes));
  const sorted = sortFindings(answer.findings);
  const ordered = [
    ...sorted.filter((f) => blocking.has(f)),
    ...sorted.filter((f) => !blocking.has(f)),
  ];
  const limit = policy.maxFindings ?? ordered.length;
  return { shown: ordered.slice(0, limit), hidden: Math.max(0, ordered.length - limit) };
}
