/**
 * The Claude Code adapter (docs/providers.md "Claude Code"). Builds `claude -p --output-format json
 * --json-schema …` with the prompt on stdin; the corrective resume passes every flag again plus
 * `--resume <session_id>`. Parses the one result object (or the last `type:"result"` event of an
 * array or JSONL stream) into an {@linkcode Envelope}.
 *
 * The child is confined (verified with the real 2.1.332 against loopback mocks, a hostile
 * repository and scripted attacking models; test/contract/hostile_*):
 * - it runs in the private read-only copy of the reviewed tree (no `.git`, no ignored files);
 * - `--tools "Read,Grep,Glob"`: no Bash at all. The allowed git commands of earlier versions were
 *   not read-only — `git blame --contents <any file>` read an ssh key, `git log --output=<path>`
 *   wrote anywhere, and `git blame` ran a poisoned `.git/config` fsmonitor unsandboxed. The diff
 *   is in the prompt; Read/Grep/Glob read the copy. Without Bash, Skill and Task are gone too;
 * - `--restricted` confines the file tools to the working directory, resolving symlinks (a
 *   committed link to `~/.ssh/id_rsa` reads as its target path, refused); `/proc/self/environ` is
 *   refused as a process file;
 * - `--setting-sources ""` (no user, project or local settings: no hooks, no permission rules, no
 *   plugins) plus `--settings <private file>` carrying only the user's auth keys
 *   (lib/providers/claude/child.ts); `--strict-mcp-config`; `--disable-slash-commands`;
 * - environment: an allowlist (lib/providers/child_env.ts) — never a parent Claude Code session's
 *   `CLAUDECODE`/`CLAUDE_CODE_ENTRYPOINT` (an inherited entrypoint changes the child's identity to
 *   the parent host's, e.g. `claude-desktop`) nor its messaging socket and token;
 *   `CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS=1` (no `gitStatus` block with branch names and commit
 *   subjects framed as the user's context), `CLAUDE_CODE_PLUGIN_DIRS=""` (plugins named there load
 *   even under `--setting-sources ""`), `DISABLE_AUTOUPDATER=1`, TMPDIR the call's private dir, and
 *   the user's real HOME (OAuth credentials live in `~/.claude/.credentials.json` or the keychain).
 * Not used: `--bare` (never reads OAuth/keychain: subscription users would lose auth),
 * `--no-session-persistence` (no resume). After the call the session folder Claude Code keeps per
 * working directory (`~/.claude/projects/<cwd with every non-alphanumeric as "-">/`, the cwd
 * resolved as the child sees it: on macOS the temporary folders are behind symlinks) is removed.
 *
 * @module
 */

import { join } from "../../base/path.ts";
import { resolvePath } from "../../base/resolve_path.ts";
import { dialectText } from "../../answer/dialect.ts";
import { excerptOf, isObject, type Json, num } from "../envelope_values.ts";
import {
  checkClaudeLogin,
  claudeChildEnv,
  describeClaudeAuth,
  readCarriedSettings,
} from "./child.ts";
import type {
  ChildContext,
  ChildSetup,
  Envelope,
  EnvelopeMeta,
  Invocation,
  ProcessOutput,
  ProviderAdapter,
  ProviderRequest,
  Usage,
} from "../provider.ts";
import { CLAUDE_META } from "./meta.ts";

/** Tools Claude may load at all: reading the copy only. */
export const CLAUDE_TOOLS = "Read,Grep,Glob";

/**
 * Build the argv for a first call or, with `request.resumeSessionId`, the corrective resume.
 *
 * @param request prompt, canonical schema, turn limit, optional model, session to resume and the
 *   child setup (its `--settings` file and environment)
 * @returns args (no binary name), the prompt as stdin, the child's environment, no files
 */
export function buildClaudeInvocation(request: ProviderRequest): Invocation {
  const args = [
    "-p",
    "--output-format",
    "json",
    "--json-schema",
    dialectText(request.schema, CLAUDE_META.dialect),
    "--setting-sources",
    "",
    ...(request.child?.args ?? []),
    "--strict-mcp-config",
    "--restricted",
    "--tools",
    CLAUDE_TOOLS,
    "--disable-slash-commands",
    "--permission-mode",
    "dontAsk",
    "--max-turns",
    String(request.maxTurns),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.resumeSessionId) args.push("--resume", request.resumeSessionId);
  return {
    args,
    stdin: request.prompt,
    env: request.child?.env ?? {},
    ...(request.child ? { clearEnv: true } : {}),
    cwd: request.workdir ?? request.root,
    files: {},
    readBack: [],
  };
}

/**
 * The call's private setup: the carried auth settings file (0600, `{}` when nothing is carried),
 * the allowlisted environment, and the cleanup of Claude Code's per-cwd session folder.
 *
 * @param context parent environment, private dir, workdir
 */
export async function prepareClaudeChild(context: ChildContext): Promise<ChildSetup> {
  const carried = await readCarriedSettings(context.env);
  const file = join(context.dir, "claude-settings.json");
  await Deno.writeTextFile(file, JSON.stringify(carried.settings), { mode: 0o600 });
  const env = {
    ...claudeChildEnv(context.env, carried.settings),
    ...(context.env.HOME ? { HOME: context.env.HOME } : {}),
    TMPDIR: context.dir,
    CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS: "1",
    CLAUDE_CODE_PLUGIN_DIRS: "",
    DISABLE_AUTOUPDATER: "1",
  };
  const config = context.env.CLAUDE_CONFIG_DIR ??
    (context.env.HOME ? join(context.env.HOME, ".claude") : undefined);
  // the child names the folder after its cwd as the file system resolves it (macOS: `/var/…` is
  // `/private/var/…`); the spelled name goes too, for a CLI that uses it
  const resolved = await resolvePath(context.workdir);
  const sessions = config
    ? [...new Set([resolved, context.workdir])].map((dir) =>
      join(config, "projects", dir.replace(/[^a-zA-Z0-9]/g, "-"))
    )
    : [];
  return {
    env,
    args: ["--settings", file],
    cleanup: async () => {
      for (const dir of sessions) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
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

function withStderr(message: string, stderr: string): string {
  const tail = excerptOf(stderr);
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
 * Classify what `claude -p --output-format json` produced (docs/providers.md "Claude Code result
 * envelope").
 * Answer only when exit 0, `type:"result"`, `subtype:"success"`, `is_error:false`, the turn ended
 * as `terminal_reason:"completed"` (or says nothing: older builds never set it) and the key
 * `structured_output` is present; success without it is `refused` (prose); anything else an error
 * — a success whose turn was aborted mid-stream or mid-tool (`aborted_streaming`,
 * `aborted_tools`), stopped by a hook, deferred or sent to the background gave no answer. No
 * `result` event at all (a stream cut before it) is an error too. Never throws.
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
  const ended = result.terminal_reason;
  if (ended !== undefined && ended !== "completed") {
    return {
      ...meta,
      outcome: "error",
      message: withStderr(
        `Claude Code ended without completing its turn (terminal_reason "${String(ended)}")`,
        output.stderr,
      ),
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
  ...CLAUDE_META,
  capabilities: { nativeSchema: true, resume: true },
  versionArgs: ["--version"],
  prepareChild: prepareClaudeChild,
  describeAuth: async (env) =>
    await checkClaudeLogin(env, describeClaudeAuth(env, await readCarriedSettings(env))),
  buildInvocation: buildClaudeInvocation,
  parseEnvelope: parseClaudeEnvelope,
};
