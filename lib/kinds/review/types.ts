/**
 * The review answer (schemas/review.schema.json): verdict, summary, findings with severity,
 * category, scope and location, next steps. The shapes every room that shows or judges findings uses.
 *
 * @module
 */

/** Finding severities, most severe first (schemas/review.schema.json). */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
/** One finding severity. */
export type Severity = typeof SEVERITIES[number];

/** Finding categories (schemas/review.schema.json); policy `categories` picks which may block. */
export const CATEGORIES = [
  "bug",
  "security",
  "performance",
  "reliability",
  "maintainability",
  "style",
] as const;
/** One finding category. */
export type Category = typeof CATEGORIES[number];

/**
 * Where a finding comes from (schemas/review.schema.json): `introduced` by the change (it points at
 * changed lines: the decoder checks it), `pre-existing-touched` (there before, in code the change
 * touches) or `outside` (there before, in code the change does not touch). Only `introduced`
 * findings block unless policy `block_on_preexisting` is set.
 */
export const SCOPES = ["introduced", "pre-existing-touched", "outside"] as const;
/** One finding scope. */
export type Scope = typeof SCOPES[number];

/** One finding of a review answer (schemas/review.schema.json). */
export interface Finding {
  severity: Severity;
  category: Category;
  scope: Scope;
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

/**
 * What review-gate knows about one finding beyond the model's answer (stored in `run.json`, index
 * for index with the answer's findings): its fingerprint (lib/kinds/review/fingerprint.ts) and, when
 * the team acknowledged it (`.review-gate/acks.json`), the acknowledgement. An acknowledged finding
 * never blocks and is shown as "acknowledged (reason)".
 */
export interface FindingNote {
  /** 64 hex characters: file + normalised title + hash of the lines the finding points at. */
  fingerprint: string;
  /** Present when an active acknowledgement matches the fingerprint. */
  acknowledged?: {
    reason: string;
    /** Last day the acknowledgement holds (`YYYY-MM-DD`, UTC), when it expires. */
    expires?: string;
    /** Who acknowledged it (git `user.name <user.email>`), when known. */
    by?: string;
  };
  /** In a council review: which providers reported it (lib/kinds/review/council.ts). */
  agreement?: Agreement;
}

/** Council policies (config `council_policy`): which of a council's findings block. */
export const COUNCIL_POLICIES = ["any", "majority", "all"] as const;
/** One council policy. */
export type CouncilPolicy = typeof COUNCIL_POLICIES[number];

/** Who agreed on a finding of a council review. */
export interface Agreement {
  /** The providers that reported it, in council order. */
  agreed: string[];
  /** The providers that reviewed the part(s) it was found in, in council order. */
  of: string[];
  /** True when enough of them agreed for it to block under the council policy. */
  enough: boolean;
}
