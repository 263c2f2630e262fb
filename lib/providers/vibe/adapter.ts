/**
 * The Mistral Vibe adapter (docs/providers.md "Mistral Vibe"). Vibe has no schema flag, so the
 * canonical
 * schema text goes into the `-p` prompt with "Reply with the JSON object only"; tools are limited to
 * `read` and `grep` (no bash: its allowlist is not read-only), stdin is null (Vibe reads stdin even
 * with `-p`), the model comes from `VIBE_ACTIVE_MODEL`. The session id is printed nowhere:
 * {@linkcode locateVibeSession} finds it in `$VIBE_HOME/logs/session/*\/meta.json`.
 *
 * Note: the prompt travels in argv, and Linux caps one argument at 128 KiB (MAX_ARG_STRLEN).
 *
 * Isolation (not verified with the real CLI: PyPI is out of reach here): like the others, Vibe runs
 * in the private read-only copy of the reviewed tree, with an allowlisted environment (its own
 * `MISTRAL_API_KEY` and `VIBE_*` variables, lib/providers/child_env.ts) and the user's HOME (its
 * config and logs live in `~/.vibe` unless `VIBE_HOME` says otherwise).
 *
 * @module
 */

import { join } from "../../base/path.ts";
import { dialectText } from "../../answer/dialect.ts";
import { excerptOf } from "../envelope_values.ts";
import { allowlistEnv, withFakeDeno } from "../child_env.ts";
import type {
  ChildContext,
  ChildSetup,
  Envelope,
  Invocation,
  ProcessOutput,
  ProviderAdapter,
  ProviderRequest,
} from "../provider.ts";
import { VIBE_META } from "./meta.ts";

/**
 * The prompt Vibe gets: the review prompt, the schema text and the reply rule.
 *
 * @param request prompt and canonical schema
 * @returns the `-p` text
 */
export function buildVibePrompt(request: ProviderRequest): string {
  return [
    request.prompt.trimEnd(),
    "",
    "Your answer must be one JSON object matching this JSON Schema:",
    dialectText(request.schema, VIBE_META.dialect).trim(),
    "",
    "Reply with the JSON object only.",
  ].join("\n");
}

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the resume of that session.
 *
 * @param request prompt, schema, repo root, turn limit, optional model and session id
 * @returns args, `stdin: null`, `VIBE_ACTIVE_MODEL` in env when a model is chosen
 */
export function buildVibeInvocation(request: ProviderRequest): Invocation {
  const args = [
    "-p",
    buildVibePrompt(request),
    "--output",
    "streaming",
    "--workdir",
    request.workdir ?? request.root,
    "--max-turns",
    String(request.maxTurns),
    "--enabled-tools",
    "read",
    "--enabled-tools",
    "grep",
  ];
  if (request.resumeSessionId) args.push("--resume", request.resumeSessionId);
  const env: Record<string, string> = {
    ...request.child?.env,
    ...(request.model ? { VIBE_ACTIVE_MODEL: request.model } : {}),
  };
  return {
    args,
    stdin: null,
    env,
    ...(request.child ? { clearEnv: true } : {}),
    cwd: request.workdir ?? request.root,
    files: {},
    readBack: [],
  };
}

/**
 * The call's setup: the allowlisted environment (Vibe's own variables), the user's HOME, TMPDIR
 * the call's private dir.
 *
 * @param context parent environment and private dir
 */
export function prepareVibeChild(context: ChildContext): Promise<ChildSetup> {
  const env = withFakeDeno({
    ...allowlistEnv(context.env, { names: ["MISTRAL_API_KEY"], prefixes: ["VIBE_"] }),
    ...(context.env.HOME ? { HOME: context.env.HOME } : {}),
    TMPDIR: context.dir,
  });
  return Promise.resolve({ env, args: [] });
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) =>
      typeof part === "string" ? part : typeof part?.text === "string" ? part.text : ""
    ).join("");
  }
  return "";
}

/**
 * Classify what `vibe --output streaming` produced: one message object per line (vibe's
 * `StreamingJsonOutputFormatter` prints every message as the agent loop adds it). The answer is
 * the last `role:"assistant"` message with non-empty content — provided the turn ended on it: vibe's
 * loop stops at an assistant message that asks for no tool, so a stream whose answer is followed by
 * a tool call, a tool result or a user message (a resume that re-emitted the old history and then
 * stopped) ended mid-turn, and has no answer whatever the exit code. Empty assistant messages after
 * the answer are tolerated; non-JSON lines are ignored. Never throws.
 *
 * @param output exit code, stdout (JSONL messages), stderr
 * @returns answer (raw text), refused (exit 0 without an assistant message), or error (exit ≠ 0,
 *   or a stream that ended mid-turn: "Vibe ended without finishing its turn")
 */
export function parseVibeEnvelope(output: ProcessOutput): Envelope {
  if (output.code !== 0) {
    const tail = excerptOf(output.stderr);
    return {
      outcome: "error",
      message: `Vibe exited with code ${output.code}${tail === "" ? "" : `: ${tail}`}`,
    };
  }
  let answer: string | undefined;
  /** What came after the answer that shows the turn went on, if anything. */
  let after: string | undefined;
  for (const line of output.stdout.split("\n")) {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      continue; // not a message line
    }
    if (!isMessage(message)) continue;
    const text = contentText(message.content);
    const calls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    if (message.role === "assistant" && !calls) {
      if (text.trim() !== "") [answer, after] = [text, undefined];
    } else if (message.role === "assistant") {
      after = "a tool call";
    } else if (message.role === "tool" || message.role === "user") {
      after = message.role === "tool" ? "a tool result" : "a new user message";
    }
  }
  if (after !== undefined) {
    return {
      outcome: "error",
      message: `Vibe ended without finishing its turn (exit code 0; its last message is ${after})`,
    };
  }
  if (answer !== undefined) return { outcome: "answer", text: answer };
  return {
    outcome: "refused",
    text: "",
    problem: "Vibe finished without an assistant message",
  };
}

function isMessage(
  value: unknown,
): value is { role: unknown; content: unknown; tool_calls?: unknown } {
  return typeof value === "object" && value !== null && "role" in value;
}

/**
 * Find the session Vibe just wrote: the newest `$VIBE_HOME/logs/session/*\/meta.json` (VIBE_HOME
 * default `~/.vibe`) whose `environment.working_directory` realpath is `root` and whose mtime is ≥
 * the spawn time (docs/providers.md "Mistral Vibe"). The id is meta's `session_id`, else the
 * directory name.
 *
 * @param context repo root, spawn time (epoch ms), the child's environment
 * @returns the session id, or undefined when none matches or the directory is unreadable
 */
export async function locateVibeSession(
  context: { root: string; spawnedAtMs: number; env: Record<string, string | undefined> },
): Promise<string | undefined> {
  const home = context.env.VIBE_HOME ??
    (context.env.HOME ? join(context.env.HOME, ".vibe") : undefined);
  if (!home) return undefined;
  const dir = join(home, "logs", "session");
  let root: string;
  try {
    root = await Deno.realPath(context.root);
  } catch {
    root = context.root;
  }
  let best: { id: string; mtime: number } | undefined;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory) continue;
      const metaPath = join(dir, entry.name, "meta.json");
      try {
        const stat = await Deno.stat(metaPath);
        const mtime = stat.mtime?.getTime() ?? 0;
        // filesystem mtimes may be coarser than the clock: allow one second of slack
        if (mtime < context.spawnedAtMs - 1000) continue;
        const meta = JSON.parse(await Deno.readTextFile(metaPath));
        const wd = meta?.environment?.working_directory;
        if (typeof wd !== "string") continue;
        const real = await Deno.realPath(wd).catch(() => wd);
        if (real !== root) continue;
        if (!best || mtime >= best.mtime) {
          const id = typeof meta.session_id === "string" ? meta.session_id : entry.name;
          best = { id, mtime };
        }
      } catch {
        // unreadable or half-written meta: skip it
      }
    }
  } catch {
    return undefined;
  }
  return best?.id;
}

/** The Mistral Vibe adapter. */
export const vibeAdapter: ProviderAdapter = {
  ...VIBE_META,
  capabilities: { nativeSchema: false, resume: true },
  versionArgs: ["--version"],
  prepareChild: prepareVibeChild,
  describeAuth: (env) =>
    Promise.resolve([
      env.MISTRAL_API_KEY ? "MISTRAL_API_KEY from the environment" : "Vibe's own login (~/.vibe)",
    ]),
  buildInvocation: buildVibeInvocation,
  parseEnvelope: parseVibeEnvelope,
  locateSession: locateVibeSession,
};
