/**
 * Turn the live states (the worktree incl. untracked files, the index) into tree ids without
 * touching the user's index: a copy of `.git/index` in a private `0700` temp dir becomes
 * `GIT_INDEX_FILE`, `git add -A --ignore-errors --sparse` records the worktree into it (honouring
 * .gitignore; files outside a sparse checkout's cone included), and `git write-tree` returns the tree. The temp dir is removed on every path and is
 * registered with lib/exec/tmpdir.ts, so a second Ctrl-C removes it as well. New blob and tree
 * objects land in the object store, as with any `git add`; refs, the index and the worktree are
 * never written. The copy's assume-unchanged and skip-worktree bits are cleared first (for a
 * skip-worktree file only when it is on disk, so a sparse checkout's absent files stay as they are):
 * git never re-reads a file carrying either bit, so one `git update-index` would otherwise hide an
 * edit from every review.
 *
 * @module
 */
import { GitError, StoreError, UsageError } from "../base/errors.ts";
import type { Runner } from "../exec/exec.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import { git, gitFailure, gitText, runGit } from "./git.ts";
import type { Repo } from "./repo.ts";
import { blobId } from "./blob_id.ts";
import { scanRepoIndex } from "./index_file.ts";
import type { ExcludeReason } from "./types.ts";
import { type OwnOutputs, removeOwnOutputs, untrackedOutputs } from "./own_outputs.ts";
import { readRegularText } from "../base/regular_file.ts";
import { pathExists } from "../base/path_exists.ts";

/**
 * `--sparse`: in a sparse checkout git add skips paths outside the sparse-checkout definition, so a
 * file written (or edited) outside the cone would never reach the tree; absent skip-worktree files
 * still stay as they are.
 */
const ADD_ARGS = [
  "-c",
  "advice.addEmbeddedRepo=false",
  "add",
  "-A",
  "--ignore-errors",
  "--sparse",
];
/** git's warning for a directory with its own repository (git 2.39: builtin/add.c). */
const EMBEDDED = /^warning: adding embedded git repository: (.+)$/gm;
/** git's error for a nested repository with no commit (git 2.39: `error: 'vendor/' does …`). */
const NO_COMMIT = /^error: '(.+)' does not have a commit checked out$/gm;

/** The worktree as a tree, and the directories left out of it. */
export interface WorktreeSnapshot {
  /** Tree object id (hex). */
  tree: string;
  /**
   * Linked worktrees and nested repositories inside the checkout, and review-gate's own output
   * files (lib/git/own_outputs.ts): not part of the change.
   */
  excluded: { path: string; reason: ExcludeReason }[];
  /**
   * Blob id of the index bytes the snapshot started from (`git hash-object --no-filters` of them),
   * when asked for with `withIndexId`; absent when there is no index yet.
   */
  indexId?: string;
}

/**
 * The worktree as `git add -A` would record it: tracked files with their current content,
 * deletions applied, untracked files added, ignored files left out — except directories that hold
 * a repository of their own and are not in the index: linked worktrees of this repository (other
 * checkouts, such as the ones `claude -w` makes under `.claude/worktrees/`) and independent
 * repositories nested in the checkout. `git add -A` would record them as gitlinks (warning
 * "adding embedded git repository"), so another session's commits would change this worktree's
 * tree; they are not part of this change and are left out and listed instead. Nested repositories
 * without a commit, which git cannot add at all, are listed the same way. Submodules (gitlinks in
 * the index) stay. `--ignore-errors` lets one unreadable file keep its indexed state (git names it
 * on stderr) instead of failing the whole snapshot.
 *
 * Tracked files marked assume-unchanged or skip-worktree (`git update-index`) are read like any
 * other: the bits are cleared on the private index copy ({@linkcode clearIndexFlags}).
 *
 * Git calls: `add -A` and `write-tree`, plus `ls-files -v` and `update-index` when an entry
 * carries one of those bits (the index file is scanned for them in-process first) and
 * `update-index --force-remove` when something is left out.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @param options `withIndexId`: also give the blob id of the index bytes copied (one more read);
 *   `ownOutputs`: review-gate's recorded output files in this checkout, left out when their
 *   snapshot is exactly what review-gate wrote (lib/git/own_outputs.ts; a failure to read them
 *   leaves nothing out)
 *   `onStarted`: called once `git add` has been started (not when the snapshot fails before)
 * @returns the tree and what was left out, in path order
 * @throws {GitError} when git fails (stderr tail kept on the error)
 * @throws {StoreError} when the temp dir for the index copy cannot be created (a bad `TMPDIR`)
 */
export function snapshotWorktree(
  runner: Runner,
  repo: Repo,
  options: {
    withIndexId?: boolean;
    ownOutputs?: () => Promise<OwnOutputs>;
    onStarted?: () => void;
  } = {},
): Promise<WorktreeSnapshot> {
  return withTempIndex(repo, async (env, copiedId) => {
    // An index with flagged entries gives no id: a copy of it records another tree than ours.
    const indexId = (await clearIndexFlags(runner, repo, env)) ? undefined : copiedId;
    const outputs = options.ownOutputs ? await options.ownOutputs().catch(() => ({})) : {};
    const untracked = await untrackedOutputs(runner, repo, env, outputs);
    const adding = runGit(runner, repo.root, ADD_ARGS, { env });
    options.onStarted?.();
    const result = await adding;
    // exit 1: --ignore-errors skipped files it could not index (git listed them on stderr)
    if (result.code !== 0 && result.code !== 1) throw gitFailure(ADD_ARGS, result);
    const stderr = new TextDecoder().decode(result.stderr);
    const embedded = [...stderr.matchAll(EMBEDDED)].map((m) => m[1]);
    if (embedded.length > 0) {
      await git(runner, repo.root, ["update-index", "--force-remove", "-z", "--stdin"], {
        env,
        stdin: embedded.join("\0") + "\0",
      });
    }
    const own = await removeOwnOutputs(runner, repo, env, untracked, outputs);
    const tree = await gitText(runner, repo.root, ["write-tree"], { env });
    const paths = [...embedded, ...noCommitRepos(stderr).map((p) => p.replace(/\/$/, ""))].sort();
    const excluded: WorktreeSnapshot["excluded"] = await Promise.all(
      paths.map(async (path) => ({
        path,
        reason: await isLinkedWorktree(repo, path)
          ? "linked-worktree" as const
          : "nested-repository" as const,
      })),
    );
    if (own.length > 0) {
      excluded.push(...own.map((path) => ({ path, reason: "own-output" as const })));
      excluded.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    }
    return { tree, excluded, ...(indexId ? { indexId } : {}) };
  }, options.withIndexId);
}

/**
 * Tree id of the worktree ({@linkcode snapshotWorktree} without the list of what was left out).
 *
 * @throws {GitError} when git fails
 * @throws {StoreError} when the temp dir for the index copy cannot be created
 */
export async function snapshotWorktreeTree(runner: Runner, repo: Repo): Promise<string> {
  return (await snapshotWorktree(runner, repo)).tree;
}

/** Tracked entries whose file git does not re-read (`git update-index` bits), by bit to clear. */
export interface FlaggedEntries {
  /** Paths marked assume-unchanged. */
  assumed: string[];
  /** Paths marked skip-worktree whose file is on disk. */
  skipped: string[];
}

/**
 * The index entries git would not re-read from disk: assume-unchanged ones, and skip-worktree ones
 * whose file is on disk (a sparse checkout's absent files are left alone: clearing their bit would
 * record them as deleted). `git ls-files -v` tags such entries with a lowercase letter
 * (assume-unchanged) or `S`/`s` (skip-worktree); the format is git's
 * (Documentation/git-ls-files.txt, `-v`). The index file is scanned in-process first
 * (lib/git/index_file.ts): when no entry carries either bit — the usual case — no git call; else
 * one (`ls-files -v`).
 *
 * @param env extra environment (e.g. `GIT_INDEX_FILE` naming a private index copy)
 * @throws {GitError} when git fails
 */
export async function flaggedEntries(
  runner: Runner,
  repo: Repo,
  env: Record<string, string> = {},
): Promise<FlaggedEntries> {
  const scan = await scanRepoIndex(repo, env.GIT_INDEX_FILE);
  if (scan && !scan.flagged) return { assumed: [], skipped: [] };
  const listing = new TextDecoder().decode(
    await git(runner, repo.root, ["ls-files", "-v", "-z"], { env }),
  );
  const flagged: FlaggedEntries = { assumed: [], skipped: [] };
  for (const entry of listing.split("\0")) {
    if (entry.length < 3 || entry[0] === "H") continue;
    const tag = entry[0];
    const path = entry.slice(2);
    const skip = tag === "S" || tag === "s";
    if (skip && !(await pathExists(`${repo.root}/${path}`))) continue;
    if (skip) flagged.skipped.push(path);
    if (tag !== tag.toUpperCase()) flagged.assumed.push(path);
  }
  return flagged;
}

/**
 * Clear the bits {@linkcode flaggedEntries} finds on the index `env` points at (a private copy),
 * so `git add -A` re-reads those files.
 *
 * @param env the environment naming the private index (`GIT_INDEX_FILE`)
 * @throws {GitError} when git fails
 */
async function clearIndexFlags(
  runner: Runner,
  repo: Repo,
  env: Record<string, string>,
): Promise<boolean> {
  const { assumed, skipped } = await flaggedEntries(runner, repo, env);
  const clear = [["--no-assume-unchanged", assumed], ["--no-skip-worktree", skipped]] as const;
  for (const [flag, paths] of clear) {
    if (paths.length === 0) continue;
    await git(runner, repo.root, ["update-index", flag, "-z", "--stdin"], {
      env,
      stdin: paths.join("\0") + "\0",
    });
  }
  return assumed.length > 0 || skipped.length > 0;
}

/** True when `path/.git` is a gitdir file pointing into this repository's `worktrees/`. */
async function isLinkedWorktree(repo: Repo, path: string): Promise<boolean> {
  try {
    const text = await readRegularText(`${repo.root}/${path}/.git`);
    const target = text.match(/^gitdir: (.+)$/m)?.[1]?.trim();
    if (!target) return false;
    const absolute = target.startsWith("/") ? target : `${repo.root}/${path}/${target}`;
    const [real, common] = await Promise.all([
      Deno.realPath(absolute),
      Deno.realPath(repo.commonDir),
    ]);
    return real.startsWith(`${common}/worktrees/`);
  } catch {
    return false;
  }
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
 * (lib/exec/tmpdir.ts registers it, so a second Ctrl-C removes it too); with `withIndexId`, the
 * body also gets the blob id of the copied bytes.
 */
async function withTempIndex<T>(
  repo: Repo,
  body: (env: Record<string, string>, indexId?: string) => Promise<T>,
  withIndexId = false,
): Promise<T> {
  return await withPrivateTempDir(async (dir) => {
    const index = `${dir}/index`;
    let indexId: string | undefined;
    try {
      // Keep the index's mtime on the copy: git's racy-clean check compares each entry's mtime
      // with the index file's, and a fresh mtime would make a file edited in the same second as
      // the last index write (same size) look unchanged, so the change would be missed.
      const { mtime, atime } = await Deno.stat(`${repo.gitDir}/index`);
      await Deno.copyFile(`${repo.gitDir}/index`, index);
      if (mtime) await Deno.utime(index, atime ?? mtime, mtime);
      if (withIndexId) indexId = await blobId(await Deno.readFile(index), repo.objectFormat);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        throw new StoreError(dir, error, "a copy of the index in");
      }
      // no index yet (fresh repository): git starts from an empty one
    }
    return await body({ GIT_INDEX_FILE: index }, indexId);
  }, { prefix: "review-gate-index-" });
}
