/**
 * Decide which commits one pre-push ref update asks us to review (DESIGN.md "Gates" → pre-push).
 *
 * - Deletions are skipped; tags are skipped unless `reviewTags` (annotated tags are peeled).
 * - The remote's old id is known locally and is an ancestor of the pushed commit → the range is
 *   `remoteOid..localOid`, diffed from `remoteOid`'s tree. A force push (not an ancestor, e.g. after
 *   a rebase) is treated like an unknown old id below, so upstream changes are not reviewed as ours.
 * - Otherwise (new ref, or a force push over commits we do not have) → the commits reachable from
 *   `localOid` and from no remote-tracking ref of *that* remote (`--not --remotes=<remote>`); when
 *   `remote` is a URL or path (no remote of that name) → no remote-tracking ref at all
 *   (`--not --remotes`). The diff starts at the first parent of the oldest such commit, or the empty
 *   tree for a root commit.
 * - At most `maxCommits` commits: the newest N are reviewed and a note says so.
 * - When the pushed commits (those on no remote-tracking ref of that remote) include merges of
 *   commits already on the remote (e.g. `main` merged into a feature branch), the diff starts at the
 *   tree merging the base with those parents (lib/gates/pre_push/merge_base_tree.ts), so main's changes are
 *   left out; `commits` then counts the pushed commits only. On a conflict or any failure the whole
 *   range is reviewed with a note.
 * Three or four git calls, plus up to seven for merges; the remote name is never assumed to be
 * `origin`.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { EMPTY_TREE } from "../../git/repo.ts";
import { gitFailure, runGit } from "../../git/git.ts";
import type { PushUpdate } from "./stdin.ts";
import { mergeBaseTree, NOT_SEPARATED_NOTE, pushedMergeParents } from "./merge_base_tree.ts";

/** A range to review: diff `from` (commit or tree id) → `to` (commit id). */
export interface PushRange {
  from: string;
  /** The pushed commit (annotated tags peeled). */
  to: string;
  /** Commits in the range that are reviewed (≤ maxCommits). */
  commits: number;
  /** True when there were more than `maxCommits` new commits and only the newest were kept. */
  truncated: boolean;
  /** Human notes, e.g. about truncation or the fallback used. */
  notes: string[];
}

/** Either a range or why this update needs no review. */
export type PushRangeResult = { kind: "range"; range: PushRange } | {
  kind: "skip";
  reason: string;
};

/** Inputs of {@linkcode resolvePushRange}. */
export interface PushRangeOptions {
  /** Any directory inside the repository (the hook's cwd). */
  repo: string;
  /** The hook's `$1`: a remote name, or the URL/path pushed to. */
  remote: string;
  update: PushUpdate;
  /** Most commits reviewed; default 100 (config `gates.pre_push.max_commits`). */
  maxCommits?: number;
  /** Review tag pushes too; default false (config `gates.pre_push.review_tags`). */
  reviewTags?: boolean;
}

const decoder = new TextDecoder();

async function peelCommit(runner: Runner, repo: string, oid: string): Promise<string | null> {
  const r = await runGit(runner, repo, [
    "rev-parse",
    "--verify",
    "--quiet",
    "--end-of-options",
    `${oid}^{commit}`,
  ]);
  return r.code === 0 ? decoder.decode(r.stdout).trim() : null;
}

/**
 * Resolve the range of one ref update.
 *
 * @param runner subprocess seam
 * @param options repo, remote (`$1`), the update, bounds
 * @returns `{kind:"range", range}` or `{kind:"skip", reason}` (deletion, tag, not a commit, nothing new)
 * @throws {GitError} never for expected cases; only when `git rev-list` itself fails
 */
export async function resolvePushRange(
  runner: Runner,
  options: PushRangeOptions,
): Promise<PushRangeResult> {
  const { repo, remote, update } = options;
  const maxCommits = Math.max(1, options.maxCommits ?? 100);
  if (update.deletion) return { kind: "skip", reason: `deletes ${update.remoteRef}` };
  if (update.tag && !options.reviewTags) {
    return { kind: "skip", reason: `tag ${update.remoteRef} (tags are not reviewed)` };
  }
  const to = await peelCommit(runner, repo, update.localOid);
  if (!to) {
    return {
      kind: "skip",
      reason: `${update.localOid} pushed to ${update.remoteRef} is not a commit`,
    };
  }

  const notes: string[] = [];
  let known: string | null = null;
  let isRemote: boolean | null = null;
  let exclude: string[];
  if (!update.newRef) known = await peelCommit(runner, repo, update.remoteOid);
  // A force push (the remote's old tip is not an ancestor, e.g. after a rebase onto a newer main):
  // diffing old tip → new tip would show upstream changes and hide ours, so review the commits that
  // are on no remote-tracking ref instead, from the parent of the oldest one.
  const forced = known !== null && !(await isAncestor(runner, repo, known, to));
  if (forced) known = null;
  if (known) {
    exclude = [known];
  } else {
    isRemote = await isRemoteName(runner, repo, remote);
    exclude = [isRemote ? `--remotes=${remote}` : "--remotes"];
    const where = isRemote ? `"${remote}"` : "any remote";
    if (forced) {
      notes.push(
        `Force push over ${update.remoteRef} (${
          update.remoteOid.slice(0, 12)
        }): reviewing the commits not on ${where}`,
      );
    } else if (!update.newRef) {
      notes.push(
        `The remote's ${update.remoteRef} (${
          update.remoteOid.slice(0, 12)
        }) is not here: reviewing the commits not on ${where}`,
      );
    }
  }
  const rows = await listCommits(runner, repo, { to, exclude, max: maxCommits + 1 });
  if (rows.length === 0) {
    return { kind: "skip", reason: `nothing new to review on ${update.remoteRef}` };
  }
  const truncated = rows.length > maxCommits;
  const kept = rows.slice(0, maxCommits);
  const truncatedNote =
    `More than ${maxCommits} new commits: reviewing the newest ${maxCommits} only`;
  let from: string;
  if (known && !truncated) from = known;
  else from = kept[kept.length - 1][1] ?? (to.length === 64 ? EMPTY_TREE.sha256 : EMPTY_TREE.sha1);
  const whole: PushRange = {
    from,
    to,
    commits: kept.length,
    truncated,
    notes: truncated ? [...notes, truncatedNote] : notes,
  };
  if (!rows.some((r) => r.length > 2)) return { kind: "range", range: whole };

  // Merges: find the pushed commits (none on a remote-tracking ref of that remote) and fold the
  // already-pushed parents they merged into the base.
  let pushed = rows;
  let base: string | undefined = from;
  if (known) {
    isRemote ??= await isRemoteName(runner, repo, remote);
    pushed = await listCommits(runner, repo, {
      to,
      exclude: [known, isRemote ? `--remotes=${remote}` : "--remotes"],
      max: maxCommits + 1,
    });
    if (pushed.length === 0) return { kind: "range", range: whole };
    base = known;
  } else if (truncated) {
    if (pushedMergeParents(kept).length > 0) whole.notes.push(NOT_SEPARATED_NOTE);
    return { kind: "range", range: whole };
  } else {
    base = kept[kept.length - 1][1];
  }
  const parents = pushedMergeParents(pushed.slice(0, maxCommits));
  if (parents.length === 0) return { kind: "range", range: whole };
  const tree = pushed.length > maxCommits || base === undefined
    ? null
    : await mergeBaseTree(runner, repo, { base, parents });
  if (!tree) {
    whole.notes.push(NOT_SEPARATED_NOTE);
    return { kind: "range", range: whole };
  }
  const where = isRemote ? `"${remote}"` : "a remote";
  const count = `${parents.length} merged commit${parents.length === 1 ? "" : "s"}`;
  notes.push(`Left out changes already on ${where} brought in by merges (${count})`);
  return {
    kind: "range",
    range: { from: tree, to, commits: pushed.length, truncated: false, notes },
  };
}

/** True when `ancestor` is an ancestor of (or equal to) `commit` (one `git merge-base` call). */
async function isAncestor(
  runner: Runner,
  repo: string,
  ancestor: string,
  commit: string,
): Promise<boolean> {
  const result = await runGit(runner, repo, ["merge-base", "--is-ancestor", ancestor, commit]);
  if (result.code > 1) throw gitFailure(["merge-base", "--is-ancestor", ancestor, commit], result);
  return result.code === 0;
}

/** True when `name` is one of the repository's remotes (one `git remote` call). */
async function isRemoteName(runner: Runner, repo: string, name: string): Promise<boolean> {
  const remotes = await runGit(runner, repo, ["remote"]);
  return decoder.decode(remotes.stdout).split("\n").includes(name);
}

/**
 * `git rev-list --topo-order --parents` rows (`[commit, ...parents]`, newest first).
 *
 * @throws {GitError} when `git rev-list` fails
 */
async function listCommits(
  runner: Runner,
  repo: string,
  options: { to: string; exclude: string[]; max: number },
): Promise<string[][]> {
  const args = [
    "rev-list",
    "--topo-order",
    "--parents",
    `--max-count=${options.max}`,
    options.to,
    "--not",
    ...options.exclude,
  ];
  const listed = await runGit(runner, repo, args);
  if (listed.code !== 0) throw gitFailure(args, listed);
  return decoder.decode(listed.stdout).split("\n").filter((l) => l !== "").map((l) => l.split(" "));
}
