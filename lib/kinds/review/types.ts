/**
 * The review answer (schemas/review.schema.json): verdict, summary, findings with severity,
 * category, scope and location, next steps. The shapes every room that shows or judges findings uses.
 * The words of severity, category, scope and council policy are the config's too: they live in
 * lib/vocabulary/review.ts, below the config, and are re-exported here.
 *
 * @module
 */
import type { Category, Scope, Severity } from "../../vocabulary/review.ts";

export {
  CATEGORIES,
  type Category,
  COUNCIL_POLICIES,
  type CouncilPolicy,
  type Scope,
  SCOPES,
  SEVERITIES,
  type Severity,
} from "../../vocabulary/review.ts";

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

/** Who agreed on a finding of a council review. */
export interface Agreement {
  /** The providers that reported it, in council order. */
  agreed: string[];
  /** The providers that reviewed the part(s) it was found in, in council order. */
  of: string[];
  /** True when enough of them agreed for it to block under the council policy. */
  enough: boolean;
}
