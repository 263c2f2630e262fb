/**
 * What a turn's worktree snapshot cannot show the model (docs/design.md "Turn gate"; README
 * "review-gate review": "Not part of this change"): independent repositories nested in the checkout
 * (left out of the snapshot by lib/git/live_tree.ts — the agent may have made one with `git init`
 * during the turn) and
 * submodules with uncommitted changes (the snapshot records a submodule's commit only). The Stop
 * gate names them in its answer as not reviewed, and `on_partial` applies, so such code never
 * passes in silence. Linked worktrees of this repository (e.g. `claude -w` checkouts) are other
 * sessions' work and are not named.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { collectDirtySubmodules } from "../../git/collect.ts";
import { git } from "../../git/git.ts";
import { scanRepoIndex } from "../../git/index_file.ts";
import { snapshotWorktree } from "../../git/live_tree.ts";
import type { Repo } from "../../git/repo.ts";
import type { StoredVerdict } from "./decision.ts";

/** The worktree as a tree and the parts of it no review of that tree can show. */
export interface TurnSnapshot {
  /** Tree object id (hex) of the worktree (lib/git/live_tree.ts). */
  tree: string;
  /** One phrase per part, e.g. `vendor (nested repository)`, in path order. */
  unseen: string[];
}

/**
 * Snapshot the worktree and list what it leaves unseen. Git calls: those of `snapshotWorktree`,
 * plus, when the index holds a submodule, `diff-files` and one `status` per submodule whose
 * checkout differs from the index, in parallel.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @returns the tree and the unseen parts
 * @throws {GitError} when git fails
 * @throws {StoreError} when the temp dir for the index copy cannot be created
 */
export async function snapshotTurn(runner: Runner, repo: Repo): Promise<TurnSnapshot> {
  const [snapshot, dirty] = await Promise.all([
    snapshotWorktree(runner, repo),
    collectDirtySubmodules(runner, repo),
  ]);
  const unseen = [
    ...snapshot.excluded.filter((e) => e.reason === "nested-repository").map((e) => ({
      path: e.path,
      text: `${e.path} (nested repository)`,
    })),
    ...dirty.map((d) => ({
      path: d.path,
      text: `${d.path} (submodule with uncommitted changes)`,
    })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { tree: snapshot.tree, unseen: unseen.map((u) => u.text) };
}

/**
 * The verdict with the unseen parts added: a review that ran becomes partial (its `partial` line
 * names them), one with nothing to review becomes "not-reviewed", one that could not run keeps its
 * status and names them in its message. Unchanged when `unseen` is empty.
 *
 * @param verdict the review's verdict on the turn's tree
 * @param unseen phrases from {@linkcode snapshotTurn}
 * @returns a new verdict (the stored one is not changed)
 */
export function withUnseen(verdict: StoredVerdict, unseen: readonly string[]): StoredVerdict {
  if (unseen.length === 0) return verdict;
  const list = unseen.join(", ");
  const what = `not reviewed: ${list}`;
  if (verdict.status === "nothing-to-review" || verdict.status === "not-reviewed") {
    const before = verdict.status === "not-reviewed" && verdict.message
      ? `${verdict.message}; `
      : "";
    const message = `${before}${list} — outside the turn's snapshot, no model saw it`;
    return { ...verdict, status: "not-reviewed", message };
  }
  if (verdict.status !== "approved" && verdict.status !== "needs-attention") {
    return { ...verdict, message: `${verdict.message ?? "no details"}; also ${what}` };
  }
  return { ...verdict, partial: verdict.partial ? `${verdict.partial}; ${what}` : what };
}

/**
 * Whether the index holds a submodule (a gitlink): then an edit inside it does not change the
 * worktree's tree, so the installed Stop script (`hooks/turn-stop.sh`), which compares trees only,
 * must not be trusted to allow (lib/gates/turn/baseline.ts writes no stop stamp). The index file
 * is scanned in-process (lib/git/index_file.ts); only an index the scan cannot answer for (split,
 * unknown, or named by `GIT_INDEX_FILE`) costs a `git ls-files --stage` call.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @returns true when some index entry has mode 160000
 * @throws {GitError} when git fails
 */
export async function hasSubmodules(runner: Runner, repo: Repo): Promise<boolean> {
  const scan = await scanRepoIndex(repo);
  if (scan) return scan.gitlinks;
  const out = await git(runner, repo.root, ["ls-files", "--stage", "-z"]);
  return new TextDecoder().decode(out).split("\0").some((entry) => entry.startsWith("160000 "));
}
