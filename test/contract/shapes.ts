/**
 * Envelope shape guards: the keys and types our adapters rely on, checked against what the pinned
 * real CLIs print. A failure here means the CLI changed its envelope — update docs/providers.md,
 * the adapter and test/contract/versions.ts together.
 * Sources: docs/providers.md "Claude Code result envelope", "Codex JSONL events".
 *
 * @module
 */
import { PINNED } from "./versions.ts";

type Json = Record<string, unknown>;

/** Keys (with `typeof`) every Claude result object must carry. */
const CLAUDE_RESULT_KEYS: Record<string, string> = {
  type: "string",
  subtype: "string",
  is_error: "boolean",
  session_id: "string",
  num_turns: "number",
  total_cost_usd: "number",
  usage: "object",
};

/**
 * Throw a clear error when a Claude `--output-format json` stdout does not have the shape the
 * adapter parses (one JSON object with `type:"result"` and the keys above).
 * @param stdout raw stdout
 * @returns the parsed result object
 */
export function assertClaudeResultShape(stdout: string): Json {
  const changed = (what: string) =>
    new Error(
      `Claude Code ${PINNED.claude.version} envelope shape changed: ${what}; stdout: ` +
        stdout.slice(0, 400),
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw changed("stdout is not one JSON document");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw changed("stdout is not one JSON object");
  }
  const result = parsed as Json;
  if (result.type !== "result") {
    throw changed(`field "type" is ${JSON.stringify(result.type)}, expected "result"`);
  }
  for (const [key, type] of Object.entries(CLAUDE_RESULT_KEYS)) {
    if (typeOf(result[key]) !== type) throw changed(fieldProblem(key, result[key], type));
  }
  const subtype = String(result.subtype);
  if (!CLAUDE_SUBTYPES.has(subtype)) {
    throw changed(`unknown "subtype" ${JSON.stringify(subtype)} (known: ${[...CLAUDE_SUBTYPES]})`);
  }
  if (subtype === "success" && typeof result.result !== "string") {
    throw changed(fieldProblem("result", result.result, "string") + ` with subtype "success"`);
  }
  if (subtype !== "success" && !Array.isArray(result.errors)) {
    throw changed(fieldProblem("errors", result.errors, "array") + ` with subtype "${subtype}"`);
  }
  const status = result.api_error_status;
  if (status !== undefined && status !== null && typeof status !== "number") {
    throw changed(fieldProblem("api_error_status", status, "number or null"));
  }
  if ("structured_output" in result && typeOf(result.structured_output) !== "object") {
    throw changed(fieldProblem("structured_output", result.structured_output, "object"));
  }
  return result;
}

/** Result subtypes the adapter knows (docs/providers.md "Claude Code result envelope"). */
const CLAUDE_SUBTYPES = new Set([
  "success",
  "error_max_turns",
  "error_max_budget_usd",
  "error_max_structured_output_retries",
  "error_during_execution",
]);

/** `typeof`, with "array" and "null" told apart from "object". */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** `field "usage" is missing, expected object` / `field "num_turns" is a string, expected number`. */
function fieldProblem(key: string, value: unknown, expected: string): string {
  const actual = value === undefined ? "missing" : `a ${typeOf(value)}`;
  return `field "${key}" is ${actual}, expected ${expected}`;
}

/** Event types the Codex adapter understands (docs/providers.md "Codex JSONL events"). */
const CODEX_EVENTS = new Set([
  "thread.started",
  "turn.started",
  "item.started",
  "item.updated",
  "item.completed",
  "turn.completed",
  "turn.failed",
  "error",
]);
const CODEX_ITEMS = new Set([
  "agent_message",
  "reasoning",
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "web_search",
  "todo_list",
  "error",
]);

/**
 * Throw a clear error when `codex exec --json` stdout has an unknown event or item type, or lacks
 * `thread.started {thread_id}`.
 * @param stdout raw JSONL stdout
 * @returns the parsed events
 */
export function assertCodexEventShape(stdout: string): Json[] {
  const changed = (what: string) =>
    new Error(
      `codex-cli ${PINNED.codex.version} event shape changed: ${what}; stdout: ` +
        stdout.slice(0, 400),
    );
  const events: Json[] = [];
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    let event: Json;
    try {
      event = JSON.parse(line);
    } catch {
      throw changed(`a stdout line is not JSON: ${JSON.stringify(line.slice(0, 100))}`);
    }
    if (!CODEX_EVENTS.has(String(event.type))) throw changed(`unknown event type "${event.type}"`);
    const item = event.item as Json | undefined;
    if (item && !CODEX_ITEMS.has(String(item.type))) {
      throw changed(`unknown item type "${item.type}"`);
    }
    if (event.type === "item.completed" && item?.type === "agent_message") {
      if (typeof item.text !== "string") {
        throw changed(`agent_message ${fieldProblem("item.text", item.text, "string")}`);
      }
    }
    if (event.type === "turn.failed") {
      const message = (event.error as Json | undefined)?.message;
      if (typeof message !== "string") {
        throw changed(`turn.failed ${fieldProblem("error.message", message, "string")}`);
      }
    }
    if (event.type === "error" && typeof event.message !== "string") {
      throw changed(`error event ${fieldProblem("message", event.message, "string")}`);
    }
    if (event.type === "thread.started" && typeof event.thread_id !== "string") {
      throw changed(`thread.started ${fieldProblem("thread_id", event.thread_id, "string")}`);
    }
    events.push(event);
  }
  const started = events.find((e) => e.type === "thread.started");
  if (typeof started?.thread_id !== "string") throw changed("no thread.started with a thread_id");
  return events;
}
