/**
 * The OpenCode adapter (docs/providers.md "OpenCode"). Builds `opencode run --format json --pure
 * --agent review-gate --title … --dir <copy>` with the prompt on stdin; `opencode run` has no
 * schema flag, so the canonical schema text goes into the prompt and our decoder judges the
 * answer. The corrective resume passes every flag again plus `--session <id>` (the same session
 * continues: its earlier messages are sent again). Parses the JSONL events it prints (`step_start`,
 * `text`, `tool_use`, `step_finish`, `error`), each naming the session (`sessionID`).
 *
 * The child is confined (verified with the real 1.18.33 against a loopback mock, a hostile
 * repository and a scripted model that tries to write and to run a shell;
 * test/contract/opencode_adapter_test.ts):
 * - it runs in the private read-only copy of the reviewed tree;
 * - `--agent review-gate`, the agent the review config defines with every permission denied but
 *   `read`, `grep`, `glob` and `list` (lib/providers/opencode/child.ts): the model is offered
 *   `read`, `grep` and `glob` only, a call of any other tool fails as "unavailable tool", and a
 *   read outside the copy is refused by the `"*": "deny"` rule (its `external_directory` check);
 * - `OPENCODE_DISABLE_PROJECT_CONFIG=1`: no `opencode.json(c)`, `.opencode/` (agents, plugins,
 *   skills, commands), `AGENTS.md` or `CLAUDE.md` of the copy or a folder above it;
 *   `OPENCODE_DISABLE_CLAUDE_CODE=1`: no `.claude/` files; `--pure`: no external plugins;
 * - private config, data, cache and state folders: nothing of the user's agents, plugins, MCP
 *   servers or instructions;
 * - `--title`: no second model request to name the session.
 * OpenCode caps no turns for `run`: the session counts its `tool_use` events
 * ({@linkcode opencodeToolCallStarts}, lib/session/tool_bound.ts).
 *
 * @module
 */

import { isObject, type Json, num } from "../envelope_values.ts";
import { promptWithSchema, readJsonLines, textAnswer, withStderr } from "../jsonl_answer.ts";
import type {
  Envelope,
  EnvelopeMeta,
  Invocation,
  ProcessOutput,
  ProviderAdapter,
  ProviderRequest,
  Usage,
} from "../provider.ts";
import {
  describeOpencodeAuth,
  prepareOpencodeChild,
  readOpencodeUser,
  REVIEW_AGENT_NAME,
} from "./child.ts";
import { OPENCODE_META } from "./meta.ts";

/** The session title every review gets (a given title spares the title request). */
export const SESSION_TITLE = "review-gate review";

/**
 * The prompt OpenCode gets on stdin: the review prompt, the schema text and the reply rule.
 *
 * @param request prompt (the corrective one on a resume) and canonical schema
 */
export function buildOpencodePrompt(request: ProviderRequest): string {
  return promptWithSchema(request, OPENCODE_META.dialect);
}

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the corrective resume.
 *
 * @param request prompt, canonical schema, optional model (`provider/model`), session to resume,
 *   and the child setup (its environment, which holds the review config)
 * @returns args (no binary name), the prompt as stdin, the child's environment, no files
 */
export function buildOpencodeInvocation(request: ProviderRequest): Invocation {
  const cwd = request.workdir ?? request.root;
  const args = [
    "run",
    "--format",
    "json",
    "--pure",
    "--agent",
    REVIEW_AGENT_NAME,
    "--title",
    SESSION_TITLE,
    "--dir",
    cwd,
    ...(request.child?.args ?? []),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.resumeSessionId) args.push("--session", request.resumeSessionId);
  return {
    args,
    stdin: buildOpencodePrompt(request),
    env: request.child?.env ?? {},
    ...(request.child ? { clearEnv: true } : {}),
    cwd,
    files: {},
    readBack: [],
  };
}

/** The `part` object of an event (`{}` when it has none). */
function partOf(event: Json): Json {
  return isObject(event.part) ? event.part : {};
}

/**
 * This attempt's tokens and cost: `step_finish` parts' `tokens` (`input`, `output`,
 * `cache.read`, `cache.write`) and `cost` (USD), summed over its steps. A resume's events are its
 * own steps only (1.18.33 against the mock), so these are the attempt's own figures
 * (`capabilities.attemptUsage`).
 */
function stepsMeta(steps: Json[]): EnvelopeMeta {
  const meta: EnvelopeMeta = {};
  const usage: Usage = {};
  const add = (key: keyof Usage, value: unknown) => {
    const n = num(value);
    if (n !== undefined) usage[key] = (usage[key] ?? 0) + n;
  };
  let cost = 0;
  for (const step of steps) {
    const part = partOf(step);
    if (isObject(part.tokens)) {
      add("inputTokens", part.tokens.input);
      add("outputTokens", part.tokens.output);
      if (isObject(part.tokens.cache)) {
        add("cacheReadTokens", part.tokens.cache.read);
        add("cacheWriteTokens", part.tokens.cache.write);
      }
    }
    cost += num(part.cost) ?? 0;
  }
  if (Object.keys(usage).length > 0) meta.usage = usage;
  if (cost > 0) meta.costUsd = cost;
  if (steps.length > 0) meta.turns = steps.length;
  return meta;
}

function readMeta(events: Json[]): EnvelopeMeta {
  const meta = stepsMeta(events.filter((e) => e.type === "step_finish"));
  const session = events.find((e) => typeof e.sessionID === "string")?.sessionID;
  if (typeof session === "string") meta.sessionId = session;
  return meta;
}

/** The readable text of an `error` event: `name: message (HTTP status)`. */
function errorText(event: Json): string {
  const error = isObject(event.error) ? event.error : {};
  const data = isObject(error.data) ? error.data : {};
  const name = typeof error.name === "string" ? error.name : "error";
  const message = typeof data.message === "string"
    ? data.message
    : typeof error.message === "string"
    ? error.message
    : "no message";
  const status = num(data.statusCode);
  return `${name}: ${message}${status !== undefined ? ` (HTTP ${status})` : ""}`;
}

/** The text parts of the last step (after the last `step_start`), joined. */
function lastStepText(events: Json[]): string {
  const start = events.findLastIndex((e) => e.type === "step_start");
  return events.slice(start + 1)
    .filter((e) => e.type === "text")
    .map((e) => partOf(e).text)
    .filter((t): t is string => typeof t === "string")
    .join("");
}

/**
 * Classify what `opencode run --format json` produced (docs/providers.md "OpenCode events"). An
 * answer only when exit 0, no `error` event came, and the last `step_finish` ended the turn (its
 * `reason` is not `tool-calls`): the text parts of that last step are the answer text the decoder
 * judges (prose too: the decoder refuses it, and the call resumes). An `error` event (an API or
 * auth error, exit 1) is a provider error, as is a non-zero exit, no JSON, or a stream that ends
 * inside a turn. Never throws.
 *
 * @param output exit code, stdout (JSONL events), stderr
 * @returns the envelope with session id, usage, cost and turns when present
 */
export function parseOpencodeEnvelope(output: ProcessOutput): Envelope {
  const events = readJsonLines(output.stdout);
  const meta = readMeta(events);
  const failure = events.findLast((e) => e.type === "error");
  if (failure) {
    return {
      ...meta,
      outcome: "error",
      message: `OpenCode reported an error: ${errorText(failure)} (exit code ${output.code})`,
    };
  }
  if (output.code !== 0 || events.length === 0) {
    const what = events.length === 0 ? "printed no JSON" : "failed";
    return {
      ...meta,
      outcome: "error",
      message: withStderr(`OpenCode ${what} (exit code ${output.code})`, output.stderr),
    };
  }
  const last = events.findLast((e) => e.type === "step_finish");
  const lastStart = events.findLastIndex((e) => e.type === "step_start");
  if (!last || events.lastIndexOf(last) < lastStart || partOf(last).reason === "tool-calls") {
    return {
      ...meta,
      outcome: "error",
      message: "OpenCode ended without finishing its turn (exit code 0; its last step " +
        (last && partOf(last).reason === "tool-calls" ? "asks for a tool)" : "never finished)"),
    };
  }
  const text = lastStepText(events);
  return textAnswer(meta, text, "OpenCode finished without a text answer");
}

/**
 * True when one stdout line reports a tool call (`{"type":"tool_use",…}`), for the tool bound:
 * `opencode run` caps no turns itself.
 *
 * @param line one stdout line
 */
export function opencodeToolCallStarts(line: string): boolean {
  return line.startsWith('{"type":"tool_use"');
}

/** The OpenCode adapter. */
export const opencodeAdapter: ProviderAdapter = {
  ...OPENCODE_META,
  // a resume's events are its own steps only: the call adds the attempts' tokens and cost up
  capabilities: { nativeSchema: false, resume: true, attemptUsage: true },
  versionArgs: ["--version"],
  prepareChild: prepareOpencodeChild,
  describeAuth: async (env) => describeOpencodeAuth(env, await readOpencodeUser(env)),
  buildInvocation: buildOpencodeInvocation,
  toolBound: { what: "tool calls", starts: opencodeToolCallStarts },
  parseEnvelope: parseOpencodeEnvelope,
};
