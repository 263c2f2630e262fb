/**
 * How a finding's severity maps onto each output format's levels (one table, so the formats
 * agree): critical and high are errors, medium warnings, low notes. An acknowledged finding keeps
 * its SARIF level (and carries a suppression), is INFO for reviewdog and a notice for GitHub.
 *
 * @module
 */
import type { Severity } from "../kinds/review/types.ts";

/** SARIF 2.1.0 `result.level` (§3.27.10) by severity. */
export const SARIF_LEVEL: Record<Severity, "error" | "warning" | "note"> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "note",
};

/** reviewdog `Severity` (proto/rdf/reviewdog.proto) by severity. */
export const RDJSON_SEVERITY: Record<Severity, "ERROR" | "WARNING" | "INFO"> = {
  critical: "ERROR",
  high: "ERROR",
  medium: "WARNING",
  low: "INFO",
};

/** GitHub Actions workflow command by severity. */
export const GITHUB_COMMAND: Record<Severity, "error" | "warning" | "notice"> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "notice",
};

/**
 * The level of a finding that does not block: never `error` (a passing run has no error
 * annotations), so an error-level severity reads as a warning.
 */
export function nonBlockingLevel<L extends string>(level: L, error: L, warning: L): L {
  return level === error ? warning : level;
}

/** The stable rule id of a severity (SARIF `ruleId`, reviewdog `code.value`). */
export function ruleId(severity: Severity): string {
  return `review-gate/${severity}`;
}

/** Percent-encode a repository-relative POSIX path as a relative URI reference (per segment). */
export function pathUri(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
