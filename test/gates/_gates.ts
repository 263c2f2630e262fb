/**
 * Helpers for the gate end-to-end tests: a sandbox (test/e2e/_cli.ts) plus a bare repository as
 * `origin`, real `git` runs (push included) with the sandbox environment so the installed hook runs
 * our `main.ts` with the fake provider, scenario files whose findings point at files of the test
 * repository, and Claude Code hook payloads shaped as docs/providers.md "Claude Code hooks"
 * describes.
 *
 * @module
 */
import { join } from "node:path";
import {
  type CliResult,
  FAKE_BIN,
  type FakeInvocation,
  makeSandbox,
  readFakeLog,
  runCli,
  type Sandbox,
} from "../e2e/_cli.ts";

export { type CliResult, FAKE_BIN, type FakeInvocation, readFakeLog, runCli, type Sandbox };

/** The file every test repository starts with; findings point at it (5 lines). */
export const APP = "src/app.ts";
/** Initial content of {@linkcode APP}. */
export const APP_TEXT =
  "export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\nexport const e = 5;\n";

/** A sandbox whose repository has a bare `origin` that already holds `main`. */
export interface GateSandbox extends Sandbox {
  /** Absolute path of the bare remote. */
  remote: string;
}

/**
 * Make a sandbox with {@linkcode APP} committed; with `remote`, a bare `origin` holding `main`.
 *
 * @param options `remote` (default true) creates the bare remote and pushes `main` (no hook yet)
 */
export async function makeGateSandbox(options: { remote?: boolean } = {}): Promise<GateSandbox> {
  const sandbox = await makeSandbox({ [APP]: APP_TEXT });
  const remote = join(sandbox.dir, "remote.git");
  if (options.remote ?? true) {
    await gitOk(sandbox, ["init", "-q", "--bare", "-b", "main", remote], sandbox.dir);
    await gitOk(sandbox, ["remote", "add", "origin", remote]);
    await gitOk(sandbox, ["push", "-q", "origin", "main"]);
  }
  return { ...sandbox, remote };
}

/** Options of {@linkcode runGit}. */
export interface GitRunOptions {
  /** Working directory (default: the sandbox repository). */
  cwd?: string;
  /** Extra environment (e.g. `REVIEW_GATE_FAKE_SCENARIO`, `REVIEW_GATE=0`). */
  env?: Record<string, string>;
}

/**
 * Run real git with the sandbox environment (isolated config, the fake provider wired in).
 *
 * @returns exit code, stdout and stderr
 */
export async function runGit(
  sandbox: Sandbox,
  args: string[],
  options: GitRunOptions = {},
): Promise<CliResult> {
  const out = await new Deno.Command("git", {
    args,
    cwd: options.cwd ?? sandbox.repo.root,
    env: { ...sandbox.env, ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Like {@linkcode runGit} but throws on failure and returns stdout trimmed. */
export async function gitOk(sandbox: Sandbox, args: string[], cwd?: string): Promise<string> {
  const r = await runGit(sandbox, args, { cwd });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Add a submodule at `path` (its own repository with one committed file `y.ts`,
 * `export const y = 1;`) to the sandbox repository and commit it.
 */
export async function addSubmodule(sandbox: Sandbox, path = "lib"): Promise<void> {
  const upstream = join(sandbox.dir, "lib-upstream");
  await gitOk(sandbox, ["init", "-q", "-b", "main", upstream], sandbox.dir);
  await Deno.writeTextFile(join(upstream, "y.ts"), "export const y = 1;\n");
  await gitOk(sandbox, ["add", "y.ts"], upstream);
  await gitOk(sandbox, ["commit", "-q", "-m", "lib"], upstream);
  await gitOk(sandbox, [
    "-c",
    "protocol.file.allow=always",
    "submodule",
    "add",
    "-q",
    upstream,
    path,
  ]);
  await gitOk(sandbox, ["commit", "-q", "-m", "add submodule"]);
}

/**
 * Put `export const t = "<token>";` on the first line of {@linkcode APP} in the worktree at `root`:
 * line 1 is then a changed line, which {@linkcode BLOCKING_ANSWER} (scope "introduced") points at.
 */
export async function addTokenLine(root: string, token: string): Promise<void> {
  const path = join(root, APP);
  await Deno.writeTextFile(path, `export const t = "${token}";\n${await Deno.readTextFile(path)}`);
}

/**
 * Add a line carrying `token` at the top of {@linkcode APP} and commit it.
 *
 * @returns the new commit id
 */
export async function commitToken(sandbox: Sandbox, token: string, cwd?: string): Promise<string> {
  const root = cwd ?? sandbox.repo.root;
  await addTokenLine(root, token);
  await gitOk(sandbox, ["commit", "-q", "-am", `add ${token}`], root);
  return await gitOk(sandbox, ["rev-parse", "HEAD"], root);
}

/** The id `ref` has in the bare remote, or `null` when the ref does not exist there. */
export async function remoteRef(sandbox: GateSandbox, ref: string): Promise<string | null> {
  const r = await runGit(sandbox, ["rev-parse", "--verify", "-q", ref], { cwd: sandbox.remote });
  return r.code === 0 ? r.stdout.trim() : null;
}

/**
 * A blocking review answer: one high bug introduced at {@linkcode APP} line 1 (the line
 * {@linkcode addTokenLine} writes), confidence 0.9.
 */
export const BLOCKING_ANSWER = {
  verdict: "needs-attention",
  summary: "The change exports a constant that breaks callers.",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "Exported constant breaks callers",
    body: "Callers read the old value.",
    file: APP,
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "Keep the old value.",
  }],
  next_steps: ["Keep the old value."],
};

/** Write the one-step blocking scenario into the sandbox; returns its path (for the fake's env). */
export async function blockingScenario(sandbox: Sandbox): Promise<string> {
  const path = join(sandbox.dir, "blocking.json");
  await Deno.writeTextFile(
    path,
    JSON.stringify({ steps: [{ kind: "valid", answer: BLOCKING_ANSWER }] }),
  );
  return path;
}

/** Environment selecting a fake scenario (`valid`, `error`, `hang` or a scenario file path). */
export function scenario(value: string): Record<string, string> {
  return { REVIEW_GATE_FAKE_SCENARIO: value };
}

/** Number of provider invocations the fake logged so far. */
export async function providerCalls(sandbox: Sandbox): Promise<number> {
  return (await readFakeLog(sandbox)).length;
}

/** Write `.review-gate.json` at the repository root (`null` removes it). */
export async function writeRepoConfig(sandbox: Sandbox, config: unknown | null): Promise<void> {
  const path = join(sandbox.repo.root, ".review-gate.json");
  if (config === null) await Deno.remove(path).catch(() => {});
  else await Deno.writeTextFile(path, JSON.stringify(config));
}

/** Write the user's own config (`$XDG_CONFIG_HOME/review-gate/config.json` of the sandbox). */
export async function writeUserConfig(sandbox: Sandbox, config: unknown): Promise<void> {
  const dir = join(sandbox.env.XDG_CONFIG_HOME, "review-gate");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config));
}

/** Claude Code hook payload fields (docs/providers.md "Claude Code hooks"). */
export interface PayloadOptions {
  sessionId: string;
  cwd: string;
  stopHookActive?: boolean;
  lastAssistantMessage?: string;
  prompt?: string;
}

/** A `UserPromptSubmit` payload as Claude Code writes it to the hook's stdin. */
export function promptPayload(o: PayloadOptions): string {
  return JSON.stringify({
    session_id: o.sessionId,
    transcript_path: `/tmp/claude/${o.sessionId}.jsonl`,
    cwd: o.cwd,
    prompt_id: crypto.randomUUID(),
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: o.prompt ?? "Please change the constants.",
  });
}

/** A `Stop` (or, with `event`, another event's) payload as Claude Code writes it. */
export function stopPayload(o: PayloadOptions, event = "Stop"): string {
  const payload: Record<string, unknown> = {
    session_id: o.sessionId,
    transcript_path: `/tmp/claude/${o.sessionId}.jsonl`,
    cwd: o.cwd,
    prompt_id: crypto.randomUUID(),
    permission_mode: "default",
    effort: { level: "medium" },
    hook_event_name: event,
    stop_hook_active: o.stopHookActive ?? false,
    background_tasks: [],
    session_crons: [],
  };
  if (o.lastAssistantMessage !== undefined) payload.last_assistant_message = o.lastAssistantMessage;
  return JSON.stringify(payload);
}

/** Run `main.ts hook <name>` with `stdin` piped in, cwd the repository (or `cwd`). */
export function runHook(
  sandbox: Sandbox,
  name: "claude-prompt" | "claude-stop" | "codex-prompt" | "codex-stop",
  stdin: string,
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  return runCli(sandbox, ["hook", name], { stdin, env: options.env, cwd: options.cwd });
}

/** Codex hook payload fields (lib/gates/codex/door.ts). */
export interface CodexPayloadOptions {
  sessionId: string;
  turnId: string;
  cwd: string;
  stopHookActive?: boolean;
  lastAssistantMessage?: string | null;
  prompt?: string;
  /** A subagent's prompt carries its id. */
  agentId?: string;
}

/** A Codex `UserPromptSubmit` (or, with `event`, another event's) payload as codex-cli 0.171.0 sends it. */
export function codexPromptPayload(o: CodexPayloadOptions): string {
  return JSON.stringify({
    session_id: o.sessionId,
    turn_id: o.turnId,
    transcript_path: null,
    cwd: o.cwd,
    hook_event_name: "UserPromptSubmit",
    model: "gpt-mock",
    permission_mode: "bypassPermissions",
    prompt: o.prompt ?? "change the constants\n",
    ...(o.agentId ? { agent_id: o.agentId, agent_type: "worker" } : {}),
  });
}

/** A Codex `Stop` payload (`last_assistant_message` may be null). */
export function codexStopPayload(o: CodexPayloadOptions, event = "Stop"): string {
  return JSON.stringify({
    session_id: o.sessionId,
    turn_id: o.turnId,
    transcript_path: `/tmp/codex/${o.sessionId}.jsonl`,
    cwd: o.cwd,
    hook_event_name: event,
    model: "gpt-mock",
    permission_mode: "bypassPermissions",
    stop_hook_active: o.stopHookActive ?? false,
    last_assistant_message: o.lastAssistantMessage === undefined ? "done" : o.lastAssistantMessage,
  });
}

/** Parse a Stop hook's stdout: `null` when empty (allow), else the JSON object. */
export function stopDecision(stdout: string): Record<string, unknown> | null {
  return stdout.trim() === "" ? null : JSON.parse(stdout);
}

/** Hex of the user's `.git/index` ("" when absent), for byte-identity checks. */
export async function indexBytes(sandbox: Sandbox): Promise<string> {
  const bytes = await Deno.readFile(join(sandbox.repo.root, ".git", "index")).catch(() =>
    new Uint8Array()
  );
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The added lines (`+…`, not `+++`) of the diff inside a prompt the fake logged, joined by "\n". */
export function addedLines(prompt: string | null): string {
  return (prompt ?? "").split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).join(
    "\n",
  );
}

/**
 * Forget every agent session's turn state in the sandbox — the repository's session records and
 * the user's anchors — as on a machine where no session ran here before: the next prompt starts
 * from the worktree as it is, not where an earlier step's session left work unanswered
 * (lib/gates/turn/inherit.ts). For steps that play unrelated sessions in one sandbox.
 */
export async function forgetTurns(sandbox: Sandbox): Promise<void> {
  const home = sandbox.env.HOME;
  for (
    const dir of [
      join(sandbox.repo.root, ".git", "review-gate", "sessions"),
      join(home, ".local", "state", "review-gate", "anchors"),
    ]
  ) {
    await Deno.remove(dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}

/**
 * Sign the sandbox's user in to Claude Code (an empty `~/.claude/.credentials.json`, the login
 * file the claude adapter's `describeAuth` looks for). A reviewer that wraps the fake is not the
 * bundled fake, so provider `"auto"` (the default, lib/providers/auto.ts) chooses it for claude
 * only with a login, as for a real claude user; without one it passes to codex's fake.
 *
 * @returns the login file's path
 */
export async function signInClaude(sandbox: Sandbox): Promise<string> {
  const path = join(sandbox.env.HOME, ".claude", ".credentials.json");
  await Deno.mkdir(join(sandbox.env.HOME, ".claude"), { recursive: true });
  await Deno.writeTextFile(path, "{}");
  return path;
}
