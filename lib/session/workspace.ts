/**
 * The review workspace: one private `0700` directory per review (under the system temp dir)
 * holding a read-only copy of exactly the reviewed tree, which every provider call of the review
 * runs in (its cwd, codex `-C`, vibe `--workdir`). Several calls of one review (a chunked review,
 * a council) share it: make it once with {@linkcode withReviewWorkspace} and pass it to each
 * `callStructured` (`workspace` option); each call still gets its own private directory for its
 * files (CODEX_HOME, settings, schema), inside the system temp dir.
 *
 * Why a copy, not the user's checkout:
 * - codex sends `AGENTS.md`/`AGENTS.override.md` and every `.codex/skills`, `.agents/skills`
 *   SKILL.md of its working root to the model outside our data fence, and a `$skill-name` in the
 *   prompt (which carries the change) injects a whole SKILL.md; no flag turns that off. The copy
 *   leaves them out (lib/git/tree_copy.ts);
 * - the copy has no `.git` (no `.git/config` with a token in a remote URL, no fsmonitor for a git
 *   the model might run, no `gitStatus` block) and no ignored files (`.env`): Claude's file tools
 *   under `--restricted` may read anything inside their working directory;
 * - it is the reviewed tree, not the live worktree: a pre-push review of a commit range reads the
 *   pushed commits' files, not whatever the worktree holds now.
 * Alternatives measured and rejected: an empty cwd with the repository's path in the prompt (the
 * model then reads the live worktree, ignored files and `.git/config`, and the sandbox can no
 * longer deny the repository); `git archive` (honours `export-ignore`/`export-subst`: the
 * repository could hide or rewrite files) and `checkout-index` (runs smudge filters) — see
 * lib/git/tree_copy.ts for what the writer does instead.
 *
 * A write into the copy is a read-only violation like a write into the repository: it means a tool
 * wrote although the sandbox should have refused (lib/session/proof.ts names it as
 * `reviewed copy/<path>`).
 *
 * Cost: about one `cp -r` of the tracked tree (bench "tree copy"), paid only when a model is to be
 * called — a cache hit, a clean tree or a change the rules exclude never makes a copy. A review
 * that asks a model whatever it finds (`--no-cache`) starts the copy while it still reads the
 * patch (lib/review/call_setting.ts) and removes it unused when none of the change can be shown.
 *
 * @module
 */
import { join } from "../base/path.ts";
import type { Runner } from "../exec/exec.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import type { Repo } from "../git/repo.ts";
import { copyTree, listTree, type TreeCopy } from "../git/tree_copy.ts";

/** A review's private workspace. */
export interface ReviewWorkspace {
  /** The user's repository root (never the child's cwd). */
  root: string;
  /** The reviewed tree's object id. */
  treeId: string;
  /** The private 0700 directory holding the copy. */
  dir: string;
  /** The read-only copy of the reviewed tree: the provider's working directory. */
  tree: string;
  /** What the copy holds and leaves out. */
  copy: TreeCopy;
}

/**
 * Make the workspace for a review of `tree`, run `fn` with it, then remove it (on every path;
 * a second Ctrl-C removes it too, lib/exec/tmpdir.ts).
 *
 * @param runner the subprocess seam (git)
 * @param at the repository and the reviewed tree's id (`Change.toTree`)
 * @param fn the review's provider calls
 * @returns what `fn` returns
 * @throws {import("../base/errors.ts").GitError} when the tree cannot be read
 * @throws {import("../base/errors.ts").StoreError} when the private directory cannot be created
 */
export async function withReviewWorkspace<T>(
  runner: Runner,
  at: { repo: Repo; tree: string },
  fn: (workspace: ReviewWorkspace) => Promise<T>,
): Promise<T> {
  // git lists the tree while the directory is made
  const listing = listTree(runner, at.repo.root, at.tree);
  listing.catch(() => {});
  try {
    return await withPrivateTempDir(async (dir) => {
      const tree = join(dir, "tree");
      await Deno.mkdir(tree);
      const copy = await copyTree(runner, at.repo.root, at.tree, tree, listing);
      return await fn({ root: at.repo.root, treeId: at.tree, dir, tree, copy });
    }, { prefix: "review-gate-review-" });
  } finally {
    await listing.catch(() => {}); // no `ls-tree` outlives a directory that could not be made
  }
}
