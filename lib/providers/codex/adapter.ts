/**
 * The Codex adapter (docs/providers.md "Codex"). Builds `codex exec … --json --output-schema <file>
 * -o
 * <file> -` with the prompt on stdin and the Codex strict dialect of the schema written to a private
 * temp file; the corrective resume puts every `exec` option before `resume` (`-C` and `--sandbox`
 * are rejected after it) and repeats the sandbox, which a resumed thread does not keep. Parses the
 * JSONL event stream: the answer is the last completed `agent_message` of a turn that ended in
 * `turn.completed` (fallback: the `-o` file); a stream without a completed turn has no answer, and
 * any `turn.failed`, non-zero exit, or top-level `error` not followed by `turn.completed` overrides
 * it.
 *
 * **Isolation** (verified with the real codex-cli 0.171.0 against loopback mocks, a hostile
 * repository, hostile user dotfiles and scripted attacking models; test/contract/hostile_*). Every
 * call runs:
 * - in the private read-only copy of the reviewed tree (`-C <copy> --skip-git-repo-check`): codex
 *   sends `AGENTS.md`/`AGENTS.override.md` and every `.codex/skills`/`.agents/skills` SKILL.md of its
 *   working root to the model outside our data fence, and a `$skill-name` mention in the prompt —
 *   which carries the change — injects a whole SKILL.md; no flag or key turns repository skill
 *   discovery off. The copy leaves those files out (and has no `.git`, no ignored files);
 * - with a private CODEX_HOME and HOME (lib/providers/codex/child.ts) and `--ignore-rules` (a
 *   trusted repository's `.codex/rules` `allow` ran `touch` outside the sandbox); never `--trust`
 *   nor `--dangerously-bypass-hook-trust`; `--disable hooks` and `notify=[]` (the legacy `notify`
 *   program ran even with hooks disabled);
 * - under a permission profile instead of `--sandbox read-only`, **deny by default**
 *   (`permissions.review.filesystem`, `default_permissions="review"`; lib/providers/codex/readable.ts):
 *   only `:minimal` (the system paths a shell needs), the copy and codex's own program folders are
 *   readable; HOME, TMPDIR, the repository, other folders, the private CODEX_HOME and another
 *   provider's settings are not even mounted (`cat` → No such file or directory), wherever they
 *   lie; writes → Read-only file system; network off. With `--sandbox` present the profile is
 *   ignored; with neither, a private home defaults to read-only (fail-safe). `view_image`, which
 *   reads through the same profile, is disabled all the same;
 * - with `project_doc_max_bytes=0`, `skills.include_instructions=false` (a second layer: both work,
 *   but not against `$skill` mentions), `shell_environment_policy.inherit="core"`,
 *   `web_search="disabled"` and apps, plugins, multi-agent, image generation, browser and computer
 *   use and goals disabled: the tools offered shrink to `exec_command write_stdin
 *   request_user_input view_image`;
 * - with an allowlisted environment (lib/providers/child_env.ts) plus the variables the user's
 *   provider names. The shell sources `~/.bashrc` whatever the environment is (secrets exported
 *   there reached the model), hence the private empty HOME;
 * - with its own temp dir, `TMPDIR=<private dir>/tmp`, a **sibling** of the private CODEX_HOME
 *   (`<private dir>/codex-home`), never its parent. At start codex links its helpers
 *   (`codex-linux-sandbox`, `apply_patch`: symlinks to its own binary) into a folder under
 *   `$CODEX_HOME/tmp/` and puts it on the shell's PATH, but refuses to when CODEX_HOME lies under
 *   the temp dir — a path prefix test against `TMPDIR` only (Rust's `std::env::temp_dir()`; a
 *   CODEX_HOME under `/tmp` with `TMPDIR` elsewhere passes, seen with `codex --version`), so the
 *   private dir's own place in the system temp folder does not matter. Refused, it prints
 *   "Refusing to create helper binaries under temporary dir …" on stderr; its bundled bubblewrap
 *   still runs commands then, but with a system `bwrap` on PATH codex starts that one, which looks
 *   `codex-linux-sandbox` up on PATH and fails every command (`bwrap: execvp codex-linux-sandbox`).
 *   With the sibling layout the shell works beside a system bubblewrap and without one, under the
 *   same permission profile (test/contract/codex_adapter_test.ts, hostile_test.ts); the helpers
 *   live and go with the private dir. Inside the sandbox codex runs its own binary (the bundled
 *   bubblewrap) or the helper link to it (a system one): the profile names the binary's folder, so
 *   a codex installed under HOME (nvm, `~/.local`) runs commands too (seen with the npm install
 *   under HOME; the keyring fallback beside a system `bwrap` was not run again).
 *
 * Two statements of the provider facts this adapter was first built on do not hold for
 * 0.171.0: `-c project_doc_max_bytes=0` **does** remove AGENTS.md/AGENTS.override.md from the
 * request (it does not remove skills, so it is not enough alone), and
 * `-c shell_environment_policy.inherit="core"` **does** hide the parent's variables from the
 * model's shell (`env` shows only CODEX_*, HOME, LANG/LC_*, PATH, PWD, SHELL, SHLVL, TERM and the
 * pager/colour names).
 *
 * @module
 */

import { join } from "../../base/path.ts";
import { dialectText } from "../../answer/dialect.ts";
import { excerptOf, isObject, type Json, num } from "../envelope_values.ts";
import { allowlistEnv, withFakeDeno } from "../child_env.ts";
import {
  buildCodexHome,
  carriedConfigArgs,
  codexEnvRule,
  describeCodexAuth,
  readCodexUser,
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
} from "../provider.ts";
import { codexProgramRoots, programRootsOutside, readOnlyFilesystem } from "./readable.ts";
import { moveProviderSecrets } from "./secrets.ts";
import { programPath } from "../program.ts";
import { CODEX_META } from "./meta.ts";

/** Options of every confined call that do not depend on the user's setup. */
export const CODEX_CONFINEMENT: readonly string[] = [
  "--ignore-rules",
  ...[
    'default_permissions="review"',
    'approval_policy="never"',
    "project_doc_max_bytes=0",
    "skills.include_instructions=false",
    'shell_environment_policy.inherit="core"',
    'web_search="disabled"',
    "notify=[]",
  ].flatMap((kv) => ["-c", kv]),
  ...[
    "hooks",
    "apps",
    "plugins",
    "multi_agent",
    "image_generation",
    "view_image",
    "browser_use",
    "computer_use",
    "goals",
  ].flatMap((feature) => ["--disable", feature]),
];

/**
 * Build the argv for a first call or, with `request.resumeSessionId` (a thread id), the resume.
 * The schema file is `<tmpDir>/answer-<attempt>.schema.json`, the last message
 * `<tmpDir>/last-message-<attempt>.txt`. Every `exec` option (the model too) goes before `resume`.
 * Without a child setup (pure unit tests) the sandbox is `--sandbox read-only`.
 *
 * @param request prompt, canonical schema, workdir, tmpDir, attempt, child setup, optional model
 *   and thread id
 * @returns args, the prompt as stdin, the child's environment, the schema file to write, the
 *   last-message file to read back
 */
export function buildCodexInvocation(request: ProviderRequest): Invocation {
  const schemaPath = join(request.tmpDir, `answer-${request.attempt}.schema.json`);
  const lastPath = join(request.tmpDir, `last-message-${request.attempt}.txt`);
  const workdir = request.workdir ?? request.root;
  const confinement = request.child
    ? [...CODEX_CONFINEMENT, ...request.child.args]
    : ["--sandbox", "read-only", "-c", 'approval_policy="never"'];
  const options = [
    "exec",
    "-C",
    workdir,
    "--skip-git-repo-check",
    ...confinement,
    ...(request.model ? ["-m", request.model] : []),
  ];
  const output = ["--json", "--output-schema", schemaPath, "-o", lastPath];
  const args = request.resumeSessionId
    ? [...options, "resume", ...output, request.resumeSessionId, "-"]
    : [...options, ...output, "-"];
  return {
    args,
    stdin: request.prompt,
    env: request.child?.env ?? {},
    ...(request.child ? { clearEnv: true } : {}),
    cwd: workdir,
    files: { [schemaPath]: dialectText(request.schema, CODEX_META.dialect) },
    readBack: [lastPath],
  };
}

/**
 * The call's private setup: private HOME, TMPDIR (`<dir>/tmp`, beside CODEX_HOME) and CODEX_HOME
 * (or the keyring fallback), the permission profile (deny by default: `:minimal`, the copy and
 * codex's own program folders readable, lib/providers/codex/readable.ts), the allowlisted
 * environment plus the provider's `.env` variables and its literal tokens moved into variables
 * (lib/providers/codex/secrets.ts).
 *
 * @param context parent environment, private dir, repository root, workdir, the codex program
 */
export async function prepareCodexChild(context: ChildContext): Promise<ChildSetup> {
  const found = await readCodexUser(context.env);
  // literal provider tokens ride in the environment, never in config.toml or argv (secrets.ts)
  const moved = moveProviderSecrets(found.carried);
  const user = { ...found, carried: moved.carried };
  const home = join(context.dir, "home");
  await Deno.mkdir(home, { mode: 0o700 });
  // the child's temp dir is a sibling of the private CODEX_HOME, never its parent (module doc)
  const tmp = join(context.dir, "tmp");
  await Deno.mkdir(tmp, { mode: 0o700 });
  const codexHome = user.mode === "private" ? await buildCodexHome(context.dir, user) : user.home;
  const program = context.bin ? programPath(context.bin, context.env) : null;
  const roots = program ? await codexProgramRoots(program) : [];
  const kept = await Promise.all(
    [context.env.HOME, context.root, user.home, context.env.TMPDIR, context.dir].map((p) =>
      p ? Deno.realPath(p).catch(() => p) : undefined
    ),
  );
  const readable = [context.workdir, ...programRootsOutside(roots, kept)];
  const args = [
    ...(user.mode === "user" ? ["--ignore-user-config", ...carriedConfigArgs(user.carried)] : []),
    "-c",
    `permissions.review.filesystem=${readOnlyFilesystem(readable)}`,
  ];
  const env = withFakeDeno({
    ...user.dotenv,
    ...allowlistEnv(context.env, codexEnvRule(found.carried)),
    ...moved.env,
    HOME: home,
    CODEX_HOME: codexHome,
    TMPDIR: tmp,
  });
  return { env, args };
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

/** What the JSONL event stream of one `codex exec` says, before the exit code is weighed. */
interface CodexEvents {
  meta: EnvelopeMeta;
  /** `turn.failed` messages: always fatal. */
  failures: string[];
  /** Top-level `error` messages (e.g. "Reconnecting... 1/5 …" while codex retries a stream). */
  notices: string[];
  /** True when a `turn.completed` came after the last top-level `error`. */
  completedAfterErrors: boolean;
  /**
   * True when the stream ends in a completed turn: a `turn.completed` came and no `turn.started`
   * nor `agent_message` after it.
   */
  completed: boolean;
  /** The last `agent_message` of a completed turn (never one the stream left unfinished). */
  answer?: string;
  /** The last `agent_message` of the turn under way. */
  pending?: string;
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
    } else if (event.type === "turn.started") {
      seen.completed = false;
      seen.pending = undefined;
    } else if (event.type === "item.completed" && isObject(event.item)) {
      if (event.item.type === "agent_message" && typeof event.item.text === "string") {
        seen.pending = event.item.text;
        seen.completed = false;
      }
    } else if (event.type === "turn.completed") {
      seen.answer = seen.pending ?? seen.answer;
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
 * Classify what `codex exec --json` produced (docs/providers.md "Codex JSONL events"). Non-JSON
 * lines are ignored. Never throws.
 *
 * Only a completed turn answers: the answer is the last `agent_message` before a `turn.completed`
 * (fallback: the `-o` file), and a stream that does not end in `turn.completed` — an
 * `agent_message` with no `turn.completed` after it, a `turn.started` after the last one, no JSON
 * at all — is an error ("Codex ended without completing its turn") whatever the exit code and
 * however approving the message: codex writes `turn.completed` when the model's response is over,
 * so an answer without it was cut off (a killed stream, a crash that still exited 0, a replaced
 * binary) and no one knows what the model would have said.
 *
 * A top-level `error` event is fatal unless a `turn.completed` follows it: codex prints
 * `{"type":"error","message":"Reconnecting... 1/5 (stream disconnected …)"}` while it retries a
 * dropped stream and then finishes the turn normally (seen with the real 0.171.0 against a mock
 * that drops one stream). Such notices are progress: they ride on the envelope (`notices`, kept in
 * the attempt's record) and the answer is judged as usual. Any `turn.failed`, or a non-zero exit,
 * stays fatal whatever came before.
 *
 * @param output exit code, stdout (JSONL), stderr and the `-o` file's content
 * @returns answer (raw text for the decoder), refused (turn completed without a message) or error
 *   (a failed turn, a non-zero exit, a turn that never completed);
 *   with the thread id as session id, the usage of `turn.completed` and the notices
 */
export function parseCodexEnvelope(output: ProcessOutput): Envelope {
  const seen = readCodexEvents(output.stdout);
  const meta: EnvelopeMeta = { ...seen.meta };
  if (seen.notices.length > 0) meta.notices = [...new Set(seen.notices)];
  const stderrTail = excerptOf(output.stderr);
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
  if (!seen.completed) {
    const what = seen.events === 0
      ? "no JSON event"
      : seen.pending !== undefined
      ? "an agent_message but no turn.completed after it"
      : "no turn.completed";
    return {
      ...meta,
      outcome: "error",
      message:
        `Codex ended without completing its turn (exit code ${output.code}; ${what})${suffix}`,
    };
  }
  let answer = seen.answer;
  if (answer === undefined) {
    const fromFile = Object.values(output.files).find((c) => c !== null && c.trim() !== "");
    if (fromFile) answer = fromFile;
  }
  if (answer !== undefined) return { ...meta, outcome: "answer", text: answer };
  return {
    ...meta,
    outcome: "refused",
    text: "",
    problem: "the turn completed without an answer message",
  };
}

/** Item types of `codex exec --json` that are a tool the model called (docs/providers.md). */
const TOOL_ITEMS = new Set(["command_execution", "mcp_tool_call", "web_search", "file_change"]);

/**
 * Whether one JSONL line starts a tool call: `item.started` of a tool item. Codex reports the shell
 * this way; calls of its other tools (`write_stdin`, `request_user_input`, an unknown name) print
 * no event at all (seen with 0.171.0), so the bound counts what codex shows, and the timeout stays
 * the last line for the rest. Never throws.
 *
 * @param line one line of stdout
 */
export function codexToolCallStarts(line: string): boolean {
  if (!line.startsWith('{"type":"item.started"')) return false;
  try {
    const event: unknown = JSON.parse(line);
    return isObject(event) && isObject(event.item) && TOOL_ITEMS.has(String(event.item.type));
  } catch {
    return false;
  }
}

/** The Codex adapter. */
export const codexAdapter: ProviderAdapter = {
  ...CODEX_META,
  capabilities: { nativeSchema: true, resume: true },
  versionArgs: ["--version"],
  prepareChild: prepareCodexChild,
  describeAuth: async (env) => describeCodexAuth(env, await readCodexUser(env)),
  buildInvocation: buildCodexInvocation,
  // codex has no turn cap: the session counts its tool calls (lib/session/tool_bound.ts)
  toolBound: { what: "tool calls", starts: codexToolCallStarts },
  parseEnvelope: parseCodexEnvelope,
};
