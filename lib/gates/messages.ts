/**
 * What every gate says about findings (pure): one line per finding, at most
 * {@linkcode MAX_LISTED_FINDINGS} listed. The Stop answers are lib/gates/turn/answer.ts, the
 * pre-push texts lib/gates/pre_push/messages.ts. Every text that reaches the user passes through
 * {@linkcode sanitizeForTerminal}: provider errors and config keys are untrusted.
 *
 * @module
 */
import type { Finding, FindingNote } from "../kinds/review/types.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { quotePath } from "../git/coverage_text.ts";

/** Most findings listed in a block reason or pre-push message. */
export const MAX_LISTED_FINDINGS = 3;
const MAX_TITLE = 120;

/**
 * One line for a finding: `[high] src/a.ts:12-14 Title`.
 *
 * @param finding a decoded finding
 * @returns the line (file name quoted when it holds a control character or a quote, title cut at
 *   120 characters, newlines flattened)
 */
export function renderFindingLine(finding: Finding): string {
  const lines = finding.line_end > finding.line_start
    ? `${finding.line_start}-${finding.line_end}`
    : `${finding.line_start}`;
  let title = finding.title.replace(/\s+/g, " ").trim();
  if (title.length > MAX_TITLE) title = title.slice(0, MAX_TITLE - 1) + "…";
  return sanitizeForTerminal(`[${finding.severity}] ${quotePath(finding.file)}:${lines} ${title}`);
}

/**
 * A finding as a gate lists it: the finding and, when known, its fingerprint. A gate-control
 * finding (lib/gates/turn/guard.ts, not the model's) has `gateControl`: the quoted words that, in
 * the user's next prompt, allow the change.
 */
export type GateFinding = Finding & { fingerprint?: string; gateControl?: string };

/**
 * The findings with their fingerprints attached (for the `ack` command each block prints).
 *
 * @param findings the blocking findings
 * @param notes each finding's note (lib/kinds/review/policy.ts `notesByFinding`)
 */
export function withFingerprints(
  findings: readonly Finding[],
  notes: ReadonlyMap<Finding, FindingNote>,
): GateFinding[] {
  return findings.map((f) => {
    const fingerprint = notes.get(f)?.fingerprint;
    return fingerprint ? { ...f, fingerprint } : f;
  });
}

/** The exact command that acknowledges a finding (the reason is the user's to write). */
export function ackCommand(fingerprint: string): string {
  return `review-gate ack ${fingerprint.slice(0, SHORT_FINGERPRINT)} --reason "…"`;
}

/** Most findings whose ack command a block prints (the rest: review.md). */
export const MAX_ACK_COMMANDS = 20;

/**
 * The findings as `- [severity] file:lines title` lines, each followed by the command that
 * acknowledges it when its fingerprint is known: at most {@linkcode MAX_LISTED_FINDINGS} in full,
 * then one line counting the rest, then for each of the rest its location and ack command (so every
 * blocking finding of a block has its exact command, up to {@linkcode MAX_ACK_COMMANDS}).
 */
export function listFindings(findings: readonly GateFinding[]): string[] {
  const lines = findings.slice(0, MAX_LISTED_FINDINGS).flatMap((f) => [
    `- ${renderFindingLine(f)}`,
    ...(f.fingerprint ? [`  accept it: ${ackCommand(f.fingerprint)}`] : []),
  ]);
  const rest = findings.slice(MAX_LISTED_FINDINGS);
  if (rest.length === 0) return lines;
  const room = MAX_ACK_COMMANDS - MAX_LISTED_FINDINGS;
  const commands = rest.slice(0, room).filter((f) => f.fingerprint);
  const more = commands.length === 0
    ? ""
    : rest.length > room
    ? `, the first ${commands.length} with their ack commands (all: review.md)`
    : ", each with its ack command";
  lines.push(`- … and ${rest.length} more${more}`);
  for (const f of commands) lines.push(`  ${renderFindingLine(f)}: ${ackCommand(f.fingerprint!)}`);
  return lines;
}

/** `n word` with an English plural `s` when `n` is not 1. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
