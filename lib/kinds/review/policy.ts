/**
 * The review kind's blocking policy (DESIGN.md "Statuses and exit codes"): which findings block,
 * the status a verdict gives, and the order findings are shown in. Pure.
 *
 * @module
 */
import {
  type Finding,
  type FindingNote,
  type ReviewAnswer,
  SEVERITIES,
  type Severity,
} from "./types.ts";

/** Policy settings (config keys `fail_on`, `min_confidence`). */
export interface Policy {
  /** Lowest severity that blocks. Default "high". */
  failOn: Severity;
  /** Lowest confidence (0..1) of a blocking finding. Default 0.5. */
  minConfidence: number;
}

/**
 * The policy a config sets.
 *
 * @param config the loaded config (`fail_on`, `min_confidence`)
 * @returns the policy
 */
export function policyOf(config: { fail_on: Severity; min_confidence: number }): Policy {
  return { failOn: config.fail_on, minConfidence: config.min_confidence };
}

/** Rank of a severity: 0 = critical (most severe). */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/**
 * The findings of an answer that block under a policy: at or above `failOn`, with
 * `confidence ≥ minConfidence`, and not acknowledged. An `approve` verdict never blocks.
 *
 * @param answer the decoded answer
 * @param policy severity and confidence thresholds
 * @param notes the findings' notes, index for index (an acknowledged finding never blocks)
 */
export function blockingFindings(
  answer: ReviewAnswer,
  policy: Policy,
  notes?: readonly FindingNote[],
): Finding[] {
  if (answer.verdict !== "needs-attention") return [];
  const limit = severityRank(policy.failOn);
  return answer.findings.filter((f, i) =>
    severityRank(f.severity) <= limit && f.confidence >= policy.minConfidence &&
    !notes?.[i]?.acknowledged
  );
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
    a.file.localeCompare(b.file) ||
    a.line_start - b.line_start
  );
}
