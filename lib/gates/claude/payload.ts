/**
 * Parse the JSON Claude Code writes to a command hook's stdin (pure). Fields per docs/providers.md
 * "Claude Code hooks": `Stop` carries `session_id`, `transcript_path`,
 * `cwd`, `hook_event_name`, `stop_hook_active`, and `last_assistant_message` (absent when the turn
 * ended in a tool call); `UserPromptSubmit` carries `prompt`. Anything malformed yields
 * `{ok:false, reason}`: a hook never crashes and never blocks on bad input.
 *
 * @module
 */
import type { TurnPayload, TurnPayloadResult } from "../turn/door.ts";
import { optionalString, parseBasePayload } from "../turn/payload.ts";

/** The fields review-gate uses; unknown fields are kept in `raw`. */
export interface ClaudeHookPayload extends TurnPayload {
  hook_event_name: string;
  session_id: string;
  /** Claude's cwd (where project settings were found). */
  cwd: string;
  transcript_path?: string;
  prompt_id?: string;
  permission_mode?: string;
  /** Stop: true when this stop follows a block of ours (or another Stop hook's). */
  stop_hook_active: boolean;
  /** Stop: Claude's final message; absent when the turn ended in a tool call. */
  last_assistant_message?: string;
  /** UserPromptSubmit: the raw prompt text. */
  prompt?: string;
  /** The whole parsed object. */
  raw: Record<string, unknown>;
}

/** Result of {@linkcode parseHookPayload}. */
export type PayloadResult = TurnPayloadResult<ClaudeHookPayload>;

/**
 * Parse a hook's stdin.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the payload, or why it is unusable (`hook_event_name`, `session_id` and `cwd` must be
 *   non-empty strings); never throws
 */
export function parseHookPayload(stdinText: string): PayloadResult {
  const base = parseBasePayload(stdinText);
  if (!base.ok) return base;
  const raw = base.payload.raw;
  return {
    ok: true,
    payload: {
      ...base.payload,
      transcript_path: optionalString(raw, "transcript_path"),
      prompt_id: optionalString(raw, "prompt_id"),
      permission_mode: optionalString(raw, "permission_mode"),
      stop_hook_active: raw.stop_hook_active === true,
      last_assistant_message: optionalString(raw, "last_assistant_message"),
      prompt: optionalString(raw, "prompt"),
    },
  };
}

/** True for the main agent's `Stop` (not `SubagentStop`, not `StopFailure`). */
export function isMainAgentStop(payload: TurnPayload): boolean {
  return payload.hook_event_name === "Stop";
}

/** True for `UserPromptSubmit`. */
export function isPromptSubmit(payload: TurnPayload): boolean {
  return payload.hook_event_name === "UserPromptSubmit";
}
