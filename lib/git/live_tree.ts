/**
 * Turn the live states (the worktree incl. untracked files, the index) into tree ids without
 * touching the user's index: a copy of `.git/index` in a private `0700` temp dir becomes
 * `GIT_INDEX_FILE`, `git add -A` records the worktree into it (honouring .gitignore), and
 * `git write-tree` returns the tree. The temp dir is removed on every path. New blob and tree
 * objects land in the object store, as with any `git add`; refs, the index and the worktree are
 * never written.
 *
 * @module
 */
import type { Runner } from "../exec.ts";
import { gitText } from "./git.ts";
import type { Repo } from "./repo.ts";

/**
 * Tree id of the worktree as `git add -A` would record it: tracked files with their current
 * content, deletions applied, untracked files added, ignored files left out. Two git calls.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @returns the tree object id (hex)
 * @throws {import("../errors.ts").GitError} when git fails
 */
export function snapshotWorktreeTree(runner: Runner, repo: Repo): Promise<string> {
  return withTempIndex(repo, async (env) => {
    await gitText(runner, repo.root, ["add", "-A"], { env });
    return await gitText(runner, repo.root, ["write-tree"], { env });
  });
}

/**
 * Tree id of the user's index (what `git commit` would record), computed from a copy so the
 * index's cache-tree is not rewritten. One git call.
 *
 * @returns the tree object id (hex)
 * @throws {import("../errors.ts").GitError} when git fails (e.g. unmerged entries)
 */
export function snapshotIndexTree(runner: Runner, repo: Repo): Promise<string> {
  return withTempIndex(repo, (env) => gitText(runner, repo.root, ["write-tree"], { env }));
}

async function withTempIndex<T>(
  repo: Repo,
  body: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "review-gate-index-" });
  try {
    await Deno.chmod(dir, 0o700);
    const index = `${dir}/index`;
    try {
      // Keep the index's mtime on the copy: git's racy-clean check compares each entry's mtime
      // with the index file's, and a fresh mtime would make a file edited in the same second as
      // the last index write (same size) look unchanged, so the change would be missed.
      const { mtime, atime } = await Deno.stat(`${repo.gitDir}/index`);
      await Deno.copyFile(`${repo.gitDir}/index`, index);
      if (mtime) await Deno.utime(index, atime ?? mtime, mtime);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      // no index yet (fresh repository): git starts from an empty one
    }
    return await body({ GIT_INDEX_FILE: index });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
