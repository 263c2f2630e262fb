/**
 * What a Stop gate answers (pure), in the shape Claude Code reads from a `Stop` hook's stdout
 * (docs/providers.md "Claude Code hooks"): block =
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
 * Gate-control findings (`gateControl`, lib/gates/turn/guard.ts) are not the model's: the reason
 * says the block is the gate's own check, tells the agent not to undo a change the user made but
 * to ask for a prompt naming it (the exact words), and to revert only its own.
 *
 * @param input blocking findings (≥1); the absolute path of the run's review.md, when a review
 *   ran, and whether that review approved; a note line to add (e.g. the model review could not
 *   run); the gate's `max_blocks`
 * @returns one JSON line `{"decision":"block","reason":…}` with a final newline
 */
export function buildStopBlock(
  input: {
    findings: readonly GateFinding[];
    reviewPath?: string;
    reviewApproved?: boolean;
    /**
     * In warn mode, when only gate-control findings block: the lines naming the review's findings
     * warn mode let through (lib/gates/turn/warn.ts `wouldBlockLines`).
     */
    wouldBlock?: readonly string[];
    note?: string;
    maxBlocks: number;
  },
): string {
  const acks = input.findings.some((f) => f.fingerprint) ? [STOP_ACK_HINT] : [];
  const model = input.findings.filter((f) => f.gateControl === undefined).length;
  const them = model === input.findings.length
    ? model === 1 ? "it" : "them"
    : `the review's ${model === 1 ? "finding" : "findings"}`;
  const fix =
    `Fix ${them}, then finish your turn: the next stop reviews the changes again, and an explanation does not unblock it.`;
  const reason = [
    `review-gate found ${
      plural(input.findings.length, "blocking finding")
    } in this turn's changes:`,
    ...listFindings(input.findings),
    ...reviewLines(input, model),
    ...(input.note ? [input.note] : []),
    ...(model > 0 ? [fix] : []),
    ...acks,
    ...gateControlLines(input.findings),
    `After ${
      plural(input.maxBlocks, "block")
    } in a row (max_blocks) the stop is let through, and the user is told it still has blocking findings.`,
  ].join("\n");
  return JSON.stringify({ decision: "block", reason: sanitizeForTerminal(reason) }) + "\n";
}

/**
 * Where the model's review is: `Full review: …` when it has blocking findings; when only the
 * gate's own check blocks, what that review said, so a review.md that approves is not left
 * unexplained.
 */
function reviewLines(
  input: {
    findings: readonly GateFinding[];
    reviewPath?: string;
    reviewApproved?: boolean;
    wouldBlock?: readonly string[];
  },
  model: number,
): string[] {
  if (model > 0) return input.reviewPath ? [`Full review: ${input.reviewPath}`] : [];
  const own =
    "this block is review-gate's own check of what controls the gate, not a finding of that review";
  if (input.wouldBlock?.length) {
    const where = input.reviewPath ? `Full review: ${input.reviewPath}; ` : "";
    return [...input.wouldBlock, `${where}${own}.`];
  }
  if (!input.reviewPath) {
    return [
      "This block is review-gate's own check of what controls the gate, not a finding of a model review.",
    ];
  }
  const said = input.reviewApproved ? "approved the code" : "found nothing blocking";
  return [`The model's review ${said} (${input.reviewPath}); ${own}.`];
}

/** What the agent does about gate-control findings: the user's change stays, its own is reverted. */
function gateControlLines(findings: readonly GateFinding[]): string[] {
  const control = findings.filter((f) => f.gateControl !== undefined);
  if (control.length === 0) return [];
  const words = [
    ...new Set(control.map((f) => {
      const named = f.gateControl!.includes(`"${f.file}"`) ? "" : ` for ${f.file}`;
      return `${f.gateControl}${named}`;
    })),
  ];
  const one = control.length === 1;
  return [
    `${
      one ? "The gate-control finding is" : "The gate-control findings are"
    } not a bug to fix: review-gate cannot tell the user's own change (their "review-gate gate disable", "ack" or "install") from an agent's.`,
    `If the user made ${one ? "this change" : "these changes"}, do not undo ${
      one ? "it" : "them"
    }: tell the user that review-gate needs their next prompt to ask for ${
      one ? "it" : "each"
    } by name (${
      words.join("; ")
    }, in a sentence with a verb such as "change", "disable" or "ack"). If you made ${
      one ? "it" : "one"
    } without being asked, revert it, then finish your turn.`,
  ];
}

/** Who may accept a finding: the user (`review-gate ack` refuses to run inside an agent session). */
export const STOP_ACK_HINT =
  "If it is not a problem, or the user should decide: tell the user. Only they may accept a finding (the ack command shown, run in their own terminal); do not edit .review-gate/acks.json yourself.";

/**
 * Whether a Stop answer blocks (its stdout is this module's `{"decision":"block",…}` line) rather
 * than letting the turn end.
 *
 * @param output a Stop gate's hook output
 * @returns true for a block (and for stdout that is not JSON: treated as the stricter answer);
 *   false for an allow, with or without a `systemMessage`
 */
export function isStopBlock(output: { stdout: string }): boolean {
  if (output.stdout.trim() === "") return false;
  try {
    return (JSON.parse(output.stdout) as { decision?: unknown } | null)?.decision === "block";
  } catch {
    return true;
  }
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
