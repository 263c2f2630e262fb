/**
 * What a Stop gate answers (pure), in the shape Claude Code reads from a `Stop` hook's stdout
 * (PROVIDERS.md "Claude Code hooks, as the real CLI runs them"): block =
 * `{"decision":"block","reason":…}` with exit 0; a `systemMessage` shows the user a note without
 * blocking; printing nothing allows. Reasons stay short and point at the stored `review.md`; at most
 * three findings are listed, one line each. Every text passes through
 * {@linkcode sanitizeForTerminal}: provider errors and config keys are untrusted.
 *
 * @module
 */
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import { type GateFinding, listFindings, plural } from "../messages.ts";
import type { HookOutput } from "../hook_io.ts";

/**
 * Stop hook stdout that blocks the stop and sends the agent the reason.
 *
 * The reason says what really happens next: the next stop reviews the changes again (an
 * explanation does not unblock it), only the user can accept a finding, and after `maxBlocks`
 * blocks in a row the stop is let through with a note to the user (lib/gates/turn/decision.ts).
 *
 * @param input blocking findings (≥1); the absolute path of the run's review.md, when a review
 *   ran; a note line to add (e.g. the model review could not run); the gate's `max_blocks`
 * @returns one JSON line `{"decision":"block","reason":…}` with a final newline
 */
export function buildStopBlock(
  input: {
    findings: readonly GateFinding[];
    reviewPath?: string;
    note?: string;
    maxBlocks: number;
  },
): string {
  const acks = input.findings.some((f) => f.fingerprint) ? [STOP_ACK_HINT] : [];
  const them = input.findings.length === 1 ? "it" : "them";
  const reason = [
    `review-gate found ${
      plural(input.findings.length, "blocking finding")
    } in this turn's changes:`,
    ...listFindings(input.findings),
    ...(input.reviewPath ? [`Full review: ${input.reviewPath}`] : []),
    ...(input.note ? [input.note] : []),
    `Fix ${them}, then finish your turn: the next stop reviews the changes again, and an explanation does not unblock it.`,
    ...acks,
    `After ${
      plural(input.maxBlocks, "block")
    } in a row (max_blocks) the stop is let through, and the user is told it still has blocking findings.`,
  ].join("\n");
  return JSON.stringify({ decision: "block", reason: sanitizeForTerminal(reason) }) + "\n";
}

/** Who may accept a finding: the user (`review-gate ack` refuses to run inside an agent session). */
export const STOP_ACK_HINT =
  "If it is not a problem, or the user should decide: tell the user. Only they may accept a finding (the ack command shown, run in their own terminal); do not edit .review-gate/acks.json yourself.";

/**
 * Stop hook stdout that allows the stop and shows the user a message.
 *
 * @param message one or two short lines
 * @returns one JSON line `{"systemMessage":…}` with a final newline
 */
export function buildStopMessage(message: string): string {
  return JSON.stringify({ systemMessage: sanitizeForTerminal(message) }) + "\n";
}

/**
 * Stop hook stdout when the review could not run (invalid answer, provider error, timeout), or
 * when none of the change could be shown to the model (not-reviewed).
 *
 * @param input why it was not reviewed; where the run record is; `block` when the config says so
 *   through `setting` (`on_error`, the default, or `on_partial`); the gate's name
 *   (`claude-stop`), for the command that turns it off
 * @returns a block JSON line (reason says how to disable the gate) or a `systemMessage` line
 */
export function buildStopCouldNotRun(
  input: {
    reason: string;
    runPath?: string;
    block: boolean;
    gateName: string;
    setting?: "on_error" | "on_partial";
  },
): string {
  const where = input.runPath ? ` (details: ${input.runPath})` : "";
  if (!input.block) {
    return buildStopMessage(`review-gate: this turn was NOT reviewed: ${input.reason}${where}`);
  }
  const setting = input.setting ?? "on_error";
  const reason = [
    `review-gate could not review this turn's changes: ${input.reason}${where}.`,
    `The gate is set to block when that happens (${setting}: block). Tell the user; they can turn the`,
    `gate off with "review-gate gate disable ${input.gateName}" or REVIEW_GATE=0.`,
  ].join("\n");
  return JSON.stringify({ decision: "block", reason: sanitizeForTerminal(reason) }) + "\n";
}

/**
 * Stop hook stdout when only part of the turn's change reached the model and nothing blocked.
 *
 * @param input what was and was not reviewed (one line), the run's review.md, `block` when
 *   `on_partial` is "block", and the gate's name for the command that turns it off
 * @returns a `systemMessage` line (allow) or a block JSON line
 */
export function buildStopPartial(
  input: { partial: string; reviewPath: string; block: boolean; gateName: string },
): string {
  if (!input.block) {
    return buildStopMessage(
      `review-gate: this turn was only PARTIALLY reviewed: ${input.partial}. Review: ${input.reviewPath}`,
    );
  }
  const reason = [
    `review-gate reviewed only part of this turn's changes: ${input.partial}.`,
    `Full review: ${input.reviewPath}`,
    "The gate is set to block when that happens (on_partial: block). Tell the user; they can turn",
    `the gate off with "review-gate gate disable ${input.gateName}" or REVIEW_GATE=0.`,
  ].join("\n");
  return JSON.stringify({ decision: "block", reason: sanitizeForTerminal(reason) }) + "\n";
}

/**
 * Add notes to a stop's answer: a block's reason, an allow's `systemMessage`, or a new
 * `systemMessage` when the stop allowed silently.
 *
 * @param output an answer built by this module (stdout empty or one JSON line)
 * @param notes one sentence each
 * @returns the answer with the notes on new lines
 */
export function withNotes(output: HookOutput, notes: readonly string[]): HookOutput {
  if (notes.length === 0) return output;
  const text = notes.join("\n");
  if (output.stdout.trim() === "") return { ...output, stdout: buildStopMessage(text) };
  const answer = JSON.parse(output.stdout) as Record<string, unknown>;
  const key = answer.decision === "block" ? "reason" : "systemMessage";
  answer[key] = sanitizeForTerminal(answer[key] ? `${answer[key]}\n${text}` : text);
  return { ...output, stdout: JSON.stringify(answer) + "\n" };
}
