/**
 * The Claude Code adapter (PROVIDERS.md "Claude Code"). Builds `claude -p --output-format json
 * --json-schema …` with the prompt on stdin, the read-only tool allow-list and
 * `--setting-sources ""` (no project hooks, no trusted-repo allow rules); the corrective resume passes
 * every flag again plus `--resume <session_id>`. Parses the one result object (or the last
 * `type:"result"` event of an array or JSONL stream) into an {@linkcode Envelope}.
 *
 * @module
 */

import { dialectText } from "../answer/dialect.ts";
import type {
  Envelope,
  EnvelopeMeta,
  Invocation,
  ProcessOutput,
  ProviderAdapter,
  ProviderRequest,
  Usage,
} from "./provider.ts";

/** Tools Claude may load at all (PROVIDERS.md "Claude Code", first call). */
export const CLAUDE_TOOLS = "Read,Grep,Glob,Bash";
/** Read-only git commands Claude may run without asking. */
export const CLAUDE_ALLOWED_TOOLS = [
  "git log",
  "git diff",
  "git show",
  "git status",
  "git ls-files",
  "git blame",
].map((c) => `Bash(${c}:*)`).join(",");
/** Tools denied outright. */
export const CLAUDE_DISALLOWED_TOOLS = "Write,Edit,NotebookEdit,WebFetch,WebSearch";

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the corrective resume.
 *
 * @param request prompt, canonical schema, turn limit, optional model and session to resume
 * @returns args (no binary name), the prompt as stdin, no files
 */
export function buildClaudeInvocation(request: ProviderRequest): Invocation {
  const args = [
    "-p",
    "--output-format",
    "json",
    "--json-schema",
    dialectText(request.schema, "claude"),
    "--setting-sources",
    "",
    "--strict-mcp-config",
    "--tools",
    CLAUDE_TOOLS,
    "--allowedTools",
    CLAUDE_ALLOWED_TOOLS,
    "--disallowedTools",
    CLAUDE_DISALLOWED_TOOLS,
    "--permission-mode",
    "dontAsk",
    "--max-turns",
    String(request.maxTurns),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.resumeSessionId) args.push("--resume", request.resumeSessionId);
  return { args, stdin: request.prompt, env: {}, files: {}, readBack: [] };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The events in stdout: one object, an array of events, or JSONL (stream-json). */
function readEvents(stdout: string): Json[] {
  const text = stdout.trim();
  if (text === "") return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed.filter(isObject);
    return isObject(parsed) ? [parsed] : [];
  } catch {
    const events: Json[] = [];
    for (const line of text.split("\n")) {
      try {
        const parsed: unknown = JSON.parse(line);
        if (isObject(parsed)) events.push(parsed);
      } catch {
        // not an event line
      }
    }
    return events;
  }
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function readMeta(result: Json): EnvelopeMeta {
  const meta: EnvelopeMeta = {};
  if (typeof result.session_id === "string") meta.sessionId = result.session_id;
  const cost = num(result.total_cost_usd);
  if (cost !== undefined) meta.costUsd = cost;
  const turns = num(result.num_turns);
  if (turns !== undefined) meta.turns = turns;
  const usage = sessionUsage(result.modelUsage) ?? invocationUsage(result.usage);
  if (usage) meta.usage = usage;
  if (typeof result.model === "string") meta.model = result.model;
  else if (isObject(result.modelUsage)) {
    const models = Object.keys(result.modelUsage);
    if (models.length > 0) meta.model = models[models.length - 1];
  }
  return meta;
}

/**
 * The session's running token totals from `modelUsage` (`{<model>: {inputTokens, outputTokens,
 * cacheReadInputTokens, cacheCreationInputTokens, …}}`), summed over models. Like
 * `total_cost_usd`, `modelUsage` counts the whole session, also on a `--resume` (verified with the
 * real CLI: the contract test "claude: prose without StructuredOutput is refused, resumed …").
 *
 * @returns the totals, or undefined when `modelUsage` is absent or empty
 */
function sessionUsage(modelUsage: unknown): Usage | undefined {
  if (!isObject(modelUsage)) return undefined;
  const models = Object.values(modelUsage).filter(isObject);
  if (models.length === 0) return undefined;
  const usage: Usage = {};
  const add = (key: keyof Usage, value: unknown) => {
    const n = num(value);
    if (n !== undefined) usage[key] = (usage[key] ?? 0) + n;
  };
  for (const m of models) {
    add("inputTokens", m.inputTokens);
    add("outputTokens", m.outputTokens);
    add("cacheReadTokens", m.cacheReadInputTokens);
    add("cacheWriteTokens", m.cacheCreationInputTokens);
  }
  return usage;
}

/**
 * The top-level `usage`: this invocation only (on a `--resume` it leaves out the earlier calls of
 * the session), so it is used only when `modelUsage` is missing.
 */
function invocationUsage(u: unknown): Usage | undefined {
  if (!isObject(u)) return undefined;
  const usage: Usage = {};
  if (num(u.input_tokens) !== undefined) usage.inputTokens = num(u.input_tokens);
  if (num(u.output_tokens) !== undefined) usage.outputTokens = num(u.output_tokens);
  if (num(u.cache_read_input_tokens) !== undefined) {
    usage.cacheReadTokens = num(u.cache_read_input_tokens);
  }
  if (num(u.cache_creation_input_tokens) !== undefined) {
    usage.cacheWriteTokens = num(u.cache_creation_input_tokens);
  }
  return usage;
}

/**
 * The last `maxChars` characters of a stream, trimmed, for error messages.
 *
 * @param text stdout or stderr
 * @param maxChars how much to keep (characters), default 600
 */
export function tailOf(text: string, maxChars = 600): string {
  const trimmed = text.trim();
  return trimmed.length <= maxChars ? trimmed : `…${trimmed.slice(-maxChars)}`;
}

function withStderr(message: string, stderr: string): string {
  const tail = tailOf(stderr);
  return tail === "" ? message : `${message}; stderr: ${tail}`;
}

function describeError(result: Json, code: number): string {
  const subtype = typeof result.subtype === "string" ? result.subtype : "unknown";
  const parts: string[] = [];
  if (result.api_error_status !== undefined && result.api_error_status !== null) {
    parts.push(`Claude Code reported an API error (status ${String(result.api_error_status)})`);
  } else if (subtype !== "success") {
    parts.push(`Claude Code stopped with "${subtype}"`);
  } else if (result.is_error === true) {
    parts.push(`Claude Code reported an error`);
  } else {
    parts.push(`Claude Code exited with code ${code}`);
  }
  const detail: string[] = [];
  if (typeof result.result === "string" && result.result.trim() !== "") {
    detail.push(result.result.trim());
  }
  if (Array.isArray(result.errors)) {
    detail.push(...result.errors.map((e) => typeof e === "string" ? e : JSON.stringify(e)));
  }
  if (detail.length > 0) parts.push(detail.join("; "));
  if (code !== 0 && !parts[0].includes("exited")) parts.push(`exit code ${code}`);
  return parts.join(": ");
}

/**
 * Classify what `claude -p --output-format json` produced (PROVIDERS.md "Claude Code", table).
 * Answer only when exit 0, `type:"result"`, `subtype:"success"`, `is_error:false` and the key
 * `structured_output` is present; success without it is `refused` (prose); anything else an error.
 * Never throws.
 *
 * @param output exit code, stdout, stderr
 * @returns the envelope with session id, usage, cost, turns and model when present
 */
export function parseClaudeEnvelope(output: ProcessOutput): Envelope {
  const events = readEvents(output.stdout);
  const result = events.findLast((e) => e.type === "result");
  if (!result) {
    const what = events.length === 0 ? "no JSON" : "no result event";
    return {
      outcome: "error",
      message: withStderr(`Claude Code printed ${what} (exit code ${output.code})`, output.stderr),
    };
  }
  const meta = readMeta(result);
  if (output.code !== 0 || result.is_error !== false || result.subtype !== "success") {
    return {
      ...meta,
      outcome: "error",
      message: withStderr(describeError(result, output.code), output.stderr),
    };
  }
  if ("structured_output" in result) {
    return { ...meta, outcome: "answer", value: result.structured_output };
  }
  return {
    ...meta,
    outcome: "refused",
    text: typeof result.result === "string" ? result.result : "",
    problem: "the answer ended in prose without the StructuredOutput tool",
  };
}

/** The Claude Code adapter. */
export const claudeAdapter: ProviderAdapter = {
  name: "claude",
  defaultBin: "claude",
  binEnv: "REVIEW_GATE_CLAUDE_BIN",
  installHint: "npm i -g @anthropic-ai/claude-code",
  capabilities: { nativeSchema: true, resume: true },
  versionArgs: ["--version"],
  buildInvocation: buildClaudeInvocation,
  parseEnvelope: parseClaudeEnvelope,
};
