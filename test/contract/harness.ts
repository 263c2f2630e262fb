/**
 * Drives our real adapters (lib/providers/claude/adapter.ts, codex/adapter.ts, qwen/adapter.ts,
 * copilot/adapter.ts, opencode/adapter.ts, …) and the real session runner
 * (`callStructured` in lib/session/call.ts) against the real CLIs pointed at the loopback mocks, with
 * the real decoder, runner, workspace (the read-only copy of the worktree's tree the CLI runs in)
 * and read-only proof. Only the model is fake. The CLI's environment is what the adapter builds
 * from the parent environment given here ({@linkcode RunReviewOptions.env}): the runner adds
 * nothing.
 *
 * @module
 */
import { join } from "node:path";
import { decode } from "../../lib/answer/decoder.ts";
import { formatRefusal } from "../../lib/answer/refusal.ts";
import { canonicalSchema } from "../../lib/kinds/registry.ts";
import { reviewKind } from "../../lib/kinds/review/kind.ts";
import type { ReviewAnswer } from "../../lib/kinds/review/types.ts";
import { type ExecRequest, runProcess } from "../../lib/exec/exec.ts";
import { resolveRepo } from "../../lib/git/repo.ts";
import { snapshotWorktreeTree } from "../../lib/git/live_tree.ts";
import { worktreeView } from "../../lib/git/tree_view.ts";
import { getProvider } from "../../lib/providers/registry.ts";
import { buildCorrectivePrompt } from "../../lib/kinds/review/prompt.ts";
import { type CallOutcome, callStructured } from "../../lib/session/call.ts";
import { reviewProof } from "../../lib/session/proof.ts";
import { withReviewWorkspace } from "../../lib/session/workspace.ts";
import {
  claudeEnv,
  codexEnv,
  copilotEnv,
  findCli,
  geminiEnv,
  makeRepo,
  makeSandbox,
  opencodeEnv,
  qwenEnv,
  type Sandbox,
} from "./env.ts";

/** Options for {@linkcode runReview}. */
export interface RunReviewOptions {
  provider: "claude" | "codex" | "qwen" | "gemini" | "copilot" | "opencode";
  sandbox: Sandbox;
  /** Absolute repo root. */
  repo: string;
  /** Mock base URL (claude: ANTHROPIC_BASE_URL; codex: config.toml already written). */
  mockUrl: string;
  prompt?: string;
  maxTurns?: number;
  timeoutMs?: number;
  /**
   * The parent environment review-gate runs in; default: this process's environment plus the
   * CLI's mock settings (claudeEnv / codexEnv). The adapter takes the child's allowlist from it.
   */
  env?: Record<string, string>;
}

/** The recorded spawns of one run (argv, stdin, env) as the runner saw them. */
export interface Spawn {
  args: readonly string[];
  stdin: string | null;
  /** The child's whole environment (the adapter's allowlist; runProcess adds REVIEW_GATE_CHILD). */
  env: Record<string, string>;
  cwd?: string;
}

/** Absolute path of our main.ts, which the end-to-end and hook cases spawn. */
export const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The developer's Deno cache, kept although HOME is a throwaway dir (the CLI and hooks run deno). */
export const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

/** The prompt used when a case does not give one; carries a marker the mocks can find. */
/**
 * What a shell write the agent's sandbox refuses prints: bubblewrap's read-only bind on Linux
 * (`Read-only file system`), Seatbelt's deny on macOS (`Operation not permitted`).
 */
export const WRITE_REFUSED: RegExp = Deno.build.os === "darwin"
  ? /Operation not permitted|Read-only file system/
  : /Read-only file system/;

export const DEFAULT_PROMPT = "Review the change. CONTRACT-PROMPT-MARKER-7f3a";

/**
 * Run one structured review call through our adapter and `callStructured`.
 * @returns the call outcome and every spawn the session made
 */
export async function runReview(
  options: RunReviewOptions,
): Promise<{ outcome: CallOutcome<ReviewAnswer>; spawns: Spawn[] }> {
  const adapter = await getProvider(options.provider);
  const schema = (await canonicalSchema("review")) as Record<string, unknown>;
  const env = options.env ?? {
    ...Deno.env.toObject(),
    ...(options.provider === "claude"
      ? claudeEnv(options.sandbox, options.mockUrl)
      : options.provider === "qwen"
      ? qwenEnv(options.sandbox, options.mockUrl)
      : options.provider === "gemini"
      ? geminiEnv(options.sandbox, options.mockUrl)
      : options.provider === "copilot"
      ? copilotEnv(options.sandbox, options.mockUrl)
      : options.provider === "opencode"
      ? opencodeEnv(options.sandbox)
      : codexEnv(options.sandbox)),
  };
  const spawns: Spawn[] = [];
  const runner = (request: ExecRequest) => {
    spawns.push({
      args: request.args,
      stdin: typeof request.stdin === "string" ? request.stdin : null,
      env: request.env ?? {},
      cwd: request.cwd,
    });
    return runProcess(request);
  };
  const repo = await resolveRepo(runProcess, options.repo);
  const tree = await snapshotWorktreeTree(runProcess, repo);
  const outcome = await withReviewWorkspace(
    runProcess,
    { repo, tree },
    (workspace) =>
      callStructured<ReviewAnswer, unknown>({
        adapter,
        bin: findCli(options.provider)!,
        request: {
          prompt: options.prompt ?? DEFAULT_PROMPT,
          schema,
          root: options.repo,
          maxTurns: options.maxTurns ?? 6,
        },
        correctivePrompt: (refusal) => buildCorrectivePrompt(formatRefusal(refusal), schema),
        decode: (input) =>
          decode(reviewKind, input, worktreeView(options.repo, { deleted: new Set() })) as Promise<
            import("../../lib/answer/types.ts").Decision<ReviewAnswer>
          >,
        runner,
        env,
        workspace,
        timeoutMs: options.timeoutMs ?? 90_000,
        proof: reviewProof(runProcess, { repo, env, workspace }),
      }),
  );
  return { outcome, spawns };
}

/** A valid approve answer. */
export const APPROVE = {
  verdict: "approve",
  summary: "The change is small and correct.",
  findings: [],
  next_steps: [],
};

/** A valid needs-attention answer with one high finding in src/app.ts line 1. */
export const NEEDS_ATTENTION = {
  verdict: "needs-attention",
  summary: "The constant is wrong.",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "Wrong constant",
    body: "a should be 2.",
    file: "src/app.ts",
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "Set a to 2.",
  }],
  next_steps: ["Fix the constant."],
};

/** Decoded stdout/stderr of an attempt. */
export function attemptText(outcome: CallOutcome<ReviewAnswer>, n: number) {
  const a = outcome.attempts[n - 1];
  const d = new TextDecoder();
  return { stdout: d.decode(a.stdout), stderr: d.decode(a.stderr) };
}

/** True when `path` exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The context of one adapter case: the sandbox, its repo, the mock and a bound `runReview`. */
export interface CaseContext<M> {
  sb: Sandbox;
  /** Absolute repo root. */
  repo: string;
  mock: M;
  /** {@linkcode runReview} with this case's provider, sandbox, repo and mock URL. */
  review: (
    extra?: Pick<RunReviewOptions, "prompt" | "maxTurns" | "timeoutMs" | "env">,
  ) => ReturnType<typeof runReview>;
}

/**
 * Run one adapter case: a fresh sandbox and repo, the mock started by `startMock`, then `setup`
 * (e.g. the codex config.toml) and `fn`; the mock is closed and the sandbox removed afterwards,
 * also when `fn` throws.
 */
export async function withCase<M extends { url: string; close(): Promise<void> }>(
  options: {
    provider: RunReviewOptions["provider"];
    startMock: () => M;
    setup?: (sb: Sandbox, mock: M) => Promise<void>;
  },
  fn: (ctx: CaseContext<M>) => Promise<void>,
): Promise<void> {
  const sb = await makeSandbox();
  const mock = options.startMock();
  try {
    const repo = await makeRepo(sb.dir);
    await options.setup?.(sb, mock);
    const review: CaseContext<M>["review"] = (extra = {}) =>
      runReview({ provider: options.provider, sandbox: sb, repo, mockUrl: mock.url, ...extra });
    await fn({ sb, repo, mock, review });
  } finally {
    await mock.close();
    await sb.cleanup();
  }
}

/**
 * Run `deno run main.ts …` in `cwd` (the CLI as a user runs it).
 *
 * @returns stdout
 * @throws with stderr on a non-zero exit
 */
export async function runMain(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<string> {
  const out = await runMainResult(cwd, args, env);
  if (out.code !== 0) {
    throw new Error(`review-gate ${args.join(" ")} exited ${out.code}: ${out.stderr}`);
  }
  return out.stdout;
}

/** Like {@linkcode runMain}, whatever the exit code. */
export async function runMainResult(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    cwd,
    env: { ...env, DENO_DIR, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}
