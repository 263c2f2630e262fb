/**
 * The read-only proof (docs/design.md "Read-only proof"): fingerprint HEAD, the index, the
 * worktree,
 * the git dir's config, hooks, `info/` and refs, and changed submodules before a provider runs,
 * again after, and name what differs. Nothing is written: every git call runs with
 * `GIT_OPTIONAL_LOCKS=0` so `git status` does not even refresh the index.
 *
 * - HEAD: `# branch.head` and `# branch.oid` of `git status --porcelain=v2 --branch` (symbolic ref
 *   and commit id).
 * - index: sha256 of the index side of every tracked entry the status lists (`X`, mode and blob id
 *   in the index, every stage of an unmerged path: {@linkcode import("./status_listing.ts").indexSide}).
 *   With HEAD unchanged that determines every entry's mode, blob id and stage — a path the status
 *   does not list, or lists as unchanged in the index, is in the index as in HEAD — so it is the
 *   index's content without a second git call. Index stat refreshes (e.g. the provider running a
 *   plain `git status`) do not count as changes.
 * - worktree: every path `git status --porcelain=v2 -z --untracked-files=all --ignored=no
 *   --ignore-submodules=none` lists, keyed by its status line plus a signature of the file on disk
 *   (see {@linkcode listStatus}). A clean tracked file that changes appears in the listing, so it is
 *   caught too.
 * - git dir ({@linkcode gitMetaSignature}): the config files ("git config"), the hooks directory as
 *   `git rev-parse --git-path hooks` resolves it (core.hooksPath honoured; ".git/hooks/pre-commit"),
 *   `.git/info/*` and every local ref, read from the ref files (lib/git/local_refs.ts;
 *   "refs/heads/x").
 * - submodules: each submodule the status lists as changed (up to {@linkcode MAX_SUBMODULES}) is
 *   listed the same way one level down: its HEAD joins the superproject entry ("sm") and its changed
 *   files appear as "sm/path". A clean submodule that gets written shows up in the superproject's
 *   listing, so it is caught as "sm".
 *
 * Not counted: the platform's own metadata files (Finder's `.DS_Store`, AppleDouble `._*`, each
 * recognised by its first bytes: lib/git/platform_files.ts), which the OS writes at any time.
 *
 * Not detected (cheaply): writes to ignored files, to files outside the repository, inside nested
 * submodules (two levels down), to a submodule's own git dir (`.git/modules/…`), and to other parts
 * of the git dir (objects, logs, `FETCH_HEAD`); the README states this limit.
 *
 * One git call (`status`; refs are read from their files and the hooks directory comes from
 * {@linkcode import("./repo.ts").resolveRepo}) plus one per changed submodule; file contents are
 * hashed in-process.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { sha256Hex } from "../base/sha256.ts";
import { gitMetaSignature } from "./git_meta.ts";
import type { Repo } from "./repo.ts";
import { listStatus, PLATFORM_METADATA } from "./status_listing.ts";

/** A fingerprint of HEAD, the index, the worktree and the git dir. Plain data (JSON-serialisable). */
export interface Snapshot {
  /** "<branch.head> <branch.oid>", e.g. "main 1a2b…" or "(detached) 1a2b…" or "main (initial)". */
  head: string;
  /** sha256 hex of the index side of the status entries (see the module doc). */
  index: string;
  /**
   * Repo-relative path → status line and on-disk signature, for every path git status lists;
   * changed submodules' files as "<submodule>/<path>".
   */
  files: Record<string, string>;
  /** Git-dir config, hooks, `info/` and refs: name → signature. Absent in older snapshots. */
  git?: Record<string, string>;
}

/** Most changed submodules listed one level down. */
export const MAX_SUBMODULES = 20;

/**
 * Take a {@linkcode Snapshot}. Reads (never writes) listed files and git-dir metadata.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @returns the snapshot
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function takeSnapshot(runner: Runner, repo: Repo): Promise<Snapshot> {
  const [status, meta] = await Promise.all([
    listStatus(runner, repo.root, { ignoreSubmodules: "none" }),
    gitMetaSignature(runner, repo),
  ]);
  const files = status.files;
  await Promise.all(
    status.submodules.slice(0, MAX_SUBMODULES).map(async (path) => {
      try {
        const inner = await listStatus(runner, `${repo.root}/${path}`, {
          prefix: `${path}/`,
          ignoreSubmodules: "all",
        });
        files[path] += ` | HEAD ${inner.head}`;
        Object.assign(files, inner.files);
      } catch {
        files[path] += " | unreadable submodule";
      }
    }),
  );
  return {
    head: status.head,
    index: await sha256Hex(status.indexEntries.join("\0")),
    files,
    git: meta,
  };
}

/**
 * Name what differs between two snapshots: "HEAD", "index", then changed git-dir entries ("git
 * config", ".git/hooks/pre-commit", "refs/heads/x"), then changed paths, each group sorted.
 *
 * @returns an empty array when the snapshots are identical
 */
export function compareSnapshots(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  if (before.head !== after.head) changed.push("HEAD");
  if (before.index !== after.index) changed.push("index");
  changed.push(...differingKeys(before.git ?? {}, after.git ?? {}));
  // the OS's own metadata files (Finder's .DS_Store) come and go at any time: not a write
  const metadata = (entry: string | undefined) =>
    entry === undefined || entry.endsWith(PLATFORM_METADATA);
  changed.push(
    ...differingKeys(before.files, after.files).filter((key) =>
      !(metadata(before.files[key]) && metadata(after.files[key]))
    ),
  );
  return changed;
}

function differingKeys(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].sort().filter((key) => a[key] !== b[key]);
}
