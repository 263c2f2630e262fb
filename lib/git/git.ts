/**
 * The one way review-gate talks to git: {@linkcode git} runs `git` through the injected
 * {@linkcode Runner} with a fixed, non-interactive environment and throws {@linkcode GitError}
 * (args + stderr tail) on failure; {@linkcode runGit} returns the raw result for callers that branch
 * on the exit code.
 *
 * Every call gets `GIT_OPTIONAL_LOCKS=0` (so `git status` never refreshes the user's index),
 * `LC_ALL=C` (stable messages), no pager, no colour and `core.quotepath=off`. The user's own config
 * is kept; callers that parse output use plumbing commands (`diff-tree`, `ls-files`) whose format
 * porcelain config does not change.
 *
 * @module
 */
import { GitError } from "../base/errors.ts";
import { type ExecResult, type Runner, SpawnError } from "../exec/exec.ts";

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
}

/** Environment every git child gets. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: "0",
  LC_ALL: "C",
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
};

const BASE_ARGS = ["--no-pager", "-c", "core.quotepath=off", "-c", "color.ui=false"];
const decoder = new TextDecoder();

/**
 * Run `git <args>` in `cwd` and return the raw result, whatever the exit code.
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
  try {
    return await runner({
      cmd: "git",
      args: [...BASE_ARGS, ...args],
      cwd,
      env: { ...GIT_ENV, ...options.env },
      stdin: options.stdin ?? null,
      maxOutputBytes: options.maxOutputBytes,
    });
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

/** Build the {@linkcode GitError} for a failed call. */
export function gitFailure(args: readonly string[], result: ExecResult): GitError {
  const tail = stderrTail(result);
  const last = tail.split("\n").at(-1) ?? "";
  return new GitError(
    `Command "git ${shortArgs(args)}" failed with exit code ${result.code}${
      last ? `: ${last}` : ""
    }`,
    { args, stderr: tail },
  );
}

function shortArgs(args: readonly string[]): string {
  const text = args.join(" ");
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
