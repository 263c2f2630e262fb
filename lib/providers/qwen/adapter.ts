/**
 * The Qwen Code adapter (docs/providers.md "Qwen Code"). Builds `qwen --approval-mode plan -o json
 * --json-schema …` with the prompt on stdin; the corrective resume passes every flag again plus
 * `--resume <session_id>` (the same session continues: its earlier messages are sent again).
 * Parses the JSON array of Claude-style messages it prints, ending in one `result` object.
 *
 * The child is confined (verified with the real 0.15.10 against a loopback mock, a hostile
 * repository and a scripted model that tries to write and to run a shell; test/contract/qwen_*):
 * - it runs in the private read-only copy of the reviewed tree, which leaves out what Qwen Code
 *   reads whatever its flags say: `QWEN.md`, `AGENTS.md`, `.qwen/` (project settings: context
 *   file names, allow rules, MCP servers, hooks) and `.env` (lib/providers/qwen/meta.ts);
 * - `--approval-mode plan`, `--core-tools` naming the four read tools and `--exclude-tools` naming
 *   every other tool plan mode still offers ({@linkcode QWEN_EXCLUDED_TOOLS}: sub-agents, skills,
 *   web fetch…): the model is offered `read_file`, `grep_search`, `glob`, `list_directory` and the
 *   synthetic `structured_output` only; a call of anything else is declined;
 * - a private `QWEN_HOME` and `HOME` (lib/providers/qwen/child.ts): no user hooks, MCP servers,
 *   extensions, memory or skills; the auto-memory agent off;
 * - `--max-session-turns` caps model requests.
 * Not used: `--bare` (it offers `edit` and `run_shell_command` and no `structured_output`).
 *
 * @module
 */

import { dialectText } from "../../answer/dialect.ts";
import { excerptOf, isObject, type Json, num } from "../envelope_values.ts";
import type {
  Envelope,
  EnvelopeMeta,
  Invocation,
  ProcessOutput,
  ProviderAdapter,
  ProviderRequest,
  Usage,
} from "../provider.ts";
import { describeQwenAuth, prepareQwenChild, readQwenUser } from "./child.ts";
import { QWEN_META } from "./meta.ts";
import { escapeAtCommands, ESCAPED_AT_NOTE } from "../at_commands.ts";

/** The tools the reviewer may use: reading the copy. */
export const QWEN_TOOLS = ["read_file", "grep_search", "glob", "list_directory"];

/**
 * Tools plan mode offers or may offer besides the read tools (seen in 0.15.10's `system/init`
 * event and requests), excluded by name; the write and shell tools too, though plan mode in a
 * headless run denies them already.
 */
export const QWEN_EXCLUDED_TOOLS = [
  "web_fetch",
  "web_search",
  "agent",
  "skill",
  "tool_search",
  "task_stop",
  "send_message",
  "todo_write",
  "save_memory",
  "exit_plan_mode",
  "ask_user_question",
  "run_shell_command",
  "monitor",
  "edit",
  "write_file",
  "lsp",
];

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the corrective resume.
 *
 * @param request prompt, canonical schema, turn limit, optional model, session to resume and the
 *   child setup (its environment)
 * @returns args (no binary name), the prompt as stdin, the child's environment, no files
 */
export function buildQwenInvocation(request: ProviderRequest): Invocation {
  const args = [
    "--approval-mode",
    "plan",
    "--core-tools",
    QWEN_TOOLS.join(","),
    "--exclude-tools",
    QWEN_EXCLUDED_TOOLS.join(","),
    "--output-format",
    "json",
    "--json-schema",
    dialectText(request.schema, QWEN_META.dialect),
    "--max-session-turns",
    String(request.maxTurns),
    ...(request.child?.args ?? []),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.resumeSessionId) args.push("--resume", request.resumeSessionId);
  return {
    args,
    // a diff's `@path` is never an at-command that attaches a file (lib/providers/at_commands.ts)
    stdin: escapeAtCommands(request.prompt) + ESCAPED_AT_NOTE,
    env: request.child?.env ?? {},
    ...(request.child ? { clearEnv: true } : {}),
    cwd: request.workdir ?? request.root,
    files: {},
    readBack: [],
  };
}

/** The messages on stdout: one JSON array (or JSONL, one message a line). */
function readEvents(stdout: string): Json[] {
  const text = stdout.trim();
  if (text === "") return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed.filter(isObject);
    return isObject(parsed) ? [parsed] : [];
  } catch {
    return text.split("\n").flatMap((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return isObject(parsed) ? [parsed] : [];
      } catch {
        return [];
      }
    });
  }
}

/**
 * The session's token totals from the result's `usage` (`input_tokens`, `output_tokens`,
 * `cache_read_input_tokens`): on a `--resume` they count the whole session (0.15.10 against the
 * mock: 10 + 10 input tokens after one resume).
 */
function usageOf(u: unknown): Usage | undefined {
  if (!isObject(u)) return undefined;
  const usage: Usage = {};
  if (num(u.input_tokens) !== undefined) usage.inputTokens = num(u.input_tokens);
  if (num(u.output_tokens) !== undefined) usage.outputTokens = num(u.output_tokens);
  if (num(u.cache_read_input_tokens) !== undefined) {
    usage.cacheReadTokens = num(u.cache_read_input_tokens);
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function readMeta(events: Json[], result: Json): EnvelopeMeta {
  const meta: EnvelopeMeta = {};
  if (typeof result.session_id === "string") meta.sessionId = result.session_id;
  const turns = num(result.num_turns);
  if (turns !== undefined) meta.turns = turns;
  const usage = usageOf(result.usage);
  if (usage) meta.usage = usage;
  const init = events.find((e) => e.type === "system" && e.subtype === "init");
  if (init && typeof init.model === "string") meta.model = init.model;
  return meta;
}

/** The text blocks of the last assistant message, joined. */
function lastAssistantText(events: Json[]): string {
  const last = events.findLast((e) => e.type === "assistant" && isObject(e.message));
  const content = last ? (last.message as Json).content : undefined;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => (b as Json).text as string).join("\n");
}

/** The readable error of stderr's `{"error":{"type","message","code"}}` (a fatal error). */
function stderrError(stderr: string): string | undefined {
  for (const candidate of [stderr.trim(), stderr.slice(stderr.indexOf("{")).trim()]) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === "string") {
        const type = typeof parsed.error.type === "string" ? `${parsed.error.type}: ` : "";
        return `${type}${parsed.error.message}`;
      }
    } catch {
      // not JSON
    }
  }
  return undefined;
}

function withStderr(message: string, stderr: string): string {
  const tail = excerptOf(stderr);
  return tail === "" ? message : `${message}; stderr: ${tail}`;
}

/** What 0.15.10 says when the session ended without a `structured_output` call. */
const NO_STRUCTURED_CALL =
  /^Model produced plain text instead of calling the structured_output tool/;
/** How it shows a failed model request as the assistant's text. */
const API_ERROR = /^\[API Error: /;

/**
 * Classify what `qwen -o json --json-schema …` produced (docs/providers.md "Qwen Code result
 * envelope"). Answer only when exit 0, the last `result` has `subtype:"success"`, `is_error:false`
 * and the key `structured_result`. A session that ended in prose (`error_during_execution`, "Model
 * produced plain text instead of calling the structured_output tool") is `refused` with that prose
 * — unless the prose is Qwen Code's `[API Error: …]` line, a provider error like every other
 * failure: a fatal error on stderr (`FatalTurnLimitedError` at `--max-session-turns`, exit 53),
 * no result event, a non-zero exit. Never throws.
 *
 * @param output exit code, stdout, stderr
 * @returns the envelope with session id, usage, turns and model when present
 */
export function parseQwenEnvelope(output: ProcessOutput): Envelope {
  const events = readEvents(output.stdout);
  const result = events.findLast((e) => e.type === "result");
  if (!result) {
    const fatal = stderrError(output.stderr);
    if (fatal) {
      return {
        outcome: "error",
        message: `Qwen Code stopped: ${fatal} (exit code ${output.code})`,
      };
    }
    const what = events.length === 0 ? "no JSON" : "no result event";
    return {
      outcome: "error",
      message: withStderr(`Qwen Code printed ${what} (exit code ${output.code})`, output.stderr),
    };
  }
  const meta = readMeta(events, result);
  const error = isObject(result.error) && typeof result.error.message === "string"
    ? result.error.message
    : undefined;
  if (result.is_error === true && error !== undefined && NO_STRUCTURED_CALL.test(error)) {
    const prose = lastAssistantText(events);
    if (API_ERROR.test(prose)) {
      return {
        ...meta,
        outcome: "error",
        message: withStderr(`Qwen Code reported an API error: ${prose.trim()}`, output.stderr),
      };
    }
    return {
      ...meta,
      outcome: "refused",
      text: prose,
      problem: "the answer ended in prose without the structured_output tool",
    };
  }
  if (output.code !== 0 || result.is_error !== false || result.subtype !== "success") {
    const subtype = typeof result.subtype === "string" ? result.subtype : "unknown";
    const detail = error ?? (typeof result.result === "string" ? result.result : "");
    return {
      ...meta,
      outcome: "error",
      message: withStderr(
        `Qwen Code stopped with "${subtype}"${
          detail ? `: ${detail}` : ""
        } (exit code ${output.code})`,
        output.stderr,
      ),
    };
  }
  if ("structured_result" in result) {
    return { ...meta, outcome: "answer", value: result.structured_result };
  }
  return {
    ...meta,
    outcome: "refused",
    text: typeof result.result === "string" ? result.result : "",
    problem: "the answer ended without the structured_output tool",
  };
}

/** The Qwen Code adapter. */
export const qwenAdapter: ProviderAdapter = {
  ...QWEN_META,
  capabilities: { nativeSchema: true, resume: true },
  versionArgs: ["--version"],
  prepareChild: prepareQwenChild,
  describeAuth: async (env) => describeQwenAuth(env, await readQwenUser(env)),
  buildInvocation: buildQwenInvocation,
  parseEnvelope: parseQwenEnvelope,
};
