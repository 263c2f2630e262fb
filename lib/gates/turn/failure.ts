/**
 * When the Stop gate itself fails (docs/design.md "Turn gate"): before the config is read an error
 * allows
 * with a message; after it, the failure follows `on_error` like a review that could not run —
 * allow with a loud `systemMessage` by default, block (counted and capped by `max_blocks`) with
 * `on_error: block`. Output shapes per docs/providers.md "Claude Code hooks".
 *
 * @module
 */
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import { ensureStateDir } from "../../store/state.ts";
import { readSessionState, writeSessionState } from "../../store/sessions.ts";
import { buildStopCouldNotRun, buildStopMessage } from "./answer.ts";
import type { GateContext } from "./context.ts";
import { describeFailure, hookFailureText, type HookOutput } from "../hook_io.ts";
import { decideStop, GATE_ERROR, type StoredVerdict } from "./decision.ts";

/**
 * Before the config is read: `on_error` is unknown, so allow with a message saying the turn was
 * NOT reviewed.
 *
 * @returns exit 0 with a `systemMessage` on stdout and the same text on stderr
 */
export function failSafe(error: unknown): HookOutput {
  const message =
    `review-gate: this turn was NOT reviewed: the Stop gate failed and allowed the stop: ${
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
  const stop = gate.gate;
  const gateName = gate.door.gateName;
  const verdict: StoredVerdict = {
    status: GATE_ERROR,
    runDir: "",
    message: `the Stop gate failed: ${describeFailure(error)}`,
    blocking: [],
  };
  const stderr = sanitizeForTerminal(`review-gate: ${verdict.message}\n`);
  if (stop.on_error !== "block") {
    const stdout = buildStopCouldNotRun({ reason: verdict.message!, block: false, gateName });
    return { stdout, stderr, exitCode: 0 };
  }
  return await decideCounted(gate, verdict, {
    onError: "block",
    stderr,
    allowed: ", so the stop is allowed",
  });
}

/**
 * The stop's work did not end before its answer was due (lib/gates/turn/stop.ts): the turn is
 * too large to review in the hook's time. NOT reviewed, so `on_partial` decides — allow with a
 * loud `systemMessage`, or block (counted and capped by `max_blocks`); when the counter cannot be
 * saved, the stop is allowed. Not an answer for the work: the next stop reviews it again.
 *
 * @param gate the open gate
 * @param seconds the hook's time (the gate's `timeout_seconds`, or the agent's hook timeout)
 * @returns exit 0 always; the same text on stderr
 */
export async function tooLargeToReview(gate: GateContext, seconds: number): Promise<HookOutput> {
  const stop = gate.gate;
  const gateName = gate.door.gateName;
  const setting = `gates.${gateName.replace("-", "_")}.timeout_seconds`;
  const verdict: StoredVerdict = {
    status: "not-reviewed",
    runDir: "",
    message:
      `too large to review in ${seconds} s (the Stop hook's deadline passed before the review finished; raise ${setting} to give it longer)`,
    blocking: [],
  };
  const stderr = sanitizeForTerminal(
    `review-gate: this turn was NOT reviewed: ${verdict.message}\n`,
  );
  return await decideCounted(gate, verdict, {
    onError: stop.on_error,
    onPartial: stop.on_partial,
    stderr,
    allowed: "",
  });
}

/**
 * Decide a stop that reviewed nothing with the session's block counter (counted and capped by
 * `max_blocks`); when the counter cannot be read or saved, the stop is allowed with the reason.
 *
 * @param gate the open gate
 * @param verdict what the stop has instead of a review
 * @param how the `on_error`/`on_partial` to apply, the stderr text, and what the fallback adds
 * @returns exit 0 always
 */
async function decideCounted(
  gate: GateContext,
  verdict: StoredVerdict,
  how: {
    onError: "allow" | "block";
    onPartial?: "allow" | "block";
    stderr: string;
    allowed: string;
  },
): Promise<HookOutput> {
  const gateName = gate.door.gateName;
  try {
    const state = await ensureStateDir(gate.repo.commonDir);
    const sessionId = gate.payload.session_id;
    const session = (await readSessionState(state, sessionId)) ?? { consecutiveBlocks: 0 };
    const out = await decideStop(verdict, {
      streak: session.consecutiveBlocks,
      maxBlocks: gate.gate.max_blocks,
      onError: how.onError,
      ...(how.onPartial ? { onPartial: how.onPartial } : {}),
      gateName,
      save: (patch) => writeSessionState(state, { sessionId, value: { ...session, ...patch } }),
    });
    return { ...out, stderr: how.stderr };
  } catch (error) {
    const reason = `${verdict.message}; the block counter could not be saved (${
      describeFailure(error)
    })${how.allowed}`;
    return {
      stdout: buildStopCouldNotRun({ reason, block: false, gateName }),
      stderr: how.stderr,
      exitCode: 0,
    };
  }
}

/**
 * What a turn hook says when it threw before deciding (pure; lib/gates/run_hook.ts calls it). The
 * stop hook: exit 0 with a `systemMessage` saying the turn was NOT reviewed (and the same on
 * stderr). The prompt hook: exit 0, stderr only (stdout would be added to the agent's context).
 *
 * @param event which hook failed
 * @param error what was thrown
 */
export function turnHookFailed(event: "stop" | "prompt" | "work", error: unknown): HookOutput {
  const what = {
    stop: "this turn was NOT reviewed",
    prompt: "the turn's baseline was not recorded",
    work: "the background review did not run (the Stop reviews the turn itself)",
  }[event];
  const text = `review-gate: WARNING: ${what}: ${hookFailureText(error)}`;
  return {
    stdout: event === "stop" ? JSON.stringify({ systemMessage: text }) + "\n" : "",
    stderr: text + "\n",
    exitCode: 0,
  };
}
