/**
 * Parse the JSON Claude Code writes to a command hook's stdin (pure). Fields per PROVIDERS.md
 * "Claude Code hooks, as the real CLI runs them": `Stop` carries `session_id`, `transcript_path`,
 * `cwd`, `hook_event_name`, `stop_hook_active`, and `last_assistant_message` (absent when the turn
 * ended in a tool call); `UserPromptSubmit` carries `prompt`. Anything malformed yields
 * `{ok:false, reason}`: a hook never crashes and never blocks on bad input.
 *
 * @module
 */
import type { TurnPayload, TurnPayloadResult } from "../turn/door.ts";

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

function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  return typeof raw[key] === "string" ? raw[key] as string : undefined;
}

/**
 * Parse a hook's stdin.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the payload, or why it is unusable (`hook_event_name`, `session_id` and `cwd` must be
 *   non-empty strings); never throws
 */
export function parseHookPayload(stdinText: string): PayloadResult {
  if (stdinText.trim() === "") return { ok: false, reason: "empty stdin" };
  let value: unknown;
  try {
    value = JSON.parse(stdinText);
  } catch (error) {
    return { ok: false, reason: `stdin is not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, reason: "stdin is not a JSON object" };
  }
  const raw = value as Record<string, unknown>;
  for (const key of ["hook_event_name", "session_id", "cwd"]) {
    if (typeof raw[key] !== "string" || raw[key] === "") {
      return { ok: false, reason: `"${key}" is missing or not a string` };
    }
  }
  return {
    ok: true,
    payload: {
      hook_event_name: raw.hook_event_name as string,
      session_id: raw.session_id as string,
      cwd: raw.cwd as string,
      transcript_path: optionalString(raw, "transcript_path"),
      prompt_id: optionalString(raw, "prompt_id"),
      permission_mode: optionalString(raw, "permission_mode"),
      stop_hook_active: raw.stop_hook_active === true,
      last_assistant_message: optionalString(raw, "last_assistant_message"),
      prompt: optionalString(raw, "prompt"),
      raw,
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
