/**
 * The read-only proof (DESIGN.md "One structured call"): fingerprint HEAD, the index and the
 * worktree before a provider runs, again after, and name what differs. Nothing is written: the
 * status call runs with `GIT_OPTIONAL_LOCKS=0` so it does not even refresh the index.
 *
 * - HEAD: `# branch.head` and `# branch.oid` of `git status --porcelain=v2 --branch` (symbolic ref
 *   and commit id).
 * - index: sha256 of `git ls-files -s -z` (mode, blob id, stage, path of every entry). Index stat
 *   refreshes (e.g. the provider running a plain `git status`) do not count as changes.
 * - worktree: every path `git status --porcelain=v2 -z --untracked-files=all --ignored=no` lists
 *   (modified, deleted, renamed, unmerged, untracked), keyed by its status line plus a signature of
 *   the file on disk: sha256 of the content (files up to 64 MiB; larger ones by size and mtime),
 *   the link target for symlinks, "absent" for deleted paths. A clean tracked file that changes
 *   appears in the listing, so it is caught too. Ignored files are not watched.
 *
 * Two git calls, run in parallel; file contents are hashed in-process.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Runner } from "../exec.ts";
import { git } from "./git.ts";
import type { Repo } from "./repo.ts";

/** A fingerprint of HEAD, the index and the worktree. Plain data (JSON-serialisable). */
export interface Snapshot {
  /** "<branch.head> <branch.oid>", e.g. "main 1a2b…" or "(detached) 1a2b…" or "main (initial)". */
  head: string;
  /** sha256 hex of `git ls-files -s -z`. */
  index: string;
  /** Repo-relative path → status line and on-disk signature, for every path git status lists. */
  files: Record<string, string>;
}

const HASH_LIMIT = 64 * 1024 * 1024;

/**
 * Take a {@linkcode Snapshot}. Two git calls in parallel; reads (never writes) listed files.
 *
 * @param runner the subprocess seam
 * @param repo the resolved repository
 * @returns the snapshot
 * @throws {import("../errors.ts").GitError} when git fails
 */
export async function takeSnapshot(runner: Runner, repo: Repo): Promise<Snapshot> {
  const [status, index] = await Promise.all([
    git(runner, repo.root, [
      "status",
      "--porcelain=v2",
      "-z",
      "--branch",
      "--untracked-files=all",
      "--ignored=no",
      "--no-renames",
    ]),
    git(runner, repo.root, ["ls-files", "-s", "-z"]),
  ]);
  const tokens = new TextDecoder().decode(status).split("\0");
  let branchHead = "";
  let branchOid = "";
  const files: Record<string, string> = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.startsWith("# branch.head ")) branchHead = token.slice(14);
    else if (token.startsWith("# branch.oid ")) branchOid = token.slice(13);
    else if (token.startsWith("#") || token === "") continue;
    else {
      const [line, path] = splitStatusLine(token);
      files[path] = line;
      if (token.startsWith("2 ")) files[tokens[++i]] = "source of a rename";
    }
  }
  await Promise.all(
    Object.keys(files).map(async (path) => {
      files[path] += ` | ${await diskSignature(`${repo.root}/${path}`)}`;
    }),
  );
  return {
    head: `${branchHead} ${branchOid}`,
    index: createHash("sha256").update(index).digest("hex"),
    files,
  };
}

/**
 * Name what differs between two snapshots: "HEAD", "index", then changed paths in sorted order.
 *
 * @returns an empty array when the snapshots are identical
 */
export function compareSnapshots(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  if (before.head !== after.head) changed.push("HEAD");
  if (before.index !== after.index) changed.push("index");
  const paths = new Set([...Object.keys(before.files), ...Object.keys(after.files)]);
  for (const path of [...paths].sort()) {
    if (before.files[path] !== after.files[path]) changed.push(path);
  }
  return changed;
}

/** Split a porcelain v2 entry into (entry without the path, path). Formats: git-status(1). */
function splitStatusLine(token: string): [string, string] {
  const fields = { "1": 8, "2": 9, "u": 10, "?": 1, "!": 1 }[token[0]] ?? 1;
  let pos = 0;
  for (let k = 0; k < fields; k++) pos = token.indexOf(" ", pos) + 1;
  return [token.slice(0, pos - 1), token.slice(pos)];
}

async function diskSignature(path: string): Promise<string> {
  try {
    const info = await Deno.lstat(path);
    if (info.isSymlink) return `link ${await Deno.readLink(path)}`;
    if (info.isDirectory) return "directory";
    if (info.size > HASH_LIMIT) return `large ${info.size} ${info.mtime?.getTime() ?? 0}`;
    const hash = createHash("sha256").update(await Deno.readFile(path)).digest("hex");
    return `file ${info.size} ${hash}`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "absent";
    return `unreadable ${(error as Error).name}`;
  }
}
