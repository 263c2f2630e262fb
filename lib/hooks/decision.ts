/**
 * What the gates say (pure): the Claude Code `Stop` hook's stdout and the pre-push hook's human
 * text. Stop output shapes per PROVIDERS.md "Claude Code hooks, as the real CLI runs them": block =
 * `{"decision":"block","reason":…}` on stdout with exit 0; a `systemMessage` shows the user a note
 * without blocking; printing nothing allows. Reasons stay short and point at the stored
 * `review.md`; at most three findings are listed, one line each. Every text that reaches the user
 * (Claude Code shows `systemMessage`s and block reasons; pre-push text goes to the terminal) passes
 * through {@linkcode sanitizeForTerminal}: provider errors and config keys are untrusted.
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

function listFindings(findings: readonly Finding[]): string[] {
  const lines = findings.slice(0, MAX_LISTED_FINDINGS).map((f) => `- ${renderFindingLine(f)}`);
  if (findings.length > MAX_LISTED_FINDINGS) {
    lines.push(`- … and ${findings.length - MAX_LISTED_FINDINGS} more`);
  }
  return lines;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Stop hook stdout that blocks the stop and sends Claude the reason.
 *
 * @param input blocking findings (≥1), the absolute path of the run's review.md
 * @returns one JSON line `{"decision":"block","reason":…}` with a final newline
 */
export function buildStopBlock(
  input: { findings: readonly Finding[]; reviewPath: string },
): string {
  const reason = [
    `review-gate found ${
      plural(input.findings.length, "blocking finding")
    } in this turn's changes:`,
    ...listFindings(input.findings),
    `Full review: ${input.reviewPath}`,
    "Fix them (or explain why they are not problems), then finish your turn.",
  ].join("\n");
  return JSON.stringify({ decision: "block", reason: sanitizeForTerminal(reason) }) + "\n";
}

/**
 * Stop hook stdout that allows the stop and shows the user a message.
 *
 * @param message one or two short lines
 * @returns one JSON line `{"systemMessage":…}` with a final newline
 */
export function buildStopMessage(message: string): string {
  return JSON.stringify({ systemMessage: sanitizeForTerminal(message) }) + "\n";
}

/** Stop hook stdout that simply allows the stop: nothing. */
export function buildStopAllow(): string {
  return "";
}

/**
 * Stop hook stdout when the review could not run (invalid answer, provider error, timeout).
 *
 * @param input why it could not run; where the run record is; `block` when config says
 *   `on_error: block`
 * @returns a block JSON line (reason says how to disable the gate) or a `systemMessage` line
 */
export function buildStopCouldNotRun(
  input: { reason: string; runPath?: string; block: boolean },
): string {
  const where = input.runPath ? ` (details: ${input.runPath})` : "";
  if (!input.block) {
    return buildStopMessage(`review-gate: this turn was NOT reviewed: ${input.reason}${where}`);
  }
  const reason = [
    `review-gate could not review this turn's changes: ${input.reason}${where}.`,
    "The gate is set to block when that happens (on_error: block). Tell the user; they can turn the",
    'gate off with "review-gate gate disable claude-stop" or REVIEW_GATE=0.',
  ].join("\n");
  return JSON.stringify({ decision: "block", reason: sanitizeForTerminal(reason) }) + "\n";
}

/** The skip hint every pre-push block carries. */
export const PRE_PUSH_SKIP_HINT =
  "To push anyway: git push --no-verify (skips all pre-push hooks) or REVIEW_GATE=0 git push";

/** Extra hint when a block comes from a cached verdict: how to have the commits reviewed again. */
export const PRE_PUSH_RECHECK_HINT =
  "This verdict is cached for these commits; to review them again: REVIEW_GATE_CACHE=0 git push";

/**
 * Pre-push stderr text when blocking findings stop the push.
 *
 * @param input what was reviewed (e.g. `refs/heads/main a1b2c3d..e4f5a6b`), the blocking findings,
 *   the run's review.md
 * @returns lines ending in a newline
 */
export function renderPrePushBlock(
  input: { label: string; findings: readonly Finding[]; reviewPath: string },
): string {
  return sanitizeForTerminal(
    [
      `review-gate: push blocked: ${
        plural(input.findings.length, "blocking finding")
      } in ${input.label}`,
      ...listFindings(input.findings).map((l) => `  ${l}`),
      `Full review: ${input.reviewPath}`,
      PRE_PUSH_SKIP_HINT,
    ].join("\n") + "\n",
  );
}

/**
 * Pre-push stderr text when the review could not run. Loud on purpose: never mistaken for a pass.
 *
 * @param input what was not reviewed, why, where the run record is, and whether the push is
 *   blocked for it (`on_error: block`)
 * @returns lines ending in a newline, control and bidi characters neutralised
 */
export function renderNotReviewed(
  input: { label: string; reason: string; runPath?: string; blocked: boolean },
): string {
  const lines = [
    `review-gate: WARNING: ${input.label} was NOT reviewed: ${input.reason}`,
    ...(input.runPath ? [`Details: ${input.runPath}`] : []),
    input.blocked
      ? `The push is blocked because gates.pre_push.on_error is "block". ${PRE_PUSH_SKIP_HINT}`
      : "The push goes ahead unreviewed.",
  ];
  return sanitizeForTerminal(lines.join("\n") + "\n");
}
