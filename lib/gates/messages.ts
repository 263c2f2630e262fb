/**
 * What every gate says about findings (pure): one line per finding, at most
 * {@linkcode MAX_LISTED_FINDINGS} listed. The Stop answers are lib/gates/turn/answer.ts, the
 * pre-push texts lib/gates/pre_push/messages.ts. Every text that reaches the user passes through
 * {@linkcode sanitizeForTerminal}: provider errors and config keys are untrusted.
 *
 * @module
 */
import type { Finding } from "../kinds/review/types.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";

/** Most findings listed in a block reason or pre-push message. */
export const MAX_LISTED_FINDINGS = 3;
const MAX_TITLE = 120;

/**
 * One line for a finding: `[high] src/a.ts:12-14 Title`.
 *
 * @param finding a decoded finding
 * @returns the line (title cut at 120 characters, newlines flattened)
 */
export function renderFindingLine(finding: Finding): string {
  const lines = finding.line_end > finding.line_start
    ? `${finding.line_start}-${finding.line_end}`
    : `${finding.line_start}`;
  let title = finding.title.replace(/\s+/g, " ").trim();
  if (title.length > MAX_TITLE) title = title.slice(0, MAX_TITLE - 1) + "…";
  return sanitizeForTerminal(`[${finding.severity}] ${finding.file}:${lines} ${title}`);
}

/**
 * The findings as `- [severity] file:lines title` lines, at most {@linkcode MAX_LISTED_FINDINGS}
 * plus one line counting the rest.
 */
export function listFindings(findings: readonly Finding[]): string[] {
  const lines = findings.slice(0, MAX_LISTED_FINDINGS).map((f) => `- ${renderFindingLine(f)}`);
  if (findings.length > MAX_LISTED_FINDINGS) {
    lines.push(`- … and ${findings.length - MAX_LISTED_FINDINGS} more`);
  }
  return lines;
}

/** `n word` with an English plural `s` when `n` is not 1. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
