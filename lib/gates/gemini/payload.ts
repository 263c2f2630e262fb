/**
 * Parse the JSON Gemini CLI writes to a command hook's stdin (pure). Fields as Gemini CLI 0.61.0
 * sends them (captured from the pinned CLI, sample: test/contract/gemini_samples/): every payload
 * has `session_id`, `transcript_path`, `cwd`, `hook_event_name` and `timestamp` (ISO 8601);
 * `BeforeAgent` adds `prompt`; `AfterAgent` adds `prompt` (the turn's first request, also after a
 * block), `prompt_response` (the turn's text answers joined by newlines) and `stop_hook_active`;
 * `AfterTool` adds `tool_name`, `tool_input`, `tool_response` (and `mcp_context`,
 * `original_request_name` when they apply). No turn id, no subagent marker (a subagent runs its
 * own chat, which fires neither event).
 *
 * `stop_hook_active` is true only on an `AfterAgent` fired inside the continuation our block
 * started while no tool was called since; the stop after a block whose fix called a tool carries
 * `false` (lib/gates/gemini/door.ts): our block counter, not the flag, is the loop guard.
 *
 * @module
 */
import type { TurnPayload, TurnPayloadResult } from "../turn/door.ts";
import { optionalString, parseBasePayload } from "../turn/payload.ts";

/** The fields review-gate uses; unknown fields are kept in `raw`. */
export interface GeminiHookPayload extends TurnPayload {
  /** The session's chat log (untrusted: the agent can write it). */
  transcript_path?: string;
  raw: Record<string, unknown>;
}

/**
 * Parse a Gemini CLI hook's stdin.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the payload (`prompt_response` as `last_assistant_message`), or why it is unusable;
 *   never throws
 */
export function parseGeminiPayload(stdinText: string): TurnPayloadResult<GeminiHookPayload> {
  const base = parseBasePayload(stdinText);
  if (!base.ok) return base;
  const raw = base.payload.raw;
  return {
    ok: true,
    payload: {
      ...base.payload,
      transcript_path: optionalString(raw, "transcript_path"),
      prompt: optionalString(raw, "prompt"),
      last_assistant_message: optionalString(raw, "prompt_response"),
      stop_hook_active: raw.stop_hook_active === true,
    },
  };
}

/** True for `BeforeAgent`: the user's prompt, or our block's reason handed back (the door tells). */
export function isBeforeAgent(payload: TurnPayload): boolean {
  return payload.hook_event_name === "BeforeAgent";
}

/** True for `AfterAgent`: the main agent's final answer of a prompt (no tool call pending). */
export function isAfterAgent(payload: TurnPayload): boolean {
  return payload.hook_event_name === "AfterAgent";
}

/** True for `AfterTool`: a tool ran, files may have changed. */
export function isAfterTool(payload: TurnPayload): boolean {
  return payload.hook_event_name === "AfterTool";
}
