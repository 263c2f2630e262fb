/**
 * A turn gate in warn mode (`gates.<name>.mode: "warn"`, README "Warn first"), pure: the review's
 * blocking findings do not block the stop; the user is told what would have (a `systemMessage`),
 * and the turn's work counts as answered for, as after any allow on a review's verdict. The
 * gate-control findings (lib/gates/turn/guard.ts: a turn that changed what controls the gate
 * unasked) are review-gate's own check, not the review's, and still block: they protect the very
 * config that chose warn mode, and the user config a push trusts once the turn is answered for. The
 * mode itself is the turn's trusted config's (lib/gates/turn/guard.ts `trustedConfig`), so an agent
 * that writes warn mode during its turn is judged in the mode the turn started with.
 *
 * @module
 */
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import { REPO_CONFIG_FILE } from "../../config/config.ts";
import type { HookOutput } from "../hook_io.ts";
import { type GateFinding, listFindings, plural } from "../messages.ts";
import type { WarnModeFrom } from "../pre_push/messages.ts";

/** A verdict split for warn mode: what is still decided, and the findings that would block. */
export interface WarnSplit<V> {
  /** The verdict with only the gate-control findings left blocking. */
  verdict: V;
  /** The review's blocking findings, which warn mode lets through. */
  wouldBlock: GateFinding[];
}

/**
 * Split a verdict's blocking findings for warn mode.
 *
 * @param verdict the stop's verdict (lib/gates/turn/decision.ts `StoredVerdict`)
 * @returns `null` when no finding of the review blocks (the verdict is decided as it is)
 */
export function splitForWarn<V extends { blocking: GateFinding[] }>(
  verdict: V,
): WarnSplit<V> | null {
  const wouldBlock = verdict.blocking.filter((f) => f.gateControl === undefined);
  if (wouldBlock.length === 0) return null;
  const control = verdict.blocking.filter((f) => f.gateControl !== undefined);
  return { verdict: { ...verdict, blocking: control }, wouldBlock };
}

/** The config key of a turn gate's mode, e.g. `gates.claude_stop.mode`. */
function modeKey(gateName: string): string {
  return `gates.${gateName.replace("-", "_")}.mode`;
}

/**
 * The lines a block of gate-control findings carries in warn mode, naming the review's findings
 * that warn mode let through (lib/gates/turn/answer.ts `buildStopBlock`).
 *
 * @param wouldBlock the review's blocking findings
 * @param gateName the gate's name (`claude-stop`)
 */
export function wouldBlockLines(
  wouldBlock: readonly GateFinding[],
  gateName: string,
): string[] {
  const one = wouldBlock.length === 1;
  return [
    `The model's review found ${plural(wouldBlock.length, "finding")} that would block; ${
      one ? "it does" : "they do"
    } not, as ${modeKey(gateName)} is "warn":`,
    ...listFindings(wouldBlock),
  ];
}

/**
 * The last line of a stop warn mode let through: where warn mode is set, and the `gate block`
 * command that undoes it there (lib/cli/gate_action.ts: without `--user` it edits the repository's
 * `.review-gate.json`, which a Stop reads from the worktree; with `--user`, the user config).
 *
 * @param gateName the gate's name (`claude-stop`)
 * @param from which config set warn mode (lib/gates/turn/warn_from.ts); `repo` when not known
 */
export function turnWarnNote(gateName: string, from: WarnModeFrom = "repo"): string {
  const where = from === "user" ? "your user config" : REPO_CONFIG_FILE;
  const command = `review-gate gate block ${gateName}${from === "user" ? " --user" : ""}`;
  return `The turn goes ahead: ${
    modeKey(gateName)
  } is "warn" in ${where}, so review-gate only says what it would block. To have such findings block: ${command}`;
}

/**
 * What warn mode let through, on a stop it allows: the answer becomes (or leads) a `systemMessage`
 * saying "would block", with the findings, the review and how to make such findings block.
 *
 * @param output the stop's allow (empty stdout or a `systemMessage` line: lib/gates/turn/answer.ts)
 * @param at the findings that would block, the run folder of the review (`""`: none), the gate's
 *   name (`claude-stop`) and which config set warn mode (lib/gates/turn/warn_from.ts)
 * @returns the answer, exit 0
 */
export function withWouldBlock(
  output: HookOutput,
  at: {
    wouldBlock: readonly GateFinding[];
    runDir: string;
    gateName: string;
    modeFrom?: WarnModeFrom;
  },
): HookOutput {
  const said = output.stdout.trim() === ""
    ? undefined
    : (JSON.parse(output.stdout) as { systemMessage?: unknown }).systemMessage;
  const message = [
    `review-gate (warn mode): would block this turn: ${
      plural(at.wouldBlock.length, "blocking finding")
    }:`,
    ...listFindings(at.wouldBlock),
    ...(at.runDir ? [`Full review: ${at.runDir}/review.md`] : []),
    turnWarnNote(at.gateName, at.modeFrom),
    ...(typeof said === "string" ? [said] : []),
  ].join("\n");
  return {
    ...output,
    stdout: JSON.stringify({ systemMessage: sanitizeForTerminal(message) }) + "\n",
  };
}
