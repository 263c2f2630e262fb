/**
 * When the Stop gate itself fails (DESIGN.md "Gates"): before the config is read an error allows
 * with a message; after it, the failure follows `on_error` like a review that could not run —
 * allow with a loud `systemMessage` by default, block (counted and capped by `max_blocks`) with
 * `on_error: block`. Output shapes per PROVIDERS.md "Claude Code hooks".
 *
 * @module
 */
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { ensureStateDir } from "../store/state.ts";
import { readSessionState, writeSessionState } from "../store/sessions.ts";
import { buildStopCouldNotRun, buildStopMessage } from "./decision.ts";
import type { GateContext } from "./gate_context.ts";
import type { HookOutput } from "./hook_io.ts";
import { decideStop, GATE_ERROR, type StoredVerdict } from "./stop_decision.ts";

/**
 * What failed, for a message: the error's message plus, for a git failure, the stderr lines the
 * message leaves out (lib/git/git.ts keeps only the last stderr line, e.g. "fatal: adding files
 * failed", while the line naming the offending file comes before it).
 *
 * @param error anything thrown; a `stderr` string property is read when present
 * @returns one line (at most the last 3 extra stderr lines are added)
 */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = (error as { stderr?: unknown } | null)?.stderr;
  if (typeof stderr !== "string") return message;
  const more = stderr.split("\n").map((l) => l.trim()).filter((l) => l && !message.includes(l));
  return more.length ? `${message} (git: ${more.slice(-3).join("; ")})` : message;
}

/**
 * Before the config is read: `on_error` is unknown, so allow with a message.
 *
 * @returns exit 0 with a `systemMessage` on stdout and the same text on stderr
 */
export function failSafe(error: unknown): HookOutput {
  const message = `review-gate: the Stop gate failed and allowed the stop: ${
    describeFailure(error)
  }`;
  return {
    stdout: buildStopMessage(message),
    stderr: sanitizeForTerminal(message) + "\n",
    exitCode: 0,
  };
}

/**
 * The gate failed after the config was read: follow `on_error` like a review that could not run.
 * With `on_error: block` the block is counted and capped by `max_blocks`; when the counter cannot
 * be saved either, blocking could loop, so the stop is allowed.
 *
 * @returns exit 0 always; the failure is also written to stderr
 */
export async function gateFailed(gate: GateContext, error: unknown): Promise<HookOutput> {
  const stop = gate.config.gates.claude_stop;
  const verdict: StoredVerdict = {
    status: GATE_ERROR,
    runDir: "",
    message: `the Stop gate failed: ${describeFailure(error)}`,
    blocking: [],
  };
  const stderr = sanitizeForTerminal(`review-gate: ${verdict.message}\n`);
  if (stop.on_error !== "block") {
    const stdout = buildStopCouldNotRun({ reason: verdict.message!, block: false });
    return { stdout, stderr, exitCode: 0 };
  }
  try {
    const state = await ensureStateDir(gate.repo.commonDir);
    const sessionId = gate.payload.session_id;
    const session = (await readSessionState(state, sessionId)) ?? { consecutiveBlocks: 0 };
    const out = await decideStop(verdict, {
      streak: session.consecutiveBlocks,
      maxBlocks: stop.max_blocks,
      onError: "block",
      save: (patch) => writeSessionState(state, { sessionId, value: { ...session, ...patch } }),
    });
    return { ...out, stderr };
  } catch (second) {
    const reason = `${verdict.message}; the block counter could not be saved (${
      describeFailure(second)
    }), so the stop is allowed`;
    return { stdout: buildStopCouldNotRun({ reason, block: false }), stderr, exitCode: 0 };
  }
}
