/**
 * The Gemini CLI adapter (docs/providers.md "Gemini CLI"). Builds `gemini --approval-mode plan
 * --skip-trust -o json -p ""` with the prompt on stdin; Gemini CLI has no schema flag, so the
 * canonical schema text goes into the prompt and the decoder judges the answer. The corrective
 * resume passes every flag again plus `--resume <session_id>` (the same session continues: its
 * earlier messages are sent again). Parses the one JSON object it prints (`session_id`,
 * `response`, `stats`), or the error object it prints on stderr when it fails.
 *
 * The child is confined (verified with the real 0.61.0 against a loopback mock, a hostile
 * repository and a scripted model that tries to write and to run a shell; test/contract/gemini_*):
 * - it runs in the private read-only copy of the reviewed tree, which leaves out what Gemini CLI
 *   reads in a trusted folder whatever its flags say: `GEMINI.md`, `AGENTS.md`, `.gemini/`
 *   (settings, commands, extensions, skills, its `.env`), `.env` and `.geminiignore`
 *   (lib/providers/gemini/meta.ts). A headless run needs the folder trusted (`--skip-trust`, for
 *   this run only: the copy is what is trusted);
 * - `--approval-mode plan`, and in the private home `tools.core` naming the four read tools and a
 *   policy denying every other tool ({@linkcode GEMINI_TOOLS}; lib/providers/gemini/child.ts): the
 *   model is offered `read_file`, `list_directory`, `grep_search` and `glob` only (plan mode alone
 *   still offers `write_file`, `replace`, `google_web_search`, `invoke_agent`…);
 * - a private `HOME` and `GEMINI_CLI_HOME`: no user hooks, MCP servers, extensions, memory,
 *   skills or policies;
 * - every `@` of the prompt written `\@`, the CLI's own escape: an unescaped `@path` in a diff
 *   would attach that file's content after our prompt, outside its data fence;
 * - `model.maxSessionTurns` caps model requests (exit 53).
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
import { describeGeminiAuth, GEMINI_TOOLS, prepareGeminiChild, readGeminiUser } from "./child.ts";
import { GEMINI_META } from "./meta.ts";
import { escapeAtCommands, ESCAPED_AT_NOTE } from "../at_commands.ts";

export { GEMINI_TOOLS };
export { escapeAtCommands };

/**
 * The text Gemini CLI gets on stdin: the review prompt, the schema text and the reply rule, every
 * `@` escaped ({@linkcode escapeAtCommands}).
 *
 * @param request prompt (the corrective one on a resume) and canonical schema
 */
export function buildGeminiPrompt(request: ProviderRequest): string {
  return escapeAtCommands(
    [
      request.prompt.trimEnd(),
      "",
      "Your answer must be one JSON object matching this JSON Schema:",
      dialectText(request.schema, GEMINI_META.dialect).trim(),
      "",
      "Reply with the JSON object only.",
    ].join("\n"),
  ) + ESCAPED_AT_NOTE;
}

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the corrective resume.
 *
 * @param request prompt, canonical schema, optional model, session to resume and the child setup
 *   (its environment; the turn cap is in its private settings)
 * @returns args (no binary name), the prompt as stdin, the child's environment, no files
 */
export function buildGeminiInvocation(request: ProviderRequest): Invocation {
  const args = [
    "--approval-mode",
    "plan",
    "--skip-trust",
    "--output-format",
    "json",
    // headless; the prompt itself comes on stdin (the CLI appends this empty one to it)
    "--prompt",
    "",
    ...(request.child?.args ?? []),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.resumeSessionId) args.push("--resume", request.resumeSessionId);
  return {
    args,
    stdin: buildGeminiPrompt(request),
    env: request.child?.env ?? {},
    ...(request.child ? { clearEnv: true } : {}),
    cwd: request.workdir ?? request.root,
    files: {},
    readBack: [],
  };
}

/**
 * The last JSON object of `text` that starts on a line of its own: stdout holds one; stderr holds
 * warnings, then the pretty-printed error object.
 */
function lastObject(text: string): Json | undefined {
  const starts = [...text.matchAll(/^\{/gm)].map((m) => m.index!).reverse();
  for (const start of starts) {
    const tail = text.slice(start);
    const ends = [...tail.matchAll(/^\}\s*$/gm)].map((m) => m.index! + 1);
    for (const end of [tail.trimEnd().length, ...ends.reverse()]) {
      try {
        const parsed: unknown = JSON.parse(tail.slice(0, end));
        if (isObject(parsed)) return parsed;
      } catch {
        // not this slice
      }
    }
  }
  return undefined;
}

/**
 * The tokens of `stats.models` (`tokens.input`, `candidates`, `cached`), summed over the models,
 * and the model that answered: the one of the `main` role.
 */
function statsMeta(stats: unknown): EnvelopeMeta {
  const meta: EnvelopeMeta = {};
  if (!isObject(stats) || !isObject(stats.models)) return meta;
  const usage: Usage = {};
  const add = (key: keyof Usage, value: unknown) => {
    const n = num(value);
    if (n !== undefined) usage[key] = (usage[key] ?? 0) + n;
  };
  let requests = 0;
  for (const [model, entry] of Object.entries(stats.models)) {
    if (!isObject(entry)) continue;
    if (isObject(entry.tokens)) {
      add("inputTokens", entry.tokens.input);
      add("outputTokens", entry.tokens.candidates);
      add("cacheReadTokens", entry.tokens.cached);
    }
    if (isObject(entry.roles) && isObject(entry.roles.main)) {
      meta.model ??= model;
      requests += num(entry.roles.main.totalRequests) ?? 0;
    }
  }
  if (Object.keys(usage).length > 0) meta.usage = usage;
  if (requests > 0) meta.turns = requests;
  return meta;
}

function withStderr(message: string, stderr: string): string {
  const tail = excerptOf(stderr);
  return tail === "" ? message : `${message}; stderr: ${tail}`;
}

/**
 * The readable text of an error object, when it has a message: `type: message`, or, for a failed
 * model request (whose message is the API's own `{"error": {code, message, status}}` text),
 * `API error <code> <status>: <message>`.
 */
function errorText(error: unknown): string | undefined {
  if (!isObject(error) || typeof error.message !== "string") return undefined;
  try {
    const api: unknown = JSON.parse(error.message);
    if (isObject(api) && isObject(api.error) && typeof api.error.message === "string") {
      const status = [api.error.code, api.error.status].filter((v) => v !== undefined).join(" ");
      return `API error${status ? ` ${status}` : ""}: ${api.error.message}`;
    }
  } catch {
    // a plain message
  }
  return `${typeof error.type === "string" ? `${error.type}: ` : ""}${error.message}`;
}

/**
 * Classify what `gemini -o json` produced (docs/providers.md "Gemini CLI result envelope"). An
 * answer only when exit 0 and stdout is one object with a string `response` and no `error`: its
 * text goes to the decoder (there is no schema flag). A failure is a provider error, never
 * resumed: the error object on stderr (`{session_id, error: {type, message, code}}`: an API error,
 * `FatalTurnLimitedError` at the turn cap (exit 53), auth (41), input (42), an untrusted folder
 * (55)), an `error` on stdout (an invalid or empty model stream), no JSON, a non-zero exit. Never
 * throws.
 *
 * @param output exit code, stdout, stderr
 * @returns the envelope with session id, usage, turns and model when present
 */
export function parseGeminiEnvelope(output: ProcessOutput): Envelope {
  const result = lastObject(output.stdout);
  if (!result) {
    const failure = lastObject(output.stderr);
    const fatal = errorText(failure?.error);
    if (fatal) {
      return {
        ...(typeof failure!.session_id === "string" ? { sessionId: failure!.session_id } : {}),
        outcome: "error",
        message: `Gemini CLI stopped: ${fatal} (exit code ${output.code})`,
      };
    }
    return {
      outcome: "error",
      message: withStderr(`Gemini CLI printed no JSON (exit code ${output.code})`, output.stderr),
    };
  }
  const meta = statsMeta(result.stats);
  if (typeof result.session_id === "string") meta.sessionId = result.session_id;
  const error = errorText(result.error);
  if (output.code !== 0 || error !== undefined || typeof result.response !== "string") {
    const what = error !== undefined
      ? `failed: ${error}`
      : typeof result.response === "string"
      ? "failed"
      : 'printed no "response"';
    return {
      ...meta,
      outcome: "error",
      message: withStderr(`Gemini CLI ${what} (exit code ${output.code})`, output.stderr),
    };
  }
  return { ...meta, outcome: "answer", text: result.response };
}

/** The Gemini CLI adapter. */
export const geminiAdapter: ProviderAdapter = {
  ...GEMINI_META,
  // a resume's stats count that process's requests only (0.61.0 against the mock)
  capabilities: { nativeSchema: false, resume: true, attemptUsage: true },
  versionArgs: ["--version"],
  prepareChild: prepareGeminiChild,
  describeAuth: async (env) => describeGeminiAuth(env, await readGeminiUser(env)),
  buildInvocation: buildGeminiInvocation,
  parseEnvelope: parseGeminiEnvelope,
};
