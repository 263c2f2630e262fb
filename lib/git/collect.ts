/**
 * Collect a {@linkcode Change} from git: resolve the target, turn live states into trees through a
 * temporary index (never the user's), list files and take the patch with one
 * `diff-tree -z --raw -p` (lib/git/listed_patch.ts), give each section to its file by
 * path (lib/git/change_stream.ts: type changes, binary files, other encodings), and plan what goes
 * into the prompt by hunks
 * (lib/git/plan.ts): a file too large for the budget shows the hunks that fit and names the rest
 * with their line ranges.
 *
 * Git calls for a worktree target: `add -A` + `write-tree` (temp index), then the listing with
 * the patch and — only when the index holds a submodule — `diff-files` (submodules with
 * uncommitted changes) in parallel: 3 in all (plus `rev-parse` in {@linkcode resolveRepo}, and
 * `check-attr` for the path filter while the patch streams, and two `cat-file` calls when a
 * default exclude names a file, whose content must earn the exclusion: lib/rules/exclude.ts);
 * `ls-files -v` when an index entry is marked assume-unchanged or skip-worktree, `diff-tree -p`
 * again for a patch too large to hold while the path filter runs, one `git status` per dirty
 * submodule, and for files git calls binary two `cat-file` calls plus one `diff --no-index` per
 * file decoded as text.
 *
 * Linked worktrees and independent repositories nested in the checkout are not part of a worktree
 * change (lib/git/live_tree.ts `snapshotWorktree`): they are left out and listed in coverage
 * `excluded`, so neither makes coverage partial nor costs a model call.
 *
 * The team's path filter ({@linkcode CollectOptions.exclude}, built by lib/rules/) runs on the
 * listing before the patch is planned: the files it leaves out are dropped from `files` and the plan
 * and listed in `excludedByRule`, so they never count against the budget; the files a default
 * exclude names but whose content did not earn it stay in and are listed in
 * `notExcludedByDefault`.
 *
 * Submodules are never reviewed through the diff (a gitlink's patch is one `Subproject commit`
 * line): a changed gitlink, and for worktree targets a submodule with uncommitted changes (up to
 * {@linkcode MAX_DIRTY_SUBMODULES}), are listed in coverage `omitted` as "submodule" and make
 * coverage "partial"; the agent can read them with its own tools. A change of only a submodule is
 * therefore still a change (whose diff shows nothing: see `shownNothing`).
 *
 * The fingerprint is the sha256 hex of the target kind, a NUL, and the raw `-z` listing (modes,
 * blob ids and paths of both sides of every changed file), then, when a submodule has uncommitted
 * changes, its path and the status and content hashes of its changed files. It changes exactly
 * when a changed file's content, mode or path changes, binary files included, and does not depend
 * on the budgets.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { jsonPieces } from "../base/json_pieces.ts";
import { sha256Hex, sha256OfPieces } from "../base/sha256.ts";
import { ChangeStream, type StreamedFile } from "./change_stream.ts";
import { parseRawNumstat, type RawEntry } from "./diff_parse.ts";
import { git, streamGit } from "./git.ts";
import { streamListedPatch } from "./listed_patch.ts";
import { scanRepoIndex } from "./index_file.ts";
import { listStatus } from "./status_listing.ts";
import { snapshotIndexTree, snapshotWorktree, type WorktreeSnapshot } from "./live_tree.ts";
import type { Repo } from "./repo.ts";
import type { OwnOutputs } from "./own_outputs.ts";
import { type PlanLimits, Planner, type ReviewPlan } from "./plan.ts";
import { resolveTarget } from "./target.ts";
import { narrowedLabel } from "./pathspecs.ts";
import { gitTreeView, worktreeView } from "./tree_view.ts";
import type {
  Budgets,
  Change,
  ChangedFile,
  ExcludeByRule,
  ExcludedFile,
  FilteredFile,
  NotExcludedFile,
  Target,
} from "./types.ts";

/** Options of {@linkcode collectChange}. */
export interface CollectOptions {
  repo: Repo;
  target: Target;
  /** Limits: `totalBytes` per chunk, `perFileBytes` per piece, `maxCalls` chunks (default 1). */
  budgets: Budgets;
  /** The team's path filter, applied to the listing before planning; none = every file reviewed. */
  exclude?: ExcludeByRule;
  /**
   * Called once the listing is read and the path filter has run, before the patch is taken in:
   * the reviewed tree's id (`Change.toTree`) and how many listed files the rules keep. Work that
   * needs only the tree can start here (lib/review/call_setting.ts).
   */
  onListed?: (listed: { tree: string; files: number }) => void;
  /**
   * The working tree's snapshot already under way ({@linkcode snapshotWorktree} of the same
   * repository), used instead of taking one when the target is the working tree.
   */
  worktree?: Promise<WorktreeSnapshot>;
  /**
   * For a snapshot taken here: review-gate's recorded output files, left out when unchanged
   * (lib/git/own_outputs.ts).
   */
  ownOutputs?: () => Promise<OwnOutputs>;
  /**
   * Pathspecs relative to the repository's root (lib/git/pathspecs.ts) the change is narrowed to,
   * as `git diff -- PATH…` narrows it; absent or empty: the whole change. A narrowed change says so
   * in its label and `coverage.paths`, and its fingerprint holds the paths.
   */
  paths?: readonly string[];
}

/** Most submodules with uncommitted changes listed (and fingerprinted) per change. */
export const MAX_DIRTY_SUBMODULES = 20;

/** Room kept in a piece for its section header when the reader cuts a large hunk, bytes. */
const HEADER_ROOM = 1024;

/** How every patch is asked for: plain, no external diff or textconv, 3 lines of context (the bench's floor reuses it). */
export const PATCH_ARGS: readonly string[] = [
  "-p",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--unified=3",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/**
 * Collect the change a target describes.
 *
 * @param runner the subprocess seam
 * @param options repository, target and budgets (bytes)
 * @returns the change: files in git's path order, the diff text the prompt shows (UTF-8, CRLF
 *   kept), coverage naming every omitted file or hunk, fingerprint, and a view of the reviewed
 *   tree (the worktree on disk for "worktree", else the git tree) that knows the lines the
 *   change added or edited
 * @throws {import("../base/errors.ts").UsageError} for an unknown ref or revision
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function collectChange(runner: Runner, options: CollectOptions): Promise<Change> {
  const { repo, target, budgets } = options;
  const resolved = await resolveTarget(runner, repo, target);
  const worktree = resolved.to === "worktree"
    ? await (options.worktree ?? snapshotWorktree(runner, repo, { ownOutputs: options.ownOutputs }))
    : null;
  const toTree = worktree
    ? worktree.tree
    : resolved.to === "index"
    ? await snapshotIndexTree(runner, repo)
    : resolved.to;
  const limits = {
    chunkBytes: budgets.totalBytes,
    pieceBytes: budgets.perFileBytes,
    maxChunks: Math.max(1, budgets.maxCalls ?? 1),
  };
  const paths = options.paths?.length ? [...options.paths] : undefined;
  const read = await readChange(runner, repo, {
    from: resolved.from,
    to: toTree,
    live: worktree !== null,
    limits,
    exclude: options.exclude,
    onListed: options.onListed,
    paths,
  });
  const { files, plan } = read;
  if (worktree && worktree.excluded.length > 0) plan.coverage.excluded = worktree.excluded;
  if (paths) plan.coverage.paths = paths;
  const deleted = new Set(
    read.entries.flatMap((e) =>
      e.status === "deleted" ? [e.path] : e.status === "renamed" && e.oldPath ? [e.oldPath] : []
    ),
  );
  const signature = read.dirty.map((d) => d.signature).join("\0");
  const changed = new Map(read.entries.map((e, i) => [e.path, read.streamed[i].changed]));
  return {
    target,
    label: paths ? narrowedLabel(resolved.label, paths) : resolved.label,
    root: repo.root,
    from: resolved.from,
    to: resolved.to,
    toTree,
    files,
    excludedByRule: read.excludedByRule,
    ...(read.notExcludedByDefault.length > 0
      ? { notExcludedByDefault: read.notExcludedByDefault }
      : {}),
    chunks: plan.chunks,
    get diff() {
      return plan.chunks.map((c) => c.diff).join("");
    },
    coverage: plan.coverage,
    fingerprint: await fingerprintOf(
      target.kind,
      read.raw,
      paths ? [signature, NARROWED, ...paths].join("\0") : signature,
    ),
    planId: await planIdOf(plan),
    tree: worktree
      ? worktreeView(repo.root, { deleted, changed })
      : gitTreeView(runner, repo.root, { deleted, changed, tree: toTree }),
  };
}

/** Marks the paths of a narrowed change in its fingerprint (lib/git/pathspecs.ts). */
const NARROWED = "paths";

/**
 * A read change: the raw listing, its entries, the files and the plan, dirty submodules — the files
 * the team's rules exclude taken out of each and listed apart.
 */
interface ReadChange {
  raw: Uint8Array;
  entries: RawEntry[];
  streamed: StreamedFile[];
  dirty: DirtySubmodule[];
  files: ChangedFile[];
  plan: ReviewPlan;
  excludedByRule: ExcludedFile[];
  notExcludedByDefault: NotExcludedFile[];
}

/**
 * The listing and the patch streamed into the plan (lib/git/change_stream.ts) while, for the
 * live worktree, the submodules with uncommitted changes are found; dirty submodules the listing
 * does not name are added to the plan as omitted "submodule".
 */
async function readChange(
  runner: Runner,
  repo: Repo,
  range: ListRange & { live: boolean },
): Promise<ReadChange> {
  const [dirty, listed] = await Promise.all([
    range.live ? collectDirtySubmodules(runner, repo, range.paths) : [],
    listAndStream(runner, repo.root, range),
  ]);
  const { raw, entries, excluded, notExcluded, ruled, skip, planner, stream } = listed;
  const streamed = await stream.decode(runner, repo.root);
  const files = entries.map((e, i) => changedFile(e, streamed[i]));
  const paths = new Set(entries.map((e) => e.path));
  const unlisted = dirty.filter((d) => !paths.has(d.path)).map((d) => d.path);
  if (range.exclude && unlisted.length > 0) {
    // a submodule is no blob: it never earns a default exclude (lib/rules/content_checks.ts)
    const decisions = await range.exclude(unlisted.map((path) => ({ path })));
    for (const e of decisions.excluded) {
      excluded.push(e);
      ruled.add(e.path);
    }
    notExcluded.push(...decisions.notExcluded);
  }
  for (const { path } of dirty) {
    if (paths.has(path) || ruled.has(path)) continue;
    planner.file(files.length, path);
    planner.omit({ path, reason: "submodule", lines: 0, bytes: 0 });
    files.push({ path, status: "modified", binary: false, additions: 0, deletions: 0 });
  }
  const plan = planner.finish();
  plan.fileOmitted.forEach((reason, i) => {
    if (reason) files[i].omitted = reason;
  });
  for (const i of plan.fallback) files[i].encoding ??= "windows-1252";
  const kept = (_: unknown, i: number) => !skip.has(i);
  return {
    raw,
    entries: entries.filter(kept),
    streamed: streamed.filter(kept),
    dirty: dirty.filter((d) => !ruled.has(d.path)),
    files: files.filter((f) => !ruled.has(f.path)),
    plan,
    excludedByRule: excluded,
    notExcludedByDefault: notExcluded,
  };
}

/** What to list and how: the two trees, the plan's limits, the path filter, the listing's hook. */
type ListRange =
  & { from: string; to: string; limits: PlanLimits; paths?: readonly string[] }
  & Pick<CollectOptions, "exclude" | "onListed">;

/** The listing, the team's path filter applied to it, and the plan its patch was streamed into. */
interface Streamed {
  raw: Uint8Array;
  entries: RawEntry[];
  excluded: ExcludedFile[];
  notExcluded: NotExcludedFile[];
  ruled: Set<string>;
  skip: Set<number>;
  planner: Planner;
  stream: ChangeStream;
}

/**
 * List the change and stream its patch into a new plan, in one `diff-tree` call
 * (lib/git/listed_patch.ts): the path filter runs on the listing while git prints the patch. A
 * patch too large to hold while the filter runs is read again, alone (one more call).
 */
async function listAndStream(
  runner: Runner,
  root: string,
  range: ListRange,
): Promise<Streamed> {
  // pathspecs after the trees, as `git diff-tree <tree> <tree> -- <path>…` takes them
  const ids = [range.from, range.to, ...(range.paths ? ["--", ...range.paths] : [])];
  let prepared: Omit<Streamed, "raw"> | undefined;
  // no --numstat: it makes git diff every file a second time; the patch's hunks give the counts
  const args = ["diff-tree", "-r", "-z", "-M", "--raw", ...PATCH_ARGS, ...ids];
  const { listing, complete } = await streamListedPatch(runner, root, args, async (raw) => {
    const entries = parseRawNumstat(raw);
    const { excluded, notExcluded } = range.exclude
      ? await range.exclude(entries.map(filteredFile))
      : { excluded: [], notExcluded: [] };
    const ruled = new Set(excluded.map((e) => e.path));
    const skip = new Set(entries.flatMap((e, i) => ruled.has(e.path) ? [i] : []));
    const planner = new Planner(range.limits);
    const pieceLimit = Math.min(range.limits.pieceBytes, range.limits.chunkBytes);
    // a line longer than a part is named, never shown whole past the budget nor re-sent
    const stream = new ChangeStream(entries, planner, { cutBytes: pieceLimit - HEADER_ROOM }, skip);
    prepared = { entries, excluded, notExcluded, ruled, skip, planner, stream };
    range.onListed?.({ tree: range.to, files: entries.length - skip.size });
    return (chunk) => stream.push(chunk);
  });
  const { stream } = prepared!;
  if (!complete) {
    await streamGit(
      runner,
      root,
      ["diff-tree", "-r", "-M", ...PATCH_ARGS, ...ids],
      (chunk) => stream.push(chunk),
    );
  }
  stream.end();
  return { raw: listing, ...prepared! };
}

/**
 * A listed file as the path filter sees it: its path and the blob whose content a default exclude
 * checks — the new side's, or the old side's of a deletion — when that side is a file or a symlink
 * (modes 100644, 100755, 120000).
 */
function filteredFile(e: RawEntry): FilteredFile {
  const old = e.status === "deleted";
  const id = old ? e.oldId : e.newId;
  const mode = old ? e.oldMode : e.newMode;
  if (!id || !/^1[02]/.test(mode)) return { path: e.path };
  return mode === SYMLINK ? { path: e.path, blob: id, symlink: true } : { path: e.path, blob: id };
}

/** git's mode of a symlink, whose blob is the path it points to. */
const SYMLINK = "120000";

/** A listed file as the change reports it. */
function changedFile(e: RawEntry, streamed: StreamedFile): ChangedFile {
  const file: ChangedFile = {
    path: e.path,
    ...(e.oldPath !== undefined ? { oldPath: e.oldPath } : {}),
    status: e.status,
    binary: streamed.binary,
    ...streamed.counted,
  };
  if (streamed.encoding) file.encoding = streamed.encoding;
  if (e.status !== "deleted" && e.newMode === SYMLINK) file.symlink = true;
  return file;
}

/**
 * sha256 hex of a plan: each chunk's digest (sha256 of its diff text, kept on the chunk), then the
 * omitted parts' JSON. Chunks are hashed one at a time, never joined, and the JSON in pieces, each
 * digested with Web Crypto (lib/base/sha256.ts `sha256OfPieces`: a 1M-line change names ~90,000
 * omitted hunks, 5 MB of JSON, and planning it starts no Node compatibility).
 */
async function planIdOf(plan: ReviewPlan): Promise<string> {
  for (const chunk of plan.chunks) chunk.digest = await sha256Hex(chunk.diff);
  return sha256OfPieces(
    plan.chunks.flatMap((c) => [c.digest!, "\0"]),
    jsonPieces(plan.coverage.omitted, { indent: 0 }),
  );
}

/**
 * True when none of a change's diff reaches the model although the change is not empty: every
 * changed file is binary, undecodable, a submodule, or left out by the budget. Such a change is
 * never "approved" (docs/design.md "Coverage").
 */
export function shownNothing(change: Pick<Change, "files" | "coverage">): boolean {
  return change.files.length > 0 && change.files.every((f) => f.omitted !== undefined);
}

/**
 * True when a change of the working tree holds nothing at all: no changed file (tracked, staged or
 * untracked; a file marked assume-unchanged or skip-worktree is read like any other), none left out
 * by the team's rules, no linked worktree or nested repository left out (review-gate's own output
 * files left out do not count: they are no change of the user's). Such a working tree is
 * clean: `review` without a target has nothing to review. One snapshot answers what a `git status`
 * would, so the review path asks git once, not twice.
 *
 * @param change a collected change of the "worktree" target
 */
export function isCleanWorktree(
  change: Pick<Change, "files" | "coverage" | "excludedByRule">,
): boolean {
  // review-gate's own output files are no change of the user's: alone they leave nothing to review
  return change.files.length === 0 && change.excludedByRule.length === 0 &&
    (change.coverage.excluded ?? []).every((e) => e.reason === "own-output");
}

/**
 * sha256 hex of `kind`, a NUL byte, and the raw listing bytes; then, when `extra` is not empty, a
 * NUL and `extra` (the signature of uncommitted submodule changes).
 */
export async function fingerprintOf(kind: string, raw: Uint8Array, extra = ""): Promise<string> {
  return await sha256Hex(extra === "" ? [`${kind}\0`, raw] : [`${kind}\0`, raw, "\0", extra]);
}

/** A submodule with uncommitted changes and a signature of them. */
export interface DirtySubmodule {
  path: string;
  /** Path, submodule HEAD, and every changed file's status entry and content hash. */
  signature: string;
}

/**
 * Submodules of the worktree with uncommitted changes (modified, staged or untracked files
 * inside), in path order, at most {@linkcode MAX_DIRTY_SUBMODULES}. An index with no submodule
 * entry (scanned in-process, lib/git/index_file.ts) has none, and no git call is made. Otherwise
 * `git diff-files --ignore-submodules=none` names the gitlinks whose checkout differs from the
 * index, and one `git status` per such submodule tells whether it has uncommitted changes (a moved
 * submodule HEAD alone is already a changed gitlink in the listing) and yields their signature.
 *
 * @param runner the subprocess seam
 * @param repo the repository: its worktree root, git dir (the index) and object format
 * @param pathspecs repository-relative pathspecs the change is narrowed to (none: every submodule)
 * @returns the dirty submodules (path relative to the root, signature), in path order
 * @throws {GitError} when `git diff-files` fails (a submodule's own `git status` failing skips it)
 */
export async function collectDirtySubmodules(
  runner: Runner,
  repo: Pick<Repo, "root" | "gitDir" | "objectFormat">,
  pathspecs?: readonly string[],
): Promise<DirtySubmodule[]> {
  const scan = await scanRepoIndex(repo);
  if (scan && !scan.gitlinks) return [];
  const root = repo.root;
  const out = await git(runner, root, [
    "diff-files",
    "-z",
    "--ignore-submodules=none",
    ...(pathspecs?.length ? ["--", ...pathspecs] : []),
  ]);
  const tokens = new TextDecoder().decode(out).split("\0");
  const paths: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    // ":<mode index> <mode worktree> <id> <id> <status>" NUL "<path>" (git-diff-files(1) raw format)
    if (tokens[i].startsWith(":160000 ")) paths.push(tokens[i + 1]);
  }
  const found = await Promise.all(
    paths.slice(0, MAX_DIRTY_SUBMODULES).map(async (path) => {
      const inner = await listStatus(runner, `${root}/${path}`, { ignoreSubmodules: "all" })
        .catch(() => null);
      if (inner === null || Object.keys(inner.files).length === 0) return null;
      const entries = Object.entries(inner.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return { path, signature: JSON.stringify([path, inner.head, entries]) };
    }),
  );
  return found.filter((d): d is DirtySubmodule => d !== null);
}
