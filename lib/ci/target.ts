/**
 * What a CI job reviews, resolved with git: the pull/merge request's change as a tree-to-tree
 * target, and the commit on the trusted side (the base) that team rules and acknowledgements are read
 * from. A merge commit the CI built (GitHub's `refs/pull/N/merge`, GitLab merged results) is
 * reviewed from its first parent, exactly what the merge brings; otherwise the request's head from
 * its merge base with the base. Shallow checkouts (`actions/checkout` fetches one commit by
 * default; GitLab clones 20 deep) miss those commits: each missing one is fetched by id from
 * `origin`, one commit deep (its tree is all a tree diff needs).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import { runGit } from "../git/git.ts";
import type { Repo } from "../git/repo.ts";
import type { Target } from "../git/types.ts";
import type { CiContext } from "./context.ts";

/** A request's review target. */
export interface CiTarget {
  target: Target;
  /** The trusted side: the base commit rules and acknowledgements are read from. */
  trusted: string;
  /** What was done to get there (fetches, fallbacks), one line each. */
  notes: string[];
}

const decoder = new TextDecoder();

/**
 * Make sure a commit is in the clone: fetch it by id from `origin`, one commit deep, when missing.
 *
 * @returns true when the commit is there (now)
 */
export async function ensureCommit(
  runner: Runner,
  root: string,
  sha: string,
  notes: string[],
): Promise<boolean> {
  const has = async () =>
    (await runGit(runner, root, ["cat-file", "-e", `${sha}^{commit}`])).code === 0;
  if (await has()) return true;
  const fetched = await runGit(runner, root, [
    "fetch",
    "--quiet",
    "--no-tags",
    "--no-recurse-submodules",
    "--depth=1",
    "origin",
    sha,
  ]);
  if (fetched.code === 0 && await has()) {
    notes.push(`fetched ${sha.slice(0, 12)} from origin (shallow checkout)`);
    return true;
  }
  return false;
}

/** The parents of a commit, read from the object itself (works in a shallow clone). */
async function parentsOf(runner: Runner, root: string, sha: string): Promise<string[]> {
  const result = await runGit(runner, root, ["cat-file", "commit", sha]);
  if (result.code !== 0) return [];
  const header = decoder.decode(result.stdout).split("\n\n")[0];
  return header.split("\n").filter((l) => l.startsWith("parent ")).map((l) => l.slice(7));
}

/** The merge commit's first parent → it, when both can be had. */
async function mergeTarget(
  runner: Runner,
  repo: Repo,
  at: { merge: string; label: string; notes: string[] },
): Promise<CiTarget | null> {
  if (!await ensureCommit(runner, repo.root, at.merge, at.notes)) return null;
  const [first] = await parentsOf(runner, repo.root, at.merge);
  if (!first || !await ensureCommit(runner, repo.root, first, at.notes)) return null;
  return {
    target: { kind: "tree", from: first, to: at.merge, label: `${at.label} (as merged)` },
    trusted: first,
    notes: at.notes,
  };
}

/**
 * Resolve a request's review target.
 *
 * @param runner the subprocess seam (CI git hardening already on)
 * @param repo the checkout
 * @param ctx the request (lib/ci/context.ts)
 * @throws {UsageError} when the commits cannot be had or their merge base is not in the clone
 *   (the message says which `fetch-depth` to use)
 */
export async function resolveCiTarget(
  runner: Runner,
  repo: Repo,
  ctx: Extract<CiContext, { kind: "request" }>,
): Promise<CiTarget> {
  const notes: string[] = [];
  if (ctx.mergeCommit) {
    const merged = await mergeTarget(runner, repo, {
      merge: ctx.mergeCommit,
      label: ctx.label,
      notes,
    });
    if (merged) return merged;
    notes.push(
      `the merge commit ${
        ctx.mergeCommit.slice(0, 12)
      } is not available: reviewing the head from its merge base`,
    );
  }
  const { head, base } = ctx;
  if (!head) {
    throw new UsageError(
      `Cannot review ${ctx.label}: neither its merge commit nor its head commit is known`,
    );
  }
  for (const sha of [base, head]) {
    if (!await ensureCommit(runner, repo.root, sha, notes)) {
      throw new UsageError(
        `Cannot review ${ctx.label}: commit ${sha} is not in this clone and could not be fetched from origin`,
      );
    }
  }
  let from = base;
  if (!ctx.baseIsMergeBase) {
    const mb = await runGit(runner, repo.root, ["merge-base", base, head]);
    if (mb.code !== 0) {
      throw new UsageError(
        `Cannot review ${ctx.label}: the merge base of ${base.slice(0, 12)} and ${
          head.slice(0, 12)
        } is not in this shallow clone; check out more history (actions/checkout: fetch-depth: 0; GitLab: GIT_DEPTH: "0")`,
      );
    }
    from = decoder.decode(mb.stdout).trim();
  }
  return { target: { kind: "tree", from, to: head, label: ctx.label }, trusted: base, notes };
}
