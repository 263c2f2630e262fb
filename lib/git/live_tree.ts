/**
 * Turn the live states (the worktree incl. untracked files, the index) into tree ids without
 * touching the user's index: a copy of `.git/index` in a private `0700` temp dir becomes
 * `GIT_INDEX_FILE`, `git add -A --ignore-errors` records the worktree into it (honouring
 * .gitignore), and `git write-tree` returns the tree. The temp dir is removed on every path and is
 * registered with lib/exec/tmpdir.ts, so a second Ctrl-C removes it as well. New blob and tree
 * objects land in the object store, as with any `git add`; refs, the index and the worktree are
 * never written.
 *
 * @module
 */
import { GitError, StoreError, UsageError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import { gitFailure, gitText, runGit, stderrTail } from "./git.ts";
import type { Repo } from "./repo.ts";

const ADD_ARGS = ["add", "-A", "--ignore-errors"];
/** git's error for a nested repository with no commit (git 2.39: `error: 'vendor/' does …`). */
const NO_COMMIT = /^error: '(.+)' does not have a commit checked out$/gm;

/**
 * Tree id of the worktree as `git add -A` would record it: tracked files with their current
 * content, deletions applied, untracked files added, ignored files left out. Two git calls.
 * `--ignore-errors` lets one unreadable file keep its indexed state (git names it on stderr)
 * instead of failing the whole snapshot.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @returns the tree object id (hex)
 * @throws {GitError} when git fails (stderr tail kept on the error), or names each nested
 *   repository without a commit ("vendor/ is a git repository without a commit: …")
 * @throws {StoreError} when the temp dir for the index copy cannot be created (a bad `TMPDIR`)
 */
export function snapshotWorktreeTree(runner: Runner, repo: Repo): Promise<string> {
  return withTempIndex(repo, async (env) => {
    const result = await runGit(runner, repo.root, ADD_ARGS, { env });
    // exit 1: --ignore-errors skipped files it could not index (git listed them on stderr)
    if (result.code !== 0 && result.code !== 1) throw addFailure(result);
    if (result.code === 1) {
      const nested = noCommitRepos(stderrTail(result));
      if (nested.length > 0) throw nestedRepoError(nested, stderrTail(result));
    }
    return await gitText(runner, repo.root, ["write-tree"], { env });
  });
}

function addFailure(result: Parameters<typeof gitFailure>[1]): GitError {
  const nested = noCommitRepos(stderrTail(result));
  return nested.length > 0
    ? nestedRepoError(nested, stderrTail(result))
    : gitFailure(ADD_ARGS, result);
}

/**
 * Paths git names as nested repositories without a commit in the stderr of `git add`.
 *
 * @param stderr git's stderr (LC_ALL=C)
 * @returns the paths as git prints them (e.g. "vendor/"), in order
 */
export function noCommitRepos(stderr: string): string[] {
  return [...stderr.matchAll(NO_COMMIT)].map((m) => m[1]);
}

function nestedRepoError(paths: string[], stderr: string): GitError {
  const names = paths.join(", ");
  const what = paths.length === 1
    ? `${names} is a git repository without a commit`
    : `${names} are git repositories without a commit`;
  return new GitError(
    `Cannot snapshot the worktree: ${what}: commit in it, remove it, or add it to .gitignore`,
    { args: ADD_ARGS, stderr },
  );
}

/**
 * Tree id of the user's index (what `git commit` would record), computed from a copy so the
 * index's cache-tree is not rewritten. One git call.
 *
 * @returns the tree object id (hex)
 * @throws {GitError} when git fails (e.g. unmerged entries)
 * @throws {StoreError} when the temp dir for the index copy cannot be created
 */
export function snapshotIndexTree(runner: Runner, repo: Repo): Promise<string> {
  return withTempIndex(repo, async (env) => {
    try {
      return await gitText(runner, repo.root, ["write-tree"], { env });
    } catch (error) {
      if (error instanceof GitError && /unmerged|error building trees/i.test(error.stderr)) {
        throw new UsageError(
          "Cannot review the staged changes: the index has unmerged paths (a merge, rebase or " +
            "cherry-pick is in progress); resolve them first, or review the working tree instead",
          { cause: error },
        );
      }
      throw error;
    }
  });
}

/**
 * Run `body` with `GIT_INDEX_FILE` pointing at a copy of the index in a private temp dir
 * (lib/exec/tmpdir.ts registers it, so a second Ctrl-C removes it too).
 */
async function withTempIndex<T>(
  repo: Repo,
  body: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  return await withPrivateTempDir(async (dir) => {
    const index = `${dir}/index`;
    try {
      // Keep the index's mtime on the copy: git's racy-clean check compares each entry's mtime
      // with the index file's, and a fresh mtime would make a file edited in the same second as
      // the last index write (same size) look unchanged, so the change would be missed.
      const { mtime, atime } = await Deno.stat(`${repo.gitDir}/index`);
      await Deno.copyFile(`${repo.gitDir}/index`, index);
      if (mtime) await Deno.utime(index, atime ?? mtime, mtime);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        throw new StoreError(dir, error, "a copy of the index in");
      }
      // no index yet (fresh repository): git starts from an empty one
    }
    return await body({ GIT_INDEX_FILE: index });
  }, { prefix: "review-gate-index-" });
}
