/**
 * Find the repository around a directory: worktree root, git dirs, the hooks directory, HEAD and
 * object format, in one `git rev-parse` call. Bare repositories and non-repositories are refused with a {@linkcode GitError}
 * that says what to do.
 *
 * @module
 */
import { GitError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import { runGit, stderrTail } from "./git.ts";

/** A resolved repository. All paths are absolute, without a trailing slash. */
export interface Repo {
  /** Worktree top level. */
  root: string;
  /** This worktree's git dir (`.git`, or `.git/worktrees/<name>` in a linked worktree). */
  gitDir: string;
  /** The git dir shared by all worktrees (where the state dir lives). */
  commonDir: string;
  /**
   * Where git runs hooks from (`git rev-parse --git-path hooks`: `core.hooksPath` honoured). Set by
   * {@linkcode resolveRepo}; absent in a `Repo` built by hand (ask git then).
   */
  hooksDir?: string;
  /** Commit id HEAD points at; `null` on an unborn branch (no commit yet). */
  head: string | null;
  objectFormat: "sha1" | "sha256";
}

/** Id of the empty tree per object format (`git hash-object -t tree /dev/null`). */
export const EMPTY_TREE = {
  sha1: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  sha256: "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
} as const;

/** The empty tree id of a repository's object format. */
export function emptyTree(repo: Pick<Repo, "objectFormat">): string {
  return EMPTY_TREE[repo.objectFormat];
}

const ARGS = [
  "rev-parse",
  "--show-toplevel",
  "--absolute-git-dir",
  "--path-format=absolute",
  "--git-common-dir",
  "--git-path",
  "hooks",
  "--show-object-format",
  "--verify",
  "-q",
  "HEAD",
];

/**
 * Resolve the repository containing `cwd` with a single `git rev-parse` (it runs no hook, so it
 * sees the user's `core.hooksPath`).
 *
 * @param runner the subprocess seam
 * @param cwd any directory inside a worktree (absolute path)
 * @returns the {@linkcode Repo}; `head` is `null` when the branch has no commit yet
 * @throws {GitError} (exit 2) when `cwd` is not inside a repository, is a bare repository or the
 *   git dir itself, or git cannot run
 */
export async function resolveRepo(runner: Runner, cwd: string): Promise<Repo> {
  const result = await runGit(runner, cwd, ARGS, { keepHooksPath: true });
  const lines = new TextDecoder().decode(result.stdout).split("\n");
  if (result.code !== 0 && !(result.code === 1 && lines.length >= 5)) {
    const tail = stderrTail(result);
    if (/must be run in a work tree/.test(tail)) {
      throw new GitError(
        `No working tree at "${cwd}" (a bare repository or inside the git dir): run review-gate in a checkout`,
        { args: ARGS, stderr: tail },
      );
    }
    throw new GitError(
      `Not a git repository: "${cwd}". Run review-gate inside a git repository (cd into it first)`,
      { args: ARGS, stderr: tail },
    );
  }
  const [root, gitDir, commonDir, hooksDir, format, head] = lines;
  if (format !== "sha1" && format !== "sha256") {
    throw new GitError(`Unsupported object format "${format}" in "${root}": use sha1 or sha256`);
  }
  return {
    root,
    gitDir,
    commonDir: commonDir.replace(/\/$/, ""),
    hooksDir: hooksDir.replace(/\/$/, ""),
    head: result.code === 0 && head ? head : null,
    objectFormat: format,
  };
}
