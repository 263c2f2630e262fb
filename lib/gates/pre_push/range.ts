/**
 * Decide which commits one pre-push ref update asks us to review (docs/design.md "Pre-push gate").
 *
 * - Deletions are skipped; tags are skipped unless `reviewTags` (annotated tags are peeled).
 * - The remote's old id is known locally and is an ancestor of the pushed commit → the range is
 *   `remoteOid..localOid`, diffed from `remoteOid`'s tree. git's stdin line is what the remote
 *   advertised, so nothing else needs proving. A force push (not an ancestor, e.g. after a rebase)
 *   is treated like an unknown old id below, so upstream changes are not reviewed as ours.
 * - Otherwise (new ref, or a force push over commits we do not have) → the commits reachable from
 *   `localOid` that are not already on the remote. Remote-tracking refs are only the user's notes
 *   of what a remote had (anything can write one; a ref deleted on the remote stays until a prune),
 *   so they are never taken on their word: when the remote-tracking refs of that remote (`$1` a
 *   name, or the configured remotes whose `url`/`pushurl` is that URL or the same local directory;
 *   every remote-tracking ref when none is) would leave any commit out, the remote is asked once
 *   per push what it has (`git ls-remote --heads` of the URL pushed to,
 *   lib/gates/pre_push/remote_refs.ts), and the commits left out are exactly those reachable from a
 *   branch tip it advertises that is a commit here. A tracking ref whose commits are not among
 *   those counts for nothing: its commits are reviewed, with a note. When the remote cannot be
 *   asked (offline, a hang past the bound, an error), or advertises only commits we do not have
 *   (fetch first) while tracking refs claim some, the update is skipped as NOT reviewed with
 *   `unproven` (the gate applies `on_error`) — never "nothing new" on an unproven ref. The diff starts at the first parent of the oldest such
 *   commit, or the empty tree for a root commit.
 * - `base` is the commit on the remote the range starts from (the old tip, or that first parent;
 *   the empty tree for a root): the gate reads the push's rules there (lib/gates/pre_push/rules.ts).
 * - Every new commit is in the range however many there are: the diff is the range's net change, so
 *   a file added by an older pushed commit is always shown. Past `maxCommits` a note says the
 *   commits are reviewed as one diff, and merges are no longer separated (below).
 * - When the pushed commits include merges of commits already on the remote (e.g. `main` merged
 *   into a feature branch), the diff starts at the tree merging the base with those parents
 *   (lib/gates/pre_push/merge_base_tree.ts), so main's changes are left out; `commits` then counts
 *   the pushed commits only. "Already on the remote" is again what the remote advertises; when it
 *   cannot be asked, or on a conflict or any failure, the whole range is reviewed with a note.
 * A few git calls, plus up to seven for merges, plus at most one `ls-remote` per push; the remote
 * name is never assumed to be `origin`.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { EMPTY_TREE } from "../../git/repo.ts";
import { gitFailure, runGit } from "../../git/git.ts";
import type { PushUpdate } from "./stdin.ts";
import { mergeBaseTree, NOT_SEPARATED_NOTE, pushedMergeParents } from "./merge_base_tree.ts";
import { type Advertised, rememberedRemote } from "./remote_refs.ts";

/** A range to review: diff `from` (commit or tree id) → `to` (commit id). */
export interface PushRange {
  from: string;
  /** The pushed commit (annotated tags peeled). */
  to: string;
  /**
   * The commit already on the remote the range starts from (the remote's old tip, or the first
   * parent of the oldest pushed commit), or the empty tree for a root: where the rules are read.
   */
  base: string;
  /** Commits in the range (all of them are reviewed, as one net diff). */
  commits: number;
  /** True when there were more than `maxCommits` new commits (still all reviewed, merges not separated). */
  truncated: boolean;
  /** Human notes, e.g. about truncation or the fallback used. */
  notes: string[];
  /** The range rests on the remote's `ls-remote` answer (a push stamp must not replay it). */
  askedRemote?: boolean;
}

/**
 * Either a range, or why this update gets no review. `notReviewed` marks a skip of something that
 * does change the remote (a tag, an id that is not a commit here): the gate must say it was NOT
 * reviewed; `unproven` too, and then `on_error` applies (what the remote has could not be proven).
 * A deletion or a ref with nothing new has nothing to review. `said` marks a skip the gate still
 * reports in one line (a ref with nothing new: the user sees that the gate ran); `askedRemote`
 * that the answer rests on the remote's `ls-remote` answer.
 */
export type PushRangeResult = { kind: "range"; range: PushRange } | {
  kind: "skip";
  reason: string;
  notReviewed?: boolean;
  unproven?: boolean;
  said?: boolean;
  askedRemote?: boolean;
};

/** Inputs of {@linkcode resolvePushRange}. */
export interface PushRangeOptions {
  /** Any directory inside the repository (the hook's cwd). */
  repo: string;
  /** The hook's `$1`: a remote name, or the URL/path pushed to. */
  remote: string;
  /** The hook's `$2`, the URL git pushes to (asked by `ls-remote`); default `remote`. */
  url?: string;
  /** The remote's answer, shared by the updates of one push; default: asked once on first need. */
  advertised?: () => Promise<Advertised>;
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
 * @param options repo, remote (`$1`) and URL (`$2`), the update, bounds
 * @returns `{kind:"range", range}` or `{kind:"skip", reason}` (deletion, tag, not a commit,
 *   nothing new, what the remote has could not be proven)
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
  const ask = options.advertised ??
    rememberedRemote(runner, repo, options.url ?? options.remote);
  const upstream = await upstreamOf(runner, { ...options, advertised: ask }, to);
  if ("skip" in upstream) return upstream.skip;
  const { rows } = upstream;
  if (rows.length === 0) {
    return {
      kind: "skip",
      reason: "nothing new to review (every commit is already on the remote)",
      said: true,
      ...(upstream.askedRemote ? { askedRemote: true } : {}),
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
    base: from,
    commits: rows.length,
    truncated,
    notes: truncated ? [...notes, manyNote] : notes,
    ...(upstream.askedRemote ? { askedRemote: true } : {}),
  };
  if (!rows.some((r) => r.length > 2)) return { kind: "range", range: whole };
  return {
    kind: "range",
    range: await separateMerges(runner, { ...options, advertised: ask }, {
      rows,
      whole,
      upstream,
      maxCommits,
    }),
  };
}

/** Where the pushed commits start: the remote's old tip, or what the remote is proven to have. */
interface Upstream {
  /** The remote's old tip when it is here and an ancestor of the pushed commit, else `null`. */
  known: string | null;
  /** The new commits, `git rev-list --topo-order --parents` rows, newest first. */
  rows: string[][];
  /** The configured remotes `$1` stands for (lib docs above); `null` when not asked yet. */
  remotes: string[] | null;
  /** The advertised ids that are commits here, when the remote was asked. */
  proven?: string[];
  /** The rows rest on the remote's answer. */
  askedRemote: boolean;
  /** Notes on the fallback used (a force push, an old tip that is not here, unproven refs). */
  notes: string[];
}

type Options = PushRangeOptions & { advertised: () => Promise<Advertised> };

/**
 * What the remote already has. A force push (the remote's old tip is not an ancestor, e.g. after a
 * rebase onto a newer main) would show upstream changes and hide ours when diffed from the old tip,
 * so it is reviewed like an unknown old tip: the commits not on the remote, from the parent of the
 * oldest one.
 */
async function upstreamOf(
  runner: Runner,
  options: Options,
  to: string,
): Promise<Upstream | { skip: PushRangeResult }> {
  const { repo, remote, update } = options;
  let known: string | null = null;
  if (!update.newRef) known = await peelCommit(runner, repo, update.remoteOid);
  const forced = known !== null && !(await isAncestor(runner, repo, known, to));
  if (known && !forced) {
    const rows = await listCommits(runner, repo, { to, exclude: [known] });
    return { known, rows, remotes: null, askedRemote: false, notes: [] };
  }
  const remotes = await remotesOf(runner, repo, remote);
  const where = remotes.length ? remotes.map((r) => `"${r}"`).join(" or ") : remote;
  const notes: string[] = [];
  const tip = `${update.remoteRef} (${update.remoteOid.slice(0, 12)})`;
  if (forced) {
    notes.push(`Force push over ${tip}: reviewing the commits not on ${where}`);
  } else if (!update.newRef) {
    notes.push(`The remote's ${tip} is not here: reviewing the commits not on ${where}`);
  }
  const byTracking = await listCommits(runner, repo, { to, exclude: trackingOf(remotes) });
  if (byTracking.length > 0 && closedUnderParents(byTracking)) {
    // no remote-tracking ref leaves anything out (the whole history of `to` is listed): nothing
    // rests on one, nothing to prove
    return { known: null, rows: byTracking, remotes, askedRemote: false, notes };
  }
  const proven = await provenOnRemote(runner, options);
  if (!proven.ok) {
    return {
      skip: unprovenSkip(`could not ask ${remote} which commits it has (${proven.reason})`),
    };
  }
  const rows = await listCommits(runner, repo, { to, exclude: [], excludeIds: proven.ids });
  const claimed = new Set(byTracking.map((r) => r[0]));
  const unproven = rows.filter((r) => !claimed.has(r[0])).length;
  if (unproven > 0 && proven.ids.length === 0 && proven.advertised > 0) {
    return {
      skip: unprovenSkip(
        `${remote} has moved on to commits that are not here, so which of these commits it already has cannot be proven (git fetch ${remote}, then push again)`,
      ),
    };
  }
  if (unproven > 0) {
    notes.push(
      `${unproven} commit${unproven === 1 ? "" : "s"} that remote-tracking refs of ${where} list ${
        unproven === 1 ? "is" : "are"
      } not on it (it does not advertise them): reviewed as part of this push`,
    );
  }
  return { known: null, rows, remotes, proven: proven.ids, askedRemote: true, notes };
}

/** The skip of an update whose range could not be proven: NOT reviewed, `on_error` applies. */
function unprovenSkip(reason: string): PushRangeResult {
  return {
    kind: "skip",
    reason,
    notReviewed: true,
    unproven: true,
    askedRemote: true,
  };
}

/**
 * The ids the remote advertises that are commits here (one `git cat-file --batch-check`).
 *
 * @returns them and how many ids it advertised in all, or why it could not be asked
 */
async function provenOnRemote(
  runner: Runner,
  options: Options,
): Promise<{ ok: true; ids: string[]; advertised: number } | { ok: false; reason: string }> {
  const answer = await options.advertised();
  if (!answer.ok) return answer;
  if (answer.ids.length === 0) return { ok: true, ids: [], advertised: 0 };
  const checked = await runGit(runner, options.repo, ["cat-file", "--batch-check"], {
    stdin: answer.ids.join("\n") + "\n",
  });
  if (checked.code !== 0) throw gitFailure(["cat-file", "--batch-check"], checked);
  const ids = decoder.decode(checked.stdout).split("\n").flatMap((line) => {
    const [id, type] = line.split(" ");
    return type === "commit" ? [id] : [];
  });
  return { ok: true, ids, advertised: answer.ids.length };
}

/**
 * True when every parent of every listed commit is listed too (pure): the rows are then the whole
 * history of their tip, so the exclusions that produced them left nothing out.
 *
 * @param rows `git rev-list --parents` rows (`[commit, ...parents]`)
 */
function closedUnderParents(rows: readonly (readonly string[])[]): boolean {
  const listed = new Set(rows.map((r) => r[0]));
  return rows.every((r) => r.slice(1).every((parent) => listed.has(parent)));
}

/**
 * Merges: find the pushed commits (none on the remote) and fold the already-pushed parents they
 * merged into the base, so the diff leaves out what the remote has.
 *
 * @returns the range from the merged base tree, or `whole` (with a note when the merges could not
 *   be separated)
 */
async function separateMerges(
  runner: Runner,
  options: Options,
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
  let pushed = at.rows;
  let base: string | undefined;
  let asked = upstream.askedRemote;
  if (known) {
    // the merged parents are only "already there" when the remote says so
    const proven = await provenOnRemote(runner, options);
    if (!proven.ok) {
      whole.notes.push(
        `${NOT_SEPARATED_NOTE} (could not ask the remote which commits it has: ${proven.reason})`,
      );
      return whole;
    }
    asked = true;
    pushed = await listCommits(runner, repo, {
      to: whole.to,
      exclude: [known],
      excludeIds: proven.ids,
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
  const remotes = upstream.remotes ?? await remotesOf(runner, repo, remote);
  const where = remotes.length ? remotes.map((r) => `"${r}"`).join(" or ") : "the remote";
  const count = `${parents.length} merged commit${parents.length === 1 ? "" : "s"}`;
  const notes = [
    ...upstream.notes,
    `Left out changes already on ${where} brought in by merges (${count})`,
  ];
  return {
    from: tree,
    to: whole.to,
    base: whole.base,
    commits: pushed.length,
    truncated: false,
    notes,
    ...(asked ? { askedRemote: true } : {}),
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
 * `git rev-list --topo-order --parents` rows (`[commit, ...parents]`, newest first) of the commits
 * reachable from `to` and from none of `exclude` (revision arguments) or `excludeIds` (commit ids,
 * given on stdin: a remote may advertise thousands).
 *
 * @throws {GitError} when `git rev-list` fails
 */
async function listCommits(
  runner: Runner,
  repo: string,
  options: { to: string; exclude: string[]; excludeIds?: readonly string[]; max?: number },
): Promise<string[][]> {
  const ids = options.excludeIds ?? [];
  const args = [
    "rev-list",
    "--topo-order",
    "--parents",
    ...(options.max === undefined ? [] : [`--max-count=${options.max}`]),
    ...(ids.length > 0 ? ["--stdin"] : []),
    options.to,
    "--not",
    ...options.exclude,
  ];
  const listed = await runGit(runner, repo, args, {
    ...(ids.length > 0 ? { stdin: ids.map((id) => `^${id}\n`).join("") } : {}),
  });
  if (listed.code !== 0) throw gitFailure(args, listed);
  return decoder.decode(listed.stdout).split("\n").filter((l) => l !== "").map((l) => l.split(" "));
}
