/**
 * The plan-compliance answer (schemas/compliance.schema.json) and the plan it judges: plan items
 * with their ids (parsed from the plan file by lib/kinds/compliance/plan.ts), and what a run
 * records of the plan.
 *
 * @module
 */

/** Item statuses, worst last (schemas/compliance.schema.json). */
export const ITEM_STATUSES = ["done", "partial", "missing", "contradicted"] as const;
/** How the change stands against one plan item. */
export type ItemStatus = typeof ITEM_STATUSES[number];

/** A place in the change. */
export interface EvidenceLocation {
  /** Repo-relative path, normalised by the decoder. */
  file: string;
  line_start: number;
  line_end: number;
}

/** The answer for one plan item. */
export interface ItemAnswer {
  id: string;
  status: ItemStatus;
  evidence: EvidenceLocation[];
  note: string;
}

/** A change the plan does not call for. */
export interface UnplannedChange extends EvidenceLocation {
  description: string;
}

/** The compliance answer (schemas/compliance.schema.json). */
export interface ComplianceAnswer {
  verdict: "compliant" | "incomplete" | "deviates";
  summary: string;
  items: ItemAnswer[];
  unplanned_changes: UnplannedChange[];
}

/** One plan item. */
export interface PlanItem {
  /** Id the model answers with: `"3"`, `"2.1"` (phase 2, item 1), `"3.2"` (a sub-item of 3). */
  id: string;
  /** The item's text, whitespace collapsed (folded sub-bullets joined with "; "). */
  text: string;
  /** The heading the item sits under, when any. */
  section?: string;
  /** True for a checklist item ticked in the plan (`- [x]`): a claim, still checked. */
  checked?: boolean;
}

/** A parsed plan: the compliance kind's input. */
export interface CompliancePlan {
  /** The plan file as named on the command line. */
  path: string;
  /** The plan's text (UTF-8). */
  text: string;
  /** sha256 hex of the plan's bytes. */
  sha256: string;
  items: PlanItem[];
}

/** What a run records of its plan (run.json `kindInput`): everything but the text. */
export type RecordedPlan = Omit<CompliancePlan, "text">;
