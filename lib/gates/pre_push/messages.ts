/**
 * What the pre-push gate prints (pure): blocks with the skip hint, the loud "NOT reviewed" warning,
 * and one report per reviewed ref update whether its verdict came from the memo, the cache or the
 * model ({@linkcode renderVerdict}). Control and bidi characters are neutralised: labels and
 * provider messages are untrusted.
 *
 * @module
 */
import type { Finding, ReviewAnswer } from "../../kinds/review/types.ts";
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import { listFindings, plural } from "../messages.ts";

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

/** A ref update's verdict, for {@linkcode renderVerdict}. */
export interface PushVerdict {
  /** The ref update and its commit count, e.g. `refs/heads/main (2 commits)`. */
  label: string;
  /**
   * Where the verdict came from: the verdict memo (no change collected), the verdict cache (the
   * change was collected) or the model.
   */
  source: "memo" | "cache" | "model";
  answer: ReviewAnswer;
  /** The run folder holding the verdict's `review.md`. */
  runDir?: string;
  /** The verdict's status (`approved`, `needs-attention`). */
  status: string;
  /** The blocking findings, most severe first (empty when the verdict does not block). */
  findings: readonly Finding[];
}

/**
 * The report of one reviewed ref update, whatever the verdict's source: a block (with the recheck
 * hint when the verdict was cached) or one line saying it passes.
 *
 * @returns the text (lines ending in a newline) and whether it blocks the push
 */
export function renderVerdict(verdict: PushVerdict): { text: string; blocked: boolean } {
  const { label, source, answer } = verdict;
  const cached = source !== "model";
  if (verdict.findings.length > 0) {
    const text = renderPrePushBlock({
      label: source === "memo" ? `${label} (cached verdict)` : label,
      findings: verdict.findings,
      reviewPath: `${verdict.runDir}/review.md`,
    });
    return { text: text + (cached ? `${PRE_PUSH_RECHECK_HINT}\n` : ""), blocked: true };
  }
  if (source === "memo") {
    return {
      text: `review-gate: ${label}: ${verdict.status} (cached verdict, no model call)\n`,
      blocked: false,
    };
  }
  const extra = answer.findings.length > 0
    ? `, ${answer.findings.length} non-blocking finding(s)`
    : "";
  return {
    text: `review-gate: ${label}: ${verdict.status}${extra}${cached ? " (cached verdict)" : ""}\n`,
    blocked: false,
  };
}
