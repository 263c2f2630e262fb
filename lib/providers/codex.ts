/**
 * The Codex adapter (PROVIDERS.md "Codex"). Builds `codex exec … --json --output-schema <file> -o
 * <file> -` with the prompt on stdin and the Codex strict dialect of the schema written to a private
 * temp file; the corrective resume puts `-C` and `--sandbox` before `resume` (they are rejected
 * after it) and passes the sandbox again as `-c sandbox_mode`. Parses the JSONL event stream: the
 * answer is the last completed `agent_message` (fallback: the `-o` file), and any `turn.failed`,
 * non-zero exit, or top-level `error` not followed by `turn.completed` overrides it.
 *
 * @module
 */

import { join } from "node:path";
import { dialectText } from "../answer/dialect.ts";
import { tailOf } from "./claude.ts";
import type {
  Envelope,
  EnvelopeMeta,
  Invocation,
  ProcessOutput,
  ProviderAdapter,
  ProviderRequest,
} from "./provider.ts";

/**
 * Build the argv for a first call or, with `request.resumeSessionId` (a thread id), the resume.
 * The schema file is `<tmpDir>/answer-<attempt>.schema.json`, the last message
 * `<tmpDir>/last-message-<attempt>.txt`. A model goes before `resume` (an `exec` option).
 *
 * @param request prompt, canonical schema, repo root, tmpDir, attempt, optional model and thread id
 * @returns args, the prompt as stdin, the schema file to write, the last-message file to read back
 */
export function buildCodexInvocation(request: ProviderRequest): Invocation {
  const schemaPath = join(request.tmpDir, `answer-${request.attempt}.schema.json`);
  const lastPath = join(request.tmpDir, `last-message-${request.attempt}.txt`);
  const model = request.model ? ["-m", request.model] : [];
  const output = ["--json", "--output-schema", schemaPath, "-o", lastPath];
  const args = request.resumeSessionId
    ? [
      "exec",
      "-C",
      request.root,
      "--sandbox",
      "read-only",
      ...model,
      "resume",
      "-c",
      'sandbox_mode="read-only"',
      "-c",
      'approval_policy="never"',
      ...output,
      request.resumeSessionId,
      "-",
    ]
    : [
      "exec",
      "-C",
      request.root,
      "--sandbox",
      "read-only",
      "-c",
      'approval_policy="never"',
      ...output,
      ...model,
      "-",
    ];
  return {
    args,
    stdin: request.prompt,
    env: {},
    files: { [schemaPath]: dialectText(request.schema, "codex") },
    readBack: [lastPath],
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The readable part of an error message that may itself be `{"error":{"message":…}}` JSON. */
function errorText(message: unknown): string {
  if (typeof message !== "string") return JSON.stringify(message ?? "unknown error");
  try {
    const inner: unknown = JSON.parse(message);
    if (isObject(inner) && isObject(inner.error) && typeof inner.error.message === "string") {
      return inner.error.message;
    }
  } catch {
    // plain text
  }
  return message;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** What the JSONL event stream of one `codex exec` says, before the exit code is weighed. */
interface CodexEvents {
  meta: EnvelopeMeta;
  /** `turn.failed` messages: always fatal. */
  failures: string[];
  /** Top-level `error` messages (e.g. "Reconnecting... 1/5 …" while codex retries a stream). */
  notices: string[];
  /** True when a `turn.completed` came after the last top-level `error`. */
  completedAfterErrors: boolean;
  completed: boolean;
  answer?: string;
  events: number;
}

/** Read the JSONL events; non-JSON lines are skipped. */
function readCodexEvents(stdout: string): CodexEvents {
  const seen: CodexEvents = {
    meta: {},
    failures: [],
    notices: [],
    completedAfterErrors: false,
    completed: false,
    events: 0,
  };
  for (const line of stdout.split("\n")) {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(event)) continue;
    seen.events++;
    if (event.type === "thread.started" && typeof event.thread_id === "string") {
      seen.meta.sessionId = event.thread_id;
    } else if (event.type === "item.completed" && isObject(event.item)) {
      if (event.item.type === "agent_message" && typeof event.item.text === "string") {
        seen.answer = event.item.text;
      }
    } else if (event.type === "turn.completed") {
      seen.completed = true;
      seen.completedAfterErrors = true;
      if (isObject(event.usage)) seen.meta.usage = usageOf(event.usage);
    } else if (event.type === "turn.failed") {
      seen.failures.push(errorText(isObject(event.error) ? event.error.message : event.error));
    } else if (event.type === "error") {
      seen.notices.push(errorText(event.message));
      seen.completedAfterErrors = false;
    }
  }
  return seen;
}

function usageOf(u: Json): EnvelopeMeta["usage"] {
  return {
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    cacheReadTokens: num(u.cached_input_tokens),
    cacheWriteTokens: num(u.cache_write_input_tokens),
  };
}

/**
 * Classify what `codex exec --json` produced (PROVIDERS.md "Codex", JSONL events). Non-JSON lines
 * are ignored. Never throws.
 *
 * A top-level `error` event is fatal unless a `turn.completed` follows it: codex prints
 * `{"type":"error","message":"Reconnecting... 1/5 (stream disconnected …)"}` while it retries a
 * dropped stream and then finishes the turn normally (seen with the real 0.171.0 against a mock
 * that drops one stream). Such notices are progress: they ride on the envelope (`notices`, kept in
 * the attempt's record) and the answer is judged as usual. Any `turn.failed`, or a non-zero exit,
 * stays fatal whatever came before.
 *
 * @param output exit code, stdout (JSONL), stderr and the `-o` file's content
 * @returns answer (raw text for the decoder), refused (turn completed without a message) or error;
 *   with the thread id as session id, the usage of `turn.completed` and the notices
 */
export function parseCodexEnvelope(output: ProcessOutput): Envelope {
  const seen = readCodexEvents(output.stdout);
  const meta: EnvelopeMeta = { ...seen.meta };
  if (seen.notices.length > 0) meta.notices = [...new Set(seen.notices)];
  const stderrTail = tailOf(output.stderr);
  const suffix = stderrTail === "" ? "" : `; stderr: ${stderrTail}`;
  const fatal = seen.failures.length > 0 ||
    (seen.notices.length > 0 && !seen.completedAfterErrors);
  if (fatal) {
    const unique = [...new Set([...seen.notices, ...seen.failures])];
    return {
      ...meta,
      outcome: "error",
      message: `Codex turn failed (exit code ${output.code}): ${unique.join("; ")}${suffix}`,
    };
  }
  if (output.code !== 0) {
    return { ...meta, outcome: "error", message: `Codex exited with code ${output.code}${suffix}` };
  }
  let answer = seen.answer;
  if (answer === undefined) {
    const fromFile = Object.values(output.files).find((c) => c !== null && c.trim() !== "");
    if (fromFile) answer = fromFile;
  }
  if (answer !== undefined) return { ...meta, outcome: "answer", text: answer };
  if (seen.events === 0 || !seen.completed) {
    return {
      ...meta,
      outcome: "error",
      message: `Codex printed no completed turn (exit code ${output.code})${suffix}`,
    };
  }
  return {
    ...meta,
    outcome: "refused",
    text: "",
    problem: "the turn completed without an answer message",
  };
}

/** The Codex adapter. */
export const codexAdapter: ProviderAdapter = {
  name: "codex",
  defaultBin: "codex",
  binEnv: "REVIEW_GATE_CODEX_BIN",
  installHint: "npm i -g @openai/codex",
  capabilities: { nativeSchema: true, resume: true },
  versionArgs: ["--version"],
  buildInvocation: buildCodexInvocation,
  parseEnvelope: parseCodexEnvelope,
};
