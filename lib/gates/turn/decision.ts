/**
 * What a stop decides from a verdict and the block streak (docs/design.md "Turn gate"): allow,
 * block, allow
 * with a note that the review could not run or saw only part of the change (`on_error`,
 * `on_partial`), or allow because `max_blocks` blocks in a row were reached. The block counter is saved through the caller's `save`, so loops are impossible: a stop
 * that follows our own block counts towards the cap. Output shapes per docs/providers.md "Claude
 * Code hooks" (built by lib/gates/turn/answer.ts).
 *
 * @module
 */
import type { SessionState, TurnStart } from "../../store/sessions.ts";
import { type GateFinding, plural } from "../messages.ts";
import {
  buildStopBlock,
  buildStopCouldNotRun,
  buildStopMessage,
  buildStopPartial,
  isStopBlock as isBlock,
  withNotes,
} from "./answer.ts";
import { ALLOW, type HookOutput } from "../hook_io.ts";
import type { WarnModeFrom } from "../pre_push/messages.ts";

/** Status of a stop the gate itself failed on (not a review status). */
export const GATE_ERROR = "gate-error";
const COULD_NOT_RUN = new Set([
  "invalid-answer",
  "provider-error",
  "timeout",
  "interrupted",
  "over-budget",
]);

/** What the session file keeps of the last review, to reuse it for the same change. */
export interface StoredVerdict {
  /** A review status (lib/store/run_record.ts) or {@linkcode GATE_ERROR}. */
  status: string;
  /** The run folder, `""` when there is none. */
  runDir: string;
  message?: string;
  /** The findings that blocked (empty when none did), with their fingerprints. */
  blocking: GateFinding[];
  /**
   * When part of the change did not reach the model: how much was reviewed and what was not, one
   * line. Absent when coverage was complete.
   */
  partial?: string;
  /**
   * When a review ran and the team's rules left files out: those files and their rules, one line
   * (lib/rules/report.ts `excludedList`). The answer names them, never a bare allow.
   */
  excluded?: string;
}

/** How a stop is decided besides its verdict. */
export interface StopDecisionOptions {
  /** Blocks in a row since the last allow or user prompt. */
  streak: number;
  /** The gate's `max_blocks` (e.g. `gates.claude_stop.max_blocks`): the streak that stops blocking. */
  maxBlocks: number;
  /** The gate's `on_error`: what a review that could not run does. */
  onError: "allow" | "block";
  /** The gate's name (`claude-stop`), for the command that turns it off. */
  gateName: string;
  /**
   * The gate's `on_partial`: what a review does that saw only part of the change (and
   * found nothing blocking), or none of it (status "not-reviewed"). Default "allow".
   */
  onPartial?: "allow" | "block";
  /**
   * The gate's `mode` (README "Warn first"): with `"warn"` the review's blocking findings are told
   * as "would block" and let through (lib/gates/turn/warn.ts); gate-control findings still block.
   */
  mode?: "block" | "warn";
  /** In warn mode, which config chose it (names the `gate block` command that undoes it). */
  modeFrom?: WarnModeFrom;
  /** Saves the new block counter (`consecutiveBlocks`) to the session file. */
  save: (patch: Partial<SessionState>) => Promise<void>;
  /**
   * What the stop saw, saved as the session's `answered` when the stop answers for the work
   * (README "Claude Code Stop"): it allowed on a review's verdict — approved, partial, nothing to
   * review — or stopped blocking at `max_blocks` with that verdict told. A block, or a stop
   * that allows because the review could not run or saw none of the change, does not: the next
   * stop reviews that work again.
   */
  answered?: TurnStart;
  /**
   * What the `max_blocks` give-up adds when this turn's config change is held back
   * (lib/gates/turn/guard_config.ts `heldAtCap`): it says the change was NOT accepted.
   */
  heldAtCap?: string;
}

/** How a verdict asks to be treated. */
type Kind = "could-not-run" | "not-reviewed" | "partial" | "findings";

function kindOf(verdict: StoredVerdict): Kind {
  if (verdict.status === GATE_ERROR || COULD_NOT_RUN.has(verdict.status)) return "could-not-run";
  if (verdict.status === "not-reviewed") return "not-reviewed";
  if (verdict.blocking.length === 0 && verdict.partial) return "partial";
  return "findings";
}

/**
 * Decide a stop from its verdict ({@linkcode decideOnMerits}) — in warn mode with the review's
 * blocking findings let through and said as "would block" (lib/gates/turn/warn.ts) — then name the
 * files the rules left out of a review that ran: a silent allow becomes
 * `review-gate: approved; excluded by rule: …`, any other answer gets an
 * `Excluded by rule (not reviewed): …` line.
 *
 * @returns the hook output, exit 0 always
 * @throws whatever `options.save` throws
 */
export async function decideStop(
  verdict: StoredVerdict,
  options: StopDecisionOptions,
): Promise<HookOutput> {
  const warn = options.mode === "warn" ? await import("./warn.ts") : null;
  const split = warn?.splitForWarn(verdict) ?? null;
  const wouldBlock = warn && split
    ? warn.wouldBlockLines(split.wouldBlock, options.gateName)
    : undefined;
  let out = await decideOnMerits(split?.verdict ?? verdict, options, wouldBlock);
  if (warn && split && !isBlock(out)) {
    out = warn.withWouldBlock(out, {
      wouldBlock: split.wouldBlock,
      runDir: verdict.runDir,
      gateName: options.gateName,
      modeFrom: options.modeFrom,
    });
  }
  if (!verdict.excluded) return out;
  if (out.stdout.trim() === "") {
    const what = verdict.status === "approved" ? "approved" : `${verdict.status}, nothing blocking`;
    const message = `review-gate: ${what}; excluded by rule: ${verdict.excluded}`;
    return { ...out, stdout: buildStopMessage(message) };
  }
  return withNotes(out, [`Excluded by rule (not reviewed): ${verdict.excluded}`]);
}

/**
 * Decide a stop from its verdict: block on blocking findings — or, with `onError: "block"`, on a
 * review that could not run; with `onPartial: "block"`, on a review that saw only part of the
 * change or none of it — until the streak reaches `maxBlocks`, then allow with a message. A
 * review that could not run, saw nothing, or saw only part and is allowed says so in a
 * `systemMessage`: never a silent pass. The counter is reset on an allow, kept at the cap (so
 * later stops of the turn allow too), else
 * incremented, through `options.save`.
 *
 * @returns the hook output, exit 0 always: stdout empty (allow), a `systemMessage` or a block
 * @throws whatever `options.save` throws
 */
async function decideOnMerits(
  verdict: StoredVerdict,
  options: StopDecisionOptions,
  wouldBlock?: readonly string[],
): Promise<HookOutput> {
  const { streak, maxBlocks } = options;
  const kind = kindOf(verdict);
  const couldNotRun = kind === "could-not-run" || kind === "not-reviewed";
  const reason = verdict.status === GATE_ERROR
    ? verdict.message ?? "no details"
    : kind === "not-reviewed"
    ? verdict.message ?? "nothing in it could be shown to the model"
    : `${verdict.status}: ${verdict.message ?? "no details"}`;
  const runPath = verdict.runDir || undefined;
  // A review.md exists only when the review ran; the gate's own findings can come without one.
  const reviewPath = runPath && !couldNotRun ? `${runPath}/review.md` : undefined;
  const onPartial = options.onPartial ?? "allow";
  // Findings block even when the review itself could not run (the gate's own findings are certain).
  const findings = verdict.blocking.length > 0;
  const wantsBlock = findings ||
    (kind === "could-not-run"
      ? options.onError === "block"
      : kind !== "findings" && onPartial === "block");
  // a review's verdict that the stop lets stand moves the next turn's baseline; nothing else does
  const answered = !couldNotRun && options.answered ? { answered: options.answered } : {};
  if (!wantsBlock) {
    await options.save({ consecutiveBlocks: 0, ...answered });
    if (kind === "partial") {
      const out = buildStopPartial({
        partial: verdict.partial!,
        reviewPath: reviewPath ?? "",
        block: false,
        gateName: options.gateName,
      });
      return { stdout: out, stderr: "", exitCode: 0 };
    }
    if (verdict.status === "nothing-to-review" && verdict.message) {
      // e.g. every changed file is excluded by rule: allowed, and said
      const note = `review-gate: nothing to review in this turn — ${verdict.message}`;
      return { stdout: buildStopMessage(note), stderr: "", exitCode: 0 };
    }
    if (!couldNotRun) return ALLOW;
    const out = buildStopCouldNotRun({ reason, runPath, block: false, gateName: options.gateName });
    return { stdout: out, stderr: "", exitCode: 0 };
  }
  if (streak >= maxBlocks) {
    // The cap holds until the user's next prompt or a stop allowed on its merits: a stop that
    // comes after the cap's allow (another hook kept the turn going) must not block again.
    await options.save({ consecutiveBlocks: streak, ...answered });
    const what = findings
      ? `still finds ${plural(verdict.blocking.length, "blocking finding")}`
      : couldNotRun
      ? `could not review this turn: it was NOT reviewed (${reason})`
      : `reviewed only part of this turn: it was only PARTIALLY reviewed (${verdict.partial})`;
    const see = reviewPath ? `; see ${reviewPath}` : runPath ? `; details: ${runPath}` : "";
    const held = options.heldAtCap ? `. ${options.heldAtCap}` : "";
    const message = `review-gate ${what} but stopped blocking after ${
      plural(maxBlocks, "block")
    } in a row (max_blocks)${see}${held}`;
    return { stdout: buildStopMessage(message), stderr: "", exitCode: 0 };
  }
  await options.save({ consecutiveBlocks: streak + 1 });
  return {
    stdout: blockText(verdict, { kind, reason, runPath, reviewPath, options, wouldBlock }),
    stderr: "",
    exitCode: 0,
  };
}

/** The block answer: the findings (with what the review could not do), or why nothing was seen. */
function blockText(
  verdict: StoredVerdict,
  at: {
    kind: Kind;
    reason: string;
    runPath?: string;
    reviewPath?: string;
    options: StopDecisionOptions;
    /** Warn mode: the lines naming the review's findings it let through (lib/gates/turn/warn.ts). */
    wouldBlock?: readonly string[];
  },
): string {
  const { kind, reason, runPath, reviewPath, options } = at;
  const couldNotRun = kind === "could-not-run" || kind === "not-reviewed";
  if (verdict.blocking.length > 0) {
    const note = couldNotRun
      ? `The review of the rest of this turn could not run (${reason}); it runs again at the next stop.`
      : verdict.partial
      ? `Only part of this turn reached the model: ${verdict.partial}.`
      : undefined;
    return buildStopBlock({
      findings: verdict.blocking,
      reviewPath,
      reviewApproved: verdict.status === "approved",
      wouldBlock: at.wouldBlock,
      note,
      maxBlocks: options.maxBlocks,
    });
  }
  if (couldNotRun) {
    const setting = kind === "not-reviewed" ? "on_partial" : "on_error";
    return buildStopCouldNotRun({
      reason,
      runPath,
      block: true,
      setting,
      gateName: options.gateName,
    });
  }
  return buildStopPartial({
    partial: verdict.partial!,
    reviewPath: reviewPath ?? "",
    block: true,
    gateName: options.gateName,
  });
}
