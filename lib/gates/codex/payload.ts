/**
 * Parse the JSON the Codex CLI writes to a lifecycle hook's stdin (pure). Fields per the schemas
 * embedded in codex-cli 0.171.0 (`codex-rs/hooks/schema/generated/*.input.schema.json`, checked by
 * running the binary; see lib/gates/codex/door.ts): every payload has `session_id`, `turn_id`,
 * `transcript_path` (nullable), `cwd`, `hook_event_name`, `model`, `permission_mode`;
 * `UserPromptSubmit` adds `prompt` (raw text) and, for a subagent's prompt, `agent_id` and
 * `agent_type`; `Stop` adds `stop_hook_active` and `last_assistant_message` (nullable).
 *
 * @module
 */
import type { TurnPayload, TurnPayloadResult } from "../turn/door.ts";
import { optionalString, parseBasePayload } from "../turn/payload.ts";

/** The fields review-gate uses; unknown fields are kept in `raw`. */
export interface CodexHookPayload extends TurnPayload {
  /** Shared by a turn's UserPromptSubmit and all its Stops; new for every turn. */
  turn_id?: string;
  /** UserPromptSubmit of a subagent (absent for the main agent's prompt). */
  agent_id?: string;
  /** Stop: true on every Stop that follows a block within the same turn (not a count). */
  stop_hook_active: boolean;
  raw: Record<string, unknown>;
}

/**
 * Parse a Codex hook's stdin.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the payload, or why it is unusable; never throws
 */
export function parseCodexPayload(stdinText: string): TurnPayloadResult<CodexHookPayload> {
  const base = parseBasePayload(stdinText);
  if (!base.ok) return base;
  const raw = base.payload.raw;
  return {
    ok: true,
    payload: {
      ...base.payload,
      turn_id: optionalString(raw, "turn_id"),
      agent_id: optionalString(raw, "agent_id"),
      stop_hook_active: raw.stop_hook_active === true,
      last_assistant_message: optionalString(raw, "last_assistant_message"),
      prompt: optionalString(raw, "prompt"),
    },
  };
}

/** True for the main agent's `UserPromptSubmit` (a subagent's carries `agent_id`). */
export function isMainPromptSubmit(payload: TurnPayload): boolean {
  return payload.hook_event_name === "UserPromptSubmit" &&
    (payload as CodexHookPayload).agent_id === undefined;
}

/** True for `Stop` (a subagent's stop is `SubagentStop`). */
export function isStop(payload: TurnPayload): boolean {
  return payload.hook_event_name === "Stop";
}
