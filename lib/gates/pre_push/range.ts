/**
 * Decide which commits one pre-push ref update asks us to review (DESIGN.md "Gates" → pre-push).
 *
 * - Deletions are skipped; tags are skipped unless `reviewTags` (annotated tags are peeled).
 * - The remote's old id is known locally and is an ancestor of the pushed commit → the range is
 *   `remoteOid..localOid`, diffed from `remoteOid`'s tree. A force push (not an ancestor, e.g. after
 *   a rebase) is treated like an unknown old id below, so upstream changes are not reviewed as ours.
 * - Otherwise (new ref, or a force push over commits we do not have) → the commits reachable from
 *   `localOid` and from no remote-tracking ref of *that* remote (`--not --remotes=<remote>`). A URL
 *   or path in `$1` stands for the configured remotes whose `url` or `pushurl` is that URL (the same
 *   path, for a local one); when none is, what the target already has is unknown (another remote's
 *   refs say nothing about it: a fetched fork's commits are not on the target): the whole history is
 *   reviewed when no remote-tracking ref holds any of it, else the update is skipped as NOT
 *   reviewed, saying why. The diff starts at the first parent of the oldest such
 *   commit, or the empty tree for a root commit.
 * - Every new commit is in the range however many there are: the diff is the range's net change, so
 *   a file added by an older pushed commit is always shown. Past `maxCommits` a note says the
 *   commits are reviewed as one diff, and merges are no longer separated (below).
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
  /** Commits in the range (all of them are reviewed, as one net diff). */
  commits: number;
  /** True when there were more than `maxCommits` new commits (still all reviewed, merges not separated). */
  truncated: boolean;
  /** Human notes, e.g. about truncation or the fallback used. */
  notes: string[];
}

/**
 * Either a range, or why this update gets no review. `notReviewed` marks a skip of something that
 * does change the remote (a tag, an id that is not a commit here): the gate must say it was NOT
 * reviewed; a deletion or a ref with nothing new has nothing to review. `said` marks a skip the
 * gate still reports in one line (a ref with nothing new: the user sees that the gate ran).
 */
export type PushRangeResult = { kind: "range"; range: PushRange } | {
  kind: "skip";
  reason: string;
  notReviewed?: boolean;
  said?: boolean;
};

/** Inputs of {@linkcode resolvePushRange}. */
export interface PushRangeOptions {
  /** Any directory inside the repository (the hook's cwd). */
  repo: string;
  /** The hook's `$1`: a remote name, or the URL/path pushed to. */
  remote: string;
  update: PushUpdate;
  /** Past this many new commits, merges are not separated and a note says so; default 100
   * (config `gates.pre_push.max_commits`). It never shrinks the diff. */
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
  const { repo, update } = options;
  const maxCommits = Math.max(1, options.maxCommits ?? 100);
  if (update.deletion) return { kind: "skip", reason: `deletes ${update.remoteRef}` };
  if (update.tag && !options.reviewTags) {
    return {
      kind: "skip",
      reason: "tags are not reviewed (set gates.pre_push.review_tags: true to review them)",
      notReviewed: true,
    };
  }
  const to = await peelCommit(runner, repo, update.localOid);
  if (!to) {
    return {
      kind: "skip",
      reason:
        `${update.localOid} is not a commit in this repository, so there is no change to show`,
      notReviewed: true,
    };
  }
  const upstream = await upstreamOf(runner, options, to);
  // Every new commit is listed: the diff must start where the remote stops, whatever their number
  // (reviewing only the newest N would hide a file an older pushed commit added).
  const rows = await listCommits(runner, repo, { to, exclude: upstream.exclude });
  if (upstream.remotes?.length === 0 && rows.length < await countCommits(runner, repo, to)) {
    // An unknown target: another remote's refs say nothing about what it has.
    return {
      kind: "skip",
      reason:
        `${options.remote} is not the URL of any configured remote, so what it already has is unknown; add it (git remote add <name> <url>) and push by name to have the commits reviewed`,
      notReviewed: true,
    };
  }
  if (rows.length === 0) {
    return {
      kind: "skip",
      reason: "nothing new to review (every commit is already on the remote)",
      said: true,
    };
  }
  const truncated = rows.length > maxCommits;
  const { known, notes } = upstream;
  const manyNote =
    `${rows.length} new commits (more than max_commits, ${maxCommits}): their net change is reviewed as one diff`;
  const from = known ??
    rows[rows.length - 1][1] ?? (to.length === 64 ? EMPTY_TREE.sha256 : EMPTY_TREE.sha1);
  const whole: PushRange = {
    from,
    to,
    commits: rows.length,
    truncated,
    notes: truncated ? [...notes, manyNote] : notes,
  };
  if (!rows.some((r) => r.length > 2)) return { kind: "range", range: whole };
  return {
    kind: "range",
    range: await separateMerges(runner, options, { rows, whole, upstream, maxCommits }),
  };
}

/** Where the pushed commits start: the remote's old tip, or every remote-tracking ref. */
interface Upstream {
  /** The remote's old tip when it is here and an ancestor of the pushed commit, else `null`. */
  known: string | null;
  /** `git rev-list --not` arguments excluding what the remote has. */
  exclude: string[];
  /** The configured remotes `$1` stands for (lib docs above); `null` when not asked yet. */
  remotes: string[] | null;
  /** Notes on the fallback used (a force push, an old tip that is not here). */
  notes: string[];
}

/**
 * What the remote already has. A force push (the remote's old tip is not an ancestor, e.g. after a
 * rebase onto a newer main) would show upstream changes and hide ours when diffed from the old tip,
 * so it is reviewed like an unknown old tip: the commits on no remote-tracking ref, from the parent
 * of the oldest one.
 */
async function upstreamOf(
  runner: Runner,
  options: PushRangeOptions,
  to: string,
): Promise<Upstream> {
  const { repo, remote, update } = options;
  let known: string | null = null;
  if (!update.newRef) known = await peelCommit(runner, repo, update.remoteOid);
  const forced = known !== null && !(await isAncestor(runner, repo, known, to));
  if (known && !forced) return { known, exclude: [known], remotes: null, notes: [] };
  const remotes = await remotesOf(runner, repo, remote);
  const where = remotes.length ? remotes.map((r) => `"${r}"`).join(" or ") : "any remote";
  const notes: string[] = [];
  const tip = `${update.remoteRef} (${update.remoteOid.slice(0, 12)})`;
  if (forced) {
    notes.push(`Force push over ${tip}: reviewing the commits not on ${where}`);
  } else if (!update.newRef) {
    notes.push(`The remote's ${tip} is not here: reviewing the commits not on ${where}`);
  }
  return { known: null, exclude: trackingOf(remotes), remotes, notes };
}

/** Commits reachable from `to` (one `git rev-list --count`). */
async function countCommits(runner: Runner, repo: string, to: string): Promise<number> {
  const args = ["rev-list", "--count", to];
  const counted = await runGit(runner, repo, args);
  if (counted.code !== 0) throw gitFailure(args, counted);
  return Number(decoder.decode(counted.stdout).trim());
}

/**
 * Merges: find the pushed commits (none on a remote-tracking ref of that remote) and fold the
 * already-pushed parents they merged into the base, so the diff leaves out what the remote has.
 *
 * @returns the range from the merged base tree, or `whole` (with a note when the merges could not
 *   be separated)
 */
async function separateMerges(
  runner: Runner,
  options: PushRangeOptions,
  at: {
    rows: string[][];
    whole: PushRange;
    upstream: Upstream;
    maxCommits: number;
  },
): Promise<PushRange> {
  const { repo, remote } = options;
  const { whole, upstream, maxCommits } = at;
  const { known } = upstream;
  let remotes = upstream.remotes;
  let pushed = at.rows;
  let base: string | undefined;
  if (known) {
    remotes ??= await remotesOf(runner, repo, remote);
    pushed = await listCommits(runner, repo, {
      to: whole.to,
      // an unknown target: only its old tip is known to be there
      exclude: [known, ...(remotes.length ? trackingOf(remotes) : [])],
      max: maxCommits + 1,
    });
    if (pushed.length === 0) return whole;
    base = known;
  } else if (whole.truncated) {
    if (pushedMergeParents(at.rows.slice(0, maxCommits)).length > 0) {
      whole.notes.push(NOT_SEPARATED_NOTE);
    }
    return whole;
  } else {
    base = at.rows[at.rows.length - 1][1];
  }
  const parents = pushedMergeParents(pushed.slice(0, maxCommits));
  if (parents.length === 0) return whole;
  const tree = pushed.length > maxCommits || base === undefined
    ? null
    : await mergeBaseTree(runner, repo, { base, parents });
  if (!tree) {
    whole.notes.push(NOT_SEPARATED_NOTE);
    return whole;
  }
  const where = remotes?.length ? remotes.map((r) => `"${r}"`).join(" or ") : "the remote";
  const count = `${parents.length} merged commit${parents.length === 1 ? "" : "s"}`;
  const notes = [
    ...upstream.notes,
    `Left out changes already on ${where} brought in by merges (${count})`,
  ];
  return { from: tree, to: whole.to, commits: pushed.length, truncated: false, notes };
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

/**
 * `git rev-list --not` arguments for the remote-tracking refs of `remotes`; for none (an unknown
 * target) every remote-tracking ref, which is only trusted when it excludes nothing.
 */
function trackingOf(remotes: readonly string[]): string[] {
  return remotes.length ? remotes.map((r) => `--remotes=${r}`) : ["--remotes"];
}

/**
 * The configured remotes `$1` stands for: itself when it names one, else those whose `url` or
 * `pushurl` is `$1` — the same string, or for a local path (or `file://` URL) the same directory.
 * One `git config` call.
 *
 * @returns remote names, empty when `$1` is a URL or path no remote is configured with
 */
async function remotesOf(runner: Runner, repo: string, target: string): Promise<string[]> {
  const listed = await runGit(runner, repo, [
    "config",
    "--get-regexp",
    "^remote\\..*\\.(url|pushurl)$",
  ]);
  const urls = new Map<string, Set<string>>();
  for (const line of decoder.decode(listed.stdout).split("\n")) {
    const space = line.indexOf(" ");
    if (space < 0) continue;
    const key = line.slice(0, space);
    const name = key.slice("remote.".length, key.lastIndexOf("."));
    if (!urls.has(name)) urls.set(name, new Set());
    urls.get(name)!.add(line.slice(space + 1));
  }
  if (urls.has(target)) return [target];
  const wanted = await localDir(repo, target);
  const names: string[] = [];
  for (const [name, values] of urls) {
    for (const url of values) {
      if (url === target || (wanted !== null && (await localDir(repo, url)) === wanted)) {
        names.push(name);
        break;
      }
    }
  }
  return names;
}

/** The real path of a local repository URL (a path or `file://`), else `null`. */
async function localDir(repo: string, url: string): Promise<string | null> {
  const path = url.startsWith("file://") ? url.slice("file://".length) : url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || /^[^/]+:/.test(path)) return null;
  try {
    return await Deno.realPath(path.startsWith("/") ? path : `${repo}/${path}`);
  } catch {
    return null;
  }
}

/**
 * `git rev-list --topo-order --parents` rows (`[commit, ...parents]`, newest first).
 *
 * @throws {GitError} when `git rev-list` fails
 */
async function listCommits(
  runner: Runner,
  repo: string,
  options: { to: string; exclude: string[]; max?: number },
): Promise<string[][]> {
  const args = [
    "rev-list",
    "--topo-order",
    "--parents",
    ...(options.max === undefined ? [] : [`--max-count=${options.max}`]),
    options.to,
    "--not",
    ...options.exclude,
  ];
  const listed = await runGit(runner, repo, args);
  if (listed.code !== 0) throw gitFailure(args, listed);
  return decoder.decode(listed.stdout).split("\n").filter((l) => l !== "").map((l) => l.split(" "));
}
