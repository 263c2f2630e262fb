/**
 * Parse the JSON the GitHub Copilot CLI writes to a lifecycle hook's stdin (pure). review-gate
 * installs its hooks under Copilot's Claude-compatible event names (`UserPromptSubmit`, `Stop`,
 * `PostToolUse`: lib/install/copilot/entries.ts), for which Copilot 1.0.102 sends snake_case
 * payloads (captured from the pinned binary; samples in fixtures/copilot_hooks/, facts in
 * lib/gates/copilot/door.ts): every payload has `hook_event_name`, `session_id`, `timestamp` (ISO
 * 8601) and `cwd`; `UserPromptSubmit` adds `prompt`; `Stop` adds `transcript_path`, `stop_reason`
 * and `stop_hook_active`; a subagent's prompt and stop carry `agent_id`, `agent_type` and
 * `parent_agent_id` (and its own `session_id`). There is no turn id.
 *
 * @module
 */
import type { TurnPayload, TurnPayloadResult } from "../turn/door.ts";
import { optionalString, parseBasePayload } from "../turn/payload.ts";

/** The fields review-gate uses; unknown fields are kept in `raw`. */
export interface CopilotHookPayload extends TurnPayload {
  /** A subagent's prompt or stop (absent for the main agent's). */
  agent_id?: string;
  /** Stop: true on every stop that follows a block of ours (Copilot's forced continuation). */
  stop_hook_active: boolean;
  /** Stop: the session's `events.jsonl` (untrusted: the agent can write it). */
  transcript_path?: string;
  raw: Record<string, unknown>;
}

/**
 * Parse a Copilot hook's stdin.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the payload, or why it is unusable; never throws
 */
export function parseCopilotPayload(stdinText: string): TurnPayloadResult<CopilotHookPayload> {
  const base = parseBasePayload(stdinText);
  if (!base.ok) return base;
  const raw = base.payload.raw;
  return {
    ok: true,
    payload: {
      ...base.payload,
      agent_id: optionalString(raw, "agent_id"),
      stop_hook_active: raw.stop_hook_active === true,
      transcript_path: optionalString(raw, "transcript_path"),
      prompt: optionalString(raw, "prompt"),
    },
  };
}

/** A subagent's event: Copilot marks it with `agent_id` (also on `Stop`, which it fires for them). */
function isSubagent(payload: TurnPayload): boolean {
  return (payload as CopilotHookPayload).agent_id !== undefined;
}

/** True for the main agent's `UserPromptSubmit` (a subagent's first prompt carries `agent_id`). */
export function isMainPromptSubmit(payload: TurnPayload): boolean {
  return payload.hook_event_name === "UserPromptSubmit" && !isSubagent(payload);
}

/**
 * True for the main agent's `Stop`. Copilot fires `Stop` (`agentStop`) at the end of a subagent's
 * turn too, with the subagent's `session_id` and its `agent_id`: that one is not the main turn's
 * end (reviewing it would block the subagent, and its work is the main turn's, reviewed there).
 */
export function isMainStop(payload: TurnPayload): boolean {
  return payload.hook_event_name === "Stop" && !isSubagent(payload);
}
