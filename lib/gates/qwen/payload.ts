/**
 * Parse the JSON Qwen Code writes to a command hook's stdin (pure). Fields as Qwen Code 0.15.10
 * sends them (captured from the pinned CLI, sample: test/contract/qwen_samples/): every payload has
 * `session_id`, `transcript_path`, `cwd`, `hook_event_name` and `timestamp`, plus `agent_id` and
 * `agent_type` when a subagent runs the event; `UserPromptSubmit` adds `prompt`; `Stop` adds
 * `stop_hook_active` and `last_assistant_message`; `PostToolUse` adds `permission_mode`,
 * `tool_name`, `tool_input`, `tool_response`, `tool_use_id`. No turn id.
 *
 * Two traps (lib/gates/qwen/door.ts): `UserPromptSubmit` fires before **every** model request of a
 * turn — with `prompt: ""` after a tool call, and with the Stop hooks' joined reasons after a block
 * — so only a prompt the user typed starts a turn ({@linkcode isUserPrompt}); and `Stop` always
 * carries `stop_hook_active: true`, even on a turn's first stop, so the flag says nothing and is
 * not passed on.
 *
 * @module
 */
import type { TurnPayload, TurnPayloadResult } from "../turn/door.ts";
import { optionalString, parseBasePayload } from "../turn/payload.ts";
import { BLOCK_REASON_OPENINGS } from "../turn/continuation.ts";

/** The fields review-gate uses; unknown fields are kept in `raw`. */
export interface QwenHookPayload extends TurnPayload {
  transcript_path?: string;
  /** Present when a subagent runs the event (absent for the main agent). */
  agent_id?: string;
  raw: Record<string, unknown>;
}

/**
 * Parse a Qwen Code hook's stdin.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the payload (`stop_hook_active` always absent: Qwen Code's is constant), or why it is
 *   unusable; never throws
 */
export function parseQwenPayload(stdinText: string): TurnPayloadResult<QwenHookPayload> {
  const base = parseBasePayload(stdinText);
  if (!base.ok) return base;
  const raw = base.payload.raw;
  return {
    ok: true,
    payload: {
      ...base.payload,
      transcript_path: optionalString(raw, "transcript_path"),
      agent_id: optionalString(raw, "agent_id"),
      last_assistant_message: optionalString(raw, "last_assistant_message"),
      prompt: optionalString(raw, "prompt"),
    },
  };
}

/**
 * True when a `UserPromptSubmit` prompt is the continuation Qwen Code sends after a Stop hook
 * blocked: the blocking hooks' reasons joined by newlines, one of them ours (it opens like one of
 * lib/gates/turn/continuation.ts `BLOCK_REASON_OPENINGS`).
 *
 * @param prompt the payload's `prompt`
 */
export function isStopContinuation(prompt: string): boolean {
  return prompt.split("\n").some((line) =>
    BLOCK_REASON_OPENINGS.some((start) => line.startsWith(start))
  );
}

/**
 * True for the main agent's prompt the user submitted: `UserPromptSubmit` without `agent_id`, a
 * non-blank prompt (a tool call's follow-up request has `""`) that is not the continuation after
 * our block.
 */
export function isUserPrompt(payload: TurnPayload): boolean {
  const prompt = payload.prompt ?? "";
  return payload.hook_event_name === "UserPromptSubmit" &&
    (payload as QwenHookPayload).agent_id === undefined &&
    prompt.trim() !== "" && !isStopContinuation(prompt);
}

/** True for the main agent's `Stop` (a subagent stops with `SubagentStop`; `agent_id` is ruled out too). */
export function isMainStop(payload: TurnPayload): boolean {
  return payload.hook_event_name === "Stop" &&
    (payload as QwenHookPayload).agent_id === undefined;
}
