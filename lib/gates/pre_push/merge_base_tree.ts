/**
 * Leave already-pushed merged changes out of a pre-push review (docs/design.md "Pre-push gate").
 *
 * When a branch merged `main` (already on the remote), the diff base → pushed commit carries all of
 * main's changes. The review base becomes instead the tree that merges the base with those
 * already-pushed parents (`git merge-tree --write-tree <base> <parent>`, git ≥ 2.38), so the diff
 * shows the branch's own work plus conflict resolutions. Several parents are merged one after the
 * other through a virtual merge commit (`git commit-tree`, an unreferenced object: no ref, no index
 * is touched). Any conflict, an old git or any failure gives `null`: the caller reviews the whole
 * range.
 *
 * Both calls read no global or system config (`isolated`, lib/git/git.ts): a committed
 * `.gitattributes` naming `merge=<driver>` would otherwise make `merge-tree` run a merge driver the
 * user's `~/.gitconfig` defines. Without it git merges as text, and a conflict means "review the
 * whole range".
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { runGit } from "../../git/git.ts";

/** Most already-pushed merge parents folded into the base (each costs up to two git calls). */
export const MAX_MERGED_PARENTS = 3;

/** Note added when the already-pushed merged changes stay in the reviewed diff. */
export const NOT_SEPARATED_NOTE =
  "reviewing the whole range: could not separate already-pushed merged changes";

const decoder = new TextDecoder();
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Fixed identity and date of the virtual merge commits (never referenced, never pushed). */
const VIRTUAL_ENV = {
  GIT_AUTHOR_NAME: "review-gate",
  GIT_AUTHOR_EMAIL: "review-gate@localhost",
  GIT_AUTHOR_DATE: "@0 +0000",
  GIT_COMMITTER_NAME: "review-gate",
  GIT_COMMITTER_EMAIL: "review-gate@localhost",
  GIT_COMMITTER_DATE: "@0 +0000",
};

/**
 * The non-first parents of merge commits among `rows` that are not themselves in `rows` (pure).
 * With `rows` = every commit being pushed (not on the remote), those parents are already there.
 *
 * @param rows `git rev-list --parents --topo-order` rows, newest first: `[commit, ...parents]`
 * @returns distinct parent ids, oldest merge first
 */
export function pushedMergeParents(rows: readonly (readonly string[])[]): string[] {
  const inRange = new Set(rows.map((r) => r[0]));
  const out: string[] = [];
  for (const row of [...rows].reverse()) {
    for (const parent of row.slice(2)) {
      if (!inRange.has(parent) && !out.includes(parent)) out.push(parent);
    }
  }
  return out;
}

/**
 * The tree merging commit `base` with each of `parents` in turn.
 *
 * @param runner subprocess seam
 * @param repo any directory inside the repository
 * @param options `base` commit id; `parents` commit ids (1..{@linkcode MAX_MERGED_PARENTS})
 * @returns the merged tree id, or `null` on a conflict, a git without `merge-tree --write-tree`,
 *   too many parents, or any other failure (never throws for those); at most
 *   `2 × parents − 1` git calls
 */
export async function mergeBaseTree(
  runner: Runner,
  repo: string,
  options: { base: string; parents: readonly string[] },
): Promise<string | null> {
  const { parents } = options;
  if (parents.length === 0 || parents.length > MAX_MERGED_PARENTS) return null;
  let commit = options.base;
  let tree: string | null = null;
  for (const [i, parent] of parents.entries()) {
    // Exit 0 = clean (first line: tree id); 1 = conflicts; anything else = error or unknown option.
    const merged = await runGit(runner, repo, [
      "merge-tree",
      "--write-tree",
      "--no-messages",
      "--end-of-options",
      commit,
      parent,
    ], { isolated: true }).catch(() => null);
    if (!merged || merged.code !== 0) return null;
    tree = decoder.decode(merged.stdout).split("\n")[0].trim();
    if (!OID.test(tree)) return null;
    if (i === parents.length - 1) break;
    const virtual = await runGit(
      runner,
      repo,
      ["commit-tree", "--no-gpg-sign", "-p", commit, "-p", parent, "-m", "review-gate base", tree],
      { env: VIRTUAL_ENV, isolated: true },
    ).catch(() => null);
    if (!virtual || virtual.code !== 0) return null;
    commit = decoder.decode(virtual.stdout).trim();
    if (!OID.test(commit)) return null;
  }
  return tree;
}
