/**
 * Reading an agent hook's stdin (pure), shared by the doors: the JSON object, the three fields every
 * turn hook needs (`hook_event_name`, `session_id`, `cwd`, non-empty strings) and optional string
 * fields (a `null` — Codex sends `last_assistant_message: null` — or another type counts as absent).
 * Anything malformed yields `{ok:false, reason}`: a hook never crashes and never blocks on bad
 * input.
 *
 * @module
 */
import type { TurnPayloadResult } from "./door.ts";

/** The fields every turn hook payload has, and the whole object. */
export interface BasePayload {
  hook_event_name: string;
  session_id: string;
  cwd: string;
  raw: Record<string, unknown>;
}

/**
 * Parse a hook's stdin into the base fields.
 *
 * @param stdinText the whole stdin (may be empty or garbage)
 * @returns the base payload, or why it is unusable; never throws
 */
export function parseBasePayload(stdinText: string): TurnPayloadResult<BasePayload> {
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
      raw,
    },
  };
}

/** A string field, or `undefined` when it is absent, `null` or not a string. */
export function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  return typeof raw[key] === "string" ? raw[key] as string : undefined;
}
