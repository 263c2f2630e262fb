/**
 * The review answer (schemas/review.schema.json): verdict, summary, findings with severity and
 * location, next steps. The shapes every room that shows or judges findings uses.
 *
 * @module
 */

/** Finding severities, most severe first (schemas/review.schema.json). */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
/** One finding severity. */
export type Severity = typeof SEVERITIES[number];

/** One finding of a review answer (schemas/review.schema.json). */
export interface Finding {
  severity: Severity;
  title: string;
  body: string;
  /** Repo-relative path, normalised by the decoder. */
  file: string;
  /** 1-based first line. */
  line_start: number;
  /** 1-based last line, ≥ line_start. */
  line_end: number;
  /** 0..1 */
  confidence: number;
  recommendation: string;
}

/** The review answer (schemas/review.schema.json). */
export interface ReviewAnswer {
  verdict: "approve" | "needs-attention";
  summary: string;
  findings: Finding[];
  next_steps: string[];
}
