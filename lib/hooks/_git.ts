/**
 * The few git calls the hook modules make, through the injected {@linkcode Runner}. (lib/git/ has the
 * general helpers; these stay here so the hook fast paths import nothing heavy.)
 *
 * @module
 */
import type { ExecResult, Runner } from "../exec.ts";
import { GitError } from "../errors.ts";

const decoder = new TextDecoder();

/** Run git in `cwd`; returns the raw result without judging the exit code. */
export function runGit(
  runner: Runner,
  cwd: string,
  args: readonly string[],
  stdin?: string,
): Promise<ExecResult> {
  return runner({ cmd: "git", args, cwd, stdin: stdin ?? null, env: { GIT_OPTIONAL_LOCKS: "0" } });
}

/**
 * Run git in `cwd` and return its stdout as text with the final newline removed.
 *
 * @throws {GitError} when git exits non-zero (message carries git's first stderr line)
 */
export async function gitText(
  runner: Runner,
  cwd: string,
  args: readonly string[],
  stdin?: string,
): Promise<string> {
  const result = await runGit(runner, cwd, args, stdin);
  const stderr = decoder.decode(result.stderr);
  if (result.code !== 0) {
    const first = stderr.trim().split("\n")[0] ?? "";
    throw new GitError(
      `"git ${args.join(" ")}" failed in "${cwd}": ${first || `exit ${result.code}`}`,
      {
        args,
        stderr: stderr.slice(-2000),
      },
    );
  }
  return decoder.decode(result.stdout).replace(/\n$/, "");
}
