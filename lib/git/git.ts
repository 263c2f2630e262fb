/**
 * The one way review-gate talks to git: {@linkcode git} runs `git` through the injected
 * {@linkcode Runner} with a fixed, non-interactive environment and throws {@linkcode GitError}
 * (args + stderr tail) on failure; {@linkcode runGit} returns the raw result for callers that branch
 * on the exit code.
 *
 * Every call gets `GIT_OPTIONAL_LOCKS=0` (so `git status` never refreshes the user's index),
 * `LC_ALL=C` (stable messages), no pager, no colour and `core.quotepath=off`, and
 * `GIT_NO_REPLACE_OBJECTS=1` and `GIT_GRAFT_FILE=/dev/null`: git would otherwise read every object
 * through `refs/replace/` and every commit's parents through `info/grafts`, so a replace ref (`git
 * replace`, one command any agent can run) or a graft could make a changed tree or a commit read as
 * its parent's and the change look empty, while a push sends the real objects. Callers that parse
 * output use plumbing commands (`diff-tree`, `ls-files`) whose format porcelain config does not
 * change.
 *
 * **Hardening.** A repository under review (or a reviewer that wrote into `.git/config` or the
 * user's `~/.gitconfig`) must not make our own git run a program. Every call therefore overrides,
 * on the command line (which wins over every config file, the repository's own included), each key
 * that makes the commands we run start a program: `core.fsmonitor` (run by `status`, `diff-files`,
 * `add`, `write-tree`…), `core.hooksPath=/dev/null` (the `post-index-change` hook of `add`),
 * `diff.external` (we also pass `--no-ext-diff --no-textconv`), `log.showSignature` (`gpg.program`),
 * `core.askPass`, `gc.auto` / `maintenance.auto` (a forked `gc --auto`), `submodule.recurse` and
 * `protocol.ext.allow` ({@linkcode HARDENING_ARGS}). Nor may config make our git trust stale stat
 * data: `add -A` (the worktree snapshot) re-reads a file only when its stat differs from its index
 * entry, and `core.checkStat=minimal` with `core.trustctime=false` leaves only the size and the
 * whole-second mtime compared, so an edit that puts both back would look unchanged; every call
 * passes git's defaults, `core.checkStat=default` and `core.trustctime=true`. What `-c` cannot switch off by name are the
 * filters and merge drivers a committed `.gitattributes` selects (`filter.<name>.clean`,
 * `merge.<name>.driver`): only config files define them. So:
 * - calls that need no user config at all (the tree copy, `merge-tree` of the pre-push gate) pass
 *   `isolated: true`: no global or system config (`GIT_CONFIG_GLOBAL=/dev/null`,
 *   `GIT_CONFIG_NOSYSTEM=1`), so a `.gitattributes` can select no user-defined driver;
 * - in CI mode ({@linkcode enableCiGitHardening}, for `review-gate ci`) every call runs that way.
 *   There a repository is an outsider's and nothing needs the runner's filters; the runner's
 *   `safe.directory` entries are carried over as `-c` (git honours them from the command line).
 * Locally, the user's global config is kept on ordinary calls: git-lfs's clean filter is what makes
 * `add -A` record the blobs a commit would, and a repository can only select filters the user
 * already runs on every `git add`.
 * Calls that ask where hooks live (`rev-parse --git-path hooks`, for the installer and the
 * read-only proof) pass `keepHooksPath: true`: they run no hook, and must see the user's
 * `core.hooksPath`.
 *
 * **Process group.** git runs in review-gate's own process group (`processGroup: "ours"`,
 * lib/exec/exec.ts: spawned without a fork, half the cost of a child in a group of its own). So a
 * signal sent to that group — the terminal's Ctrl-C, the terminal closing, a background job's
 * `cancel` — stops a running git too, though review-gate's own handling of that signal (main.ts) is
 * what decides: a call given an abort signal reads as aborted once it aborts; any other call (the
 * read-only proof must finish after a Ctrl-C, as it did when git was out of the terminal's reach)
 * is run again, once — unless it already handed streamed output over: then the caller is told
 * ({@linkcode stoppedByGroupSignal}).
 *
 * @module
 */
import { GitError } from "../base/errors.ts";
import { trace } from "../base/trace.ts";
import {
  type ExecRequest,
  type ExecResult,
  INTERRUPT_SIGNALS,
  type ProcessGroup,
  type Runner,
  SpawnError,
} from "../exec/exec.ts";

/** Options of one git call. */
export interface GitOptions {
  /** Bytes or text written to git's stdin. */
  stdin?: Uint8Array | string;
  /** Extra environment variables (e.g. `GIT_INDEX_FILE`), merged over the fixed ones. */
  env?: Record<string, string>;
  /** Exit codes that count as success besides 0 (e.g. `[1]` for `diff --quiet`). */
  okCodes?: readonly number[];
  /** Cap on stdout/stderr bytes; default the runner's (64 MiB). */
  maxOutputBytes?: number;
  /** Read no global or system config (see the module doc); always so in CI mode. */
  isolated?: boolean;
  /** Keep the user's `core.hooksPath` (for `rev-parse --git-path hooks`, which runs no hook). */
  keepHooksPath?: boolean;
  /** Hand stdout over as it is read instead of keeping it (see {@linkcode streamGit}). */
  onStdout?: (chunk: Uint8Array) => void;
  /** Kill git after this many milliseconds (a network call: `ls-remote`); default none. */
  timeoutMs?: number;
  /**
   * Run git in a process group of its own (`"own"`, lib/exec/exec.ts), so a timeout also kills
   * what it started (the `ssh` of a network call); default review-gate's group.
   */
  processGroup?: ProcessGroup;
}

/** Environment every git child gets. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: "0",
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_GRAFT_FILE: "/dev/null",
  LC_ALL: "C",
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  // config the caller put on its own command line (`git -c core.bigFileThreshold=1 push`) or in
  // the environment reaches a hook's children through these: none of it is review-gate's
  GIT_CONFIG_PARAMETERS: "",
  GIT_CONFIG_COUNT: "0",
};

/**
 * Options of every call: no pager, no quoting of paths, no colour, and no "info/grafts is
 * deprecated" hint, which `GIT_GRAFT_FILE` (set in {@linkcode GIT_ENV}) would otherwise make git
 * print on every call that reads a commit, into the stderr our error messages quote.
 */
export const BASE_ARGS: readonly string[] = [
  "--no-pager",
  "-c",
  "core.quotepath=off",
  "-c",
  "color.ui=false",
  "-c",
  "advice.graftFileDeprecated=false",
];
const decoder = new TextDecoder();

/**
 * Config overrides on every call: each key that makes a command we run start a program (module
 * doc), and the stat checks git trusts an index entry by (module doc). `core.hooksPath` comes separately ({@linkcode HOOKS_OFF}) so a hooks-path query can keep it.
 */
export const HARDENING_ARGS: readonly string[] = [
  "core.fsmonitor=false",
  "diff.external=",
  "log.showSignature=false",
  "core.askPass=",
  "gc.auto=0",
  "maintenance.auto=false",
  "submodule.recurse=false",
  "protocol.ext.allow=never",
  "core.checkStat=default",
  "core.trustctime=true",
  // git's default: a lower threshold shows every file as binary, with no line of its diff
  "core.bigFileThreshold=512m",
].flatMap((pair) => ["-c", pair]);

/** No hook runs from any directory. */
export const HOOKS_OFF: readonly string[] = ["-c", "core.hooksPath=/dev/null"];

/** Environment of a call that reads no global or system config. */
export const ISOLATED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Process-wide hardening mode: "local" (default) or "ci" (no global/system config anywhere). */
let hardening: { mode: "local" | "ci"; safeArgs: string[] } = { mode: "local", safeArgs: [] };

/**
 * Switch every later git call of this process to CI hardening: no global or system config (so no
 * filter, merge driver or other program the runner's config defines can be selected by the
 * repository's `.gitattributes`). The runner's `safe.directory` entries (read once, now, from its
 * global and system config; git honours them on the command line) are passed as `-c`, so a
 * checkout owned by another user (a container job) still opens. For `review-gate ci`.
 *
 * @param runner the subprocess seam
 * @returns the `safe.directory` values carried over
 */
export async function enableCiGitHardening(runner: Runner): Promise<string[]> {
  hardening = { mode: "local", safeArgs: [] };
  const result = await runGit(runner, "/", ["config", "--get-all", "safe.directory"])
    .catch(() => null);
  const values = result && result.code === 0
    ? decoder.decode(result.stdout).split("\n").filter((v) => v !== "")
    : [];
  hardening = { mode: "ci", safeArgs: values.flatMap((v) => ["-c", `safe.directory=${v}`]) };
  return values;
}

/**
 * The current hardening mode, or set it back to "local" (tests; a process that left CI mode).
 *
 * @param mode "local" to reset; omit to only read
 * @returns the mode now in force
 */
export function gitHardening(mode?: "local"): "local" | "ci" {
  if (mode === "local") hardening = { mode: "local", safeArgs: [] };
  return hardening.mode;
}

/**
 * Run `git <args>` in `cwd` and return the raw result, whatever the exit code. A call stopped by a
 * signal to review-gate's process group is run again once (module doc), unless it streamed.
 *
 * @param runner the subprocess seam
 * @param cwd working directory (absolute path)
 * @param args git arguments after the fixed global options
 * @param options stdin, extra env, output cap
 * @returns the {@linkcode ExecResult} (stdout/stderr as bytes, durationMs in ms)
 * @throws {GitError} when git cannot be started at all
 */
export async function runGit(
  runner: Runner,
  cwd: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<ExecResult> {
  let streamed = false;
  const onStdout = options.onStdout;
  const isolated = options.isolated || hardening.mode === "ci";
  const request: ExecRequest = {
    cmd: "git",
    args: [
      ...BASE_ARGS,
      ...HARDENING_ARGS,
      ...(options.keepHooksPath ? [] : HOOKS_OFF),
      ...hardening.safeArgs,
      ...args,
    ],
    cwd,
    env: { ...GIT_ENV, ...options.env, ...(isolated ? ISOLATED_ENV : {}) },
    stdin: options.stdin ?? null,
    maxOutputBytes: options.maxOutputBytes,
    processGroup: options.processGroup ?? "ours",
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(onStdout
      ? {
        onStdout: (chunk: Uint8Array) => {
          streamed = true;
          onStdout(chunk);
        },
      }
      : {}),
  };
  const label = `git ${args.find((a, i) => !a.startsWith("-") && args[i - 1] !== "-c") ?? args[0]}`;
  trace(`${label} started`);
  try {
    const result = await runner(request);
    trace(`${label} ended (exit ${result.code}, ${result.durationMs.toFixed(1)} ms)`);
    if (!stoppedByGroupSignal(result) || streamed) return result;
    return await runner(request);
  } catch (cause) {
    if (cause instanceof SpawnError) {
      throw new GitError(
        `Cannot run "git" in "${cwd}": install git and check that the directory exists`,
        { args },
        { cause },
      );
    }
    throw cause;
  }
}

/**
 * Whether a git call was stopped by a signal review-gate did not send it (one of the interrupt
 * signals, sent to our process group: module doc) and did not read as aborted: its failure is not
 * git's, and a call that must finish can be run again.
 *
 * @param result a git call's result
 */
export function stoppedByGroupSignal(result: ExecResult): boolean {
  return result.signal !== undefined && INTERRUPT_SIGNALS.includes(result.signal) &&
    !result.aborted && !result.timedOut;
}

/**
 * Run `git <args>` in `cwd` and return stdout bytes.
 *
 * @returns raw stdout bytes
 * @throws {GitError} when git exits with a code not in `[0, ...okCodes]`; carries args and the
 *   last 2 KB of stderr
 */
export async function git(
  runner: Runner,
  cwd: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<Uint8Array> {
  const result = await runGit(runner, cwd, args, options);
  if (result.code !== 0 && !(options.okCodes ?? []).includes(result.code)) {
    throw gitFailure(args, result);
  }
  return result.stdout;
}

/**
 * Run `git <args>` and hand its stdout to `onChunk`, in order, as it is read: memory stays bounded
 * however much git prints (a whole change's patch). A runner that cannot stream returns stdout at
 * the end; it is handed over then.
 *
 * @param onChunk called synchronously for each piece of stdout, a view valid only during the call
 *   (copy what you keep); after it throws, it is not called again and the error is rethrown once git has finished
 * @throws {GitError} when git exits with a code other than 0; whatever `onChunk` threw
 */
export async function streamGit(
  runner: Runner,
  cwd: string,
  args: readonly string[],
  onChunk: (chunk: Uint8Array) => void,
  options: GitOptions = {},
): Promise<void> {
  let failed = false;
  let failure: unknown;
  const consume = (chunk: Uint8Array) => {
    if (failed) return;
    try {
      onChunk(chunk);
    } catch (error) {
      failed = true;
      failure = error;
    }
  };
  const result = await runGit(runner, cwd, args, { ...options, onStdout: consume });
  if (result.stdout.length > 0) consume(result.stdout);
  if (failed) throw failure;
  if (result.code !== 0) throw gitFailure(args, result);
}

/** Like {@linkcode git} but returns stdout decoded as UTF-8 with the final newline removed. */
export async function gitText(
  runner: Runner,
  cwd: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<string> {
  return decoder.decode(await git(runner, cwd, args, options)).replace(/\n$/, "");
}

/** Last 2 KB of stderr as text, trimmed. */
export function stderrTail(result: ExecResult): string {
  const text = decoder.decode(result.stderr).trim();
  return text.length > 2048 ? text.slice(-2048) : text;
}

/**
 * What git prints when the repository itself cannot be read (a missing or corrupt object or
 * pack), not when the command or its input is wrong.
 */
const UNREADABLE =
  /unable to read [0-9a-f]{7,}|missing (?:blob|tree|commit) [0-9a-f]{7,}|failed to read object|(?:loose object|packfile) .* (?:is )?corrupt|did not receive expected object/i;

/**
 * Build the {@linkcode GitError} for a failed call: exit 3 (could not run) when git cannot read
 * an object of the repository, with a hint to check it; otherwise exit 2.
 */
export function gitFailure(args: readonly string[], result: ExecResult): GitError {
  const tail = stderrTail(result);
  const last = tail.split("\n").at(-1) ?? "";
  const unreadable = UNREADABLE.test(tail);
  const hint = unreadable
    ? '; the repository is missing an object or is corrupt: check it with "git fsck"'
    : "";
  return new GitError(
    `Command "git ${shortArgs(args)}" failed with exit code ${result.code}${
      last ? `: ${last}` : ""
    }${hint}`,
    { args, stderr: tail, unreadable },
  );
}

function shortArgs(args: readonly string[]): string {
  const text = args.join(" ");
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
