/**
 * The GitHub Copilot CLI adapter (docs/providers.md "GitHub Copilot CLI"). Builds `copilot
 * --output-format json --available-tools=view,grep,glob …` with the prompt on stdin (piped stdin is
 * a non-interactive prompt, no `-p` needed); Copilot has no schema flag, so the canonical schema
 * text goes into the prompt and our decoder judges the answer. The corrective resume passes every
 * flag again plus `--resume=<sessionId>` (the same session continues: its earlier messages are sent
 * again). Parses the JSONL session events it prints, ending in one `result` line.
 *
 * The child is confined (verified with the real 1.0.102 against a loopback mock, a hostile
 * repository and a scripted model that tries to write and to run a shell;
 * test/contract/copilot_adapter_test.ts):
 * - it runs in the private read-only copy of the reviewed tree;
 * - `--available-tools=view,grep,glob`: the model is offered those three tools only, a call of any
 *   other ("create", "edit", "bash") fails as "does not exist"; `--deny-tool=write` and
 *   `--deny-tool=shell` deny them again should a tool of that kind appear;
 * - no path outside the copy: a `view` of one is "Permission denied" (no one answers the prompt),
 *   `--disallow-temp-dir` takes back the temporary directory it allows by default;
 * - `--no-custom-instructions`: no AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md
 *   or .github/instructions/ reach the model; `--disable-builtin-mcps`: no GitHub MCP server;
 *   `--no-ask-user`; no telemetry, remote control or auto-update;
 * - a private `COPILOT_HOME` and `HOME` (lib/providers/copilot/child.ts) trusting no folder: the
 *   copy's `.github/hooks/`, `.mcp.json`, skills and agents are not loaded. Never `--allow-all*`,
 *   `--yolo` or `COPILOT_ALLOW_ALL` (exactly "true" trusts the folder: its hooks run).
 * Copilot has no turn cap of its own: the session counts its `tool.execution_start` events
 * ({@linkcode copilotToolCallStarts}, lib/session/tool_bound.ts).
 *
 * @module
 */

import { join } from "../../base/path.ts";
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
import { describeCopilotAuth, prepareCopilotChild } from "./child.ts";
import { COPILOT_META } from "./meta.ts";

/** The tools the reviewer may use: reading the copy. */
export const COPILOT_TOOLS = ["view", "grep", "glob"];

/** Permission kinds denied whatever is available: writing files, running a shell. */
export const COPILOT_DENIED = ["write", "shell"];

/**
 * The prompt Copilot gets on stdin: the review prompt, the schema text and the reply rule.
 *
 * @param request prompt and canonical schema
 */
export function buildCopilotPrompt(request: ProviderRequest): string {
  return promptWithSchema(request, COPILOT_META.dialect);
}

/** Where an attempt's usage file goes (`--usage-output-file`: the session's token totals). */
function usageFile(request: ProviderRequest): string {
  return join(request.tmpDir, `copilot-usage-${request.attempt}.json`);
}

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the corrective resume.
 * Options with an optional value are given as `--name=value` (`--resume` alone opens a picker).
 *
 * @param request prompt, canonical schema, optional model, session to resume, tmpDir and the child
 *   setup (its environment)
 * @returns args (no binary name), the prompt as stdin, the child's environment, the usage file to
 *   read back
 */
export function buildCopilotInvocation(request: ProviderRequest): Invocation {
  const usage = usageFile(request);
  const args = [
    "--output-format",
    "json",
    `--available-tools=${COPILOT_TOOLS.join(",")}`,
    ...COPILOT_DENIED.map((kind) => `--deny-tool=${kind}`),
    "--no-custom-instructions",
    "--disable-builtin-mcps",
    "--no-ask-user",
    "--disallow-temp-dir",
    "--disable-client-telemetry",
    "--no-remote",
    "--no-auto-update",
    `--usage-output-file=${usage}`,
    ...(request.child?.args ?? []),
  ];
  if (request.model) args.push(`--model=${request.model}`);
  if (request.resumeSessionId) args.push(`--resume=${request.resumeSessionId}`);
  return {
    args,
    stdin: buildCopilotPrompt(request),
    env: request.child?.env ?? {},
    ...(request.child ? { clearEnv: true } : {}),
    cwd: request.workdir ?? request.root,
    files: {},
    readBack: [usage],
  };
}

/**
 * The session's token totals from the usage file (`modelMetrics.<model>.usage`, summed over the
 * models): on a `--resume` they count the whole session (1.0.102 against the mock: 10 + 10 input
 * tokens after one resume).
 */
function usageOf(text: string | null | undefined): Usage | undefined {
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !isObject(parsed.modelMetrics)) return undefined;
  const usage: Usage = {};
  const add = (key: keyof Usage, value: unknown) => {
    const n = num(value);
    if (n !== undefined) usage[key] = (usage[key] ?? 0) + n;
  };
  for (const metrics of Object.values(parsed.modelMetrics)) {
    if (!isObject(metrics) || !isObject(metrics.usage)) continue;
    add("inputTokens", metrics.usage.inputTokens);
    add("outputTokens", metrics.usage.outputTokens);
    add("cacheReadTokens", metrics.usage.cacheReadTokens);
    add("cacheWriteTokens", metrics.usage.cacheWriteTokens);
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** The name {@linkcode usageFile} gives. */
const USAGE_FILE = /copilot-usage-\d+\.json$/;

/** The `data` object of an event (`{}` when it has none). */
function dataOf(event: Json): Json {
  return isObject(event.data) ? event.data : {};
}

function readMeta(events: Json[], output: ProcessOutput): EnvelopeMeta {
  const meta: EnvelopeMeta = {};
  const result = events.findLast((e) => e.type === "result");
  if (result && typeof result.sessionId === "string") meta.sessionId = result.sessionId;
  const turns = events.filter((e) => e.type === "assistant.turn_start").length;
  if (turns > 0) meta.turns = turns;
  const file = Object.entries(output.files).find(([path]) => USAGE_FILE.test(path));
  const usage = usageOf(file?.[1]);
  if (usage) meta.usage = usage;
  const message = events.findLast((e) => e.type === "assistant.message");
  const model = message ? dataOf(message).model : undefined;
  if (typeof model === "string") meta.model = model;
  const retries = events.filter((e) =>
    e.type === "session.info" && dataOf(e).infoType === "model_retry"
  )
    .map((e) => String(dataOf(e).message ?? "model request retried"));
  if (retries.length > 0) meta.notices = retries;
  return meta;
}

/**
 * Classify what `copilot --output-format json` produced (docs/providers.md "GitHub Copilot CLI
 * events"). An answer only when exit 0, the last line is a `result` with `exitCode: 0`, no
 * `session.error` came, and the last `assistant.message` asks for no tool: its `content` is the
 * answer text the decoder judges (prose too: the decoder refuses it, and the call resumes). A
 * `session.error` (an API or auth error after Copilot's own retries, exit 1) is a provider error,
 * as is a missing `result`, a non-zero exit, or a last message that asked for a tool (the turn
 * never finished). Never throws.
 *
 * @param output exit code, stdout (JSONL events), stderr, the usage file
 * @returns the envelope with session id, usage, turns, model and retry notices when present
 */
export function parseCopilotEnvelope(output: ProcessOutput): Envelope {
  const events = readJsonLines(output.stdout);
  const meta = readMeta(events, output);
  const failure = events.findLast((e) => e.type === "session.error");
  if (failure) {
    const data = dataOf(failure);
    const type = typeof data.errorType === "string" ? `${data.errorType}: ` : "";
    const message = typeof data.message === "string" ? data.message : "no message";
    return {
      ...meta,
      outcome: "error",
      message: `Copilot reported an error: ${type}${message} (exit code ${output.code})`,
    };
  }
  const result = events.findLast((e) => e.type === "result");
  if (!result) {
    const what = events.length === 0 ? "no JSON" : "no result event";
    return {
      ...meta,
      outcome: "error",
      message: withStderr(`Copilot printed ${what} (exit code ${output.code})`, output.stderr),
    };
  }
  if (output.code !== 0 || result.exitCode !== 0) {
    return {
      ...meta,
      outcome: "error",
      message: withStderr(
        `Copilot stopped with exit code ${output.code} (result exitCode ${
          String(result.exitCode)
        })`,
        output.stderr,
      ),
    };
  }
  const last = events.findLast((e) => e.type === "assistant.message");
  const data = last ? dataOf(last) : {};
  if (Array.isArray(data.toolRequests) && data.toolRequests.length > 0) {
    return {
      ...meta,
      outcome: "error",
      message:
        "Copilot ended without finishing its turn (exit code 0; its last message asks for a tool)",
    };
  }
  const text = typeof data.content === "string" ? data.content : "";
  return textAnswer(meta, text, "Copilot finished without an assistant message");
}

/**
 * True when one stdout line starts a tool call (`{"type":"tool.execution_start",…}`), for the
 * tool bound: Copilot caps no turns itself.
 *
 * @param line one stdout line
 */
export function copilotToolCallStarts(line: string): boolean {
  return line.startsWith('{"type":"tool.execution_start"');
}

/** The GitHub Copilot CLI adapter. */
export const copilotAdapter: ProviderAdapter = {
  ...COPILOT_META,
  capabilities: { nativeSchema: false, resume: true },
  versionArgs: ["--version"],
  prepareChild: prepareCopilotChild,
  describeAuth: (env) => Promise.resolve().then(() => describeCopilotAuth(env)),
  buildInvocation: buildCopilotInvocation,
  toolBound: { what: "tool calls", starts: copilotToolCallStarts },
  parseEnvelope: parseCopilotEnvelope,
};
