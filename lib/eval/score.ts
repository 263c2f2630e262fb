/**
 * Scoring one review of one eval case against its oracle (docs/eval.md "Scores"), pure. A finding
 * catches a defect at **line level** when it is in the defect's file, its lines overlap the
 * defect's range (both inclusive) and it is at least as severe as the defect's `min_severity`; at
 * **file level** when only the file and the severity match — the two are reported apart, as
 * SWR-Bench and SWE-PRBench do. A finding is **hallucinated** when it points at no line the change
 * added or edited (a file the change did not touch, or lines of it the change kept), whatever its
 * scope says.
 *
 * @module
 */
import type { LineRange } from "../answer/types.ts";
import type { Category, Finding, Scope, Severity } from "../kinds/review/types.ts";
import { severityRank } from "../kinds/review/policy.ts";
import type { Defect } from "./types.ts";

/** How well a defect was caught: a finding on its lines, one in its file only, or none. */
export type Hit = "line" | "file" | "none";

/** A finding of a review, as the eval record keeps it (the model's own words kept as data). */
export interface ScoredFinding {
  file: string;
  line_start: number;
  line_end: number;
  severity: Severity;
  category: Category;
  scope: Scope;
  confidence: number;
  title: string;
  /** True when the gate's policy blocks on it (severity, confidence, category, scope, acknowledged). */
  blocking: boolean;
  /** The best it does against the case's defects. */
  hit: Hit;
  /** True when it points at no line the change added or edited. */
  hallucinated: boolean;
}

/** A defect of the oracle and how it was caught. */
export interface DefectOutcome extends Defect {
  found: Hit;
}

/** True when two inclusive line ranges share a line. */
function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/**
 * How one finding does against one defect.
 *
 * @example
 * ```ts
 * import { hitOf } from "./score.ts";
 * const defect = { file: "a.ts", line_start: 4, line_end: 5, min_severity: "medium" as const };
 * hitOf({ file: "a.ts", line_start: 5, line_end: 9, severity: "high" }, defect); // "line"
 * hitOf({ file: "a.ts", line_start: 9, line_end: 9, severity: "high" }, defect); // "file"
 * hitOf({ file: "a.ts", line_start: 4, line_end: 4, severity: "low" }, defect); // "none"
 * ```
 */
export function hitOf(
  finding: Pick<Finding, "file" | "line_start" | "line_end" | "severity">,
  defect: Defect,
): Hit {
  if (finding.file !== defect.file) return "none";
  if (severityRank(finding.severity) > severityRank(defect.min_severity)) return "none";
  const lines = { start: finding.line_start, end: finding.line_end };
  return overlaps(lines, { start: defect.line_start, end: defect.line_end }) ? "line" : "file";
}

/** The better of two hits. */
function better(a: Hit, b: Hit): Hit {
  return a === "line" || b === "line" ? "line" : a === "file" || b === "file" ? "file" : "none";
}

/**
 * True when a finding points at no line the change added or edited.
 *
 * @param changed the change's added or edited lines per path after it (lib/eval/case_repo.ts)
 */
export function isHallucinated(
  finding: Pick<Finding, "file" | "line_start" | "line_end">,
  changed: ReadonlyMap<string, readonly LineRange[]>,
): boolean {
  const lines = { start: finding.line_start, end: finding.line_end };
  return !(changed.get(finding.file) ?? []).some((range) => overlaps(lines, range));
}

/**
 * Score the findings of one answer against a case.
 *
 * @param findings the decoded answer's findings (none for a run without an answer)
 * @param at the case's defects, the lines its change touched, and which findings the policy
 *   blocks on (by identity)
 * @returns each finding scored, and each defect with how it was caught
 */
export function scoreFindings(
  findings: readonly Finding[],
  at: {
    defects: readonly Defect[];
    changed: ReadonlyMap<string, readonly LineRange[]>;
    blocking: ReadonlySet<Finding>;
  },
): { findings: ScoredFinding[]; defects: DefectOutcome[] } {
  const scored = findings.map((f): ScoredFinding => ({
    file: f.file,
    line_start: f.line_start,
    line_end: f.line_end,
    severity: f.severity,
    category: f.category,
    scope: f.scope,
    confidence: f.confidence,
    title: f.title,
    blocking: at.blocking.has(f),
    hit: at.defects.reduce<Hit>((best, d) => better(best, hitOf(f, d)), "none"),
    hallucinated: isHallucinated(f, at.changed),
  }));
  const defects = at.defects.map((d): DefectOutcome => ({
    ...d,
    found: findings.reduce<Hit>((best, f) => better(best, hitOf(f, d)), "none"),
  }));
  return { findings: scored, defects };
}
