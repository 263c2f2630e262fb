/**
 * Write a private, read-only copy of exactly the reviewed tree: the provider child's working
 * directory (lib/session/workspace.ts explains why). One `git ls-tree -r -z -l --full-tree <tree>`
 * lists the blobs, `git cat-file --batch` reads them (one call per ~8 MiB of blobs, so the copy's
 * memory stays flat whatever the tree's size: a blob larger than that is read alone), and the raw
 * bytes are written as they are stored — no smudge or clean filter, no
 * eol conversion, no `.gitattributes` (`export-ignore`/`export-subst` of `git archive` would let the
 * repository hide or rewrite files), no hook. Both git calls read no global or system config.
 *
 * What the copy leaves out, and names:
 * - agent instructions codex would load outside our data fence: `AGENTS.md`,
 *   `AGENTS.override.md` (any depth, any case: macOS and Windows file systems fold case) and the
 *   `.codex/` and `.agents/` directories (skills, config, rules) at any depth;
 * - submodules (gitlinks): their content is not in this tree;
 * - entries whose path is not safe to write (empty, `.` or `..` segments, a leading `/`, a `.git`
 *   segment in any case): our writer bypasses git's checkout checks, so it checks itself.
 * Symbolic links become regular files holding the link's target (a reader cannot follow them out).
 * Files are 0444 and directories 0555 once written; {@linkcode makeWritable} undoes that before
 * removal.
 *
 * @module
 */
import { join } from "node:path";
import type { Runner } from "../exec/exec.ts";
import { git, gitFailure, runGit } from "./git.ts";

/** Why a tree entry is not in the copy. */
export type SkipReason = "agent instructions" | "submodule" | "unsafe path" | "unwritable";

/** What {@linkcode copyTree} wrote. */
export interface TreeCopy {
  /** Files written. */
  files: number;
  /** Bytes written. */
  bytes: number;
  /** Repo-relative paths left out (a skipped directory is named once, with a trailing "/"). */
  skipped: { path: string; reason: SkipReason }[];
}

/** Blob bytes read by one `cat-file --batch` call at most. */
const BATCH_BYTES = 8 * 1024 * 1024;

const INSTRUCTIONS_FILE = /^agents(\.override)?\.md$/i;
const INSTRUCTIONS_DIR = /^\.(codex|agents)$/i;

interface Entry {
  mode: string;
  type: string;
  oid: string;
  size: number;
  path: string;
}

/**
 * Why `path` may not be copied, or undefined when it may (pure).
 *
 * @param path a repo-relative path from `ls-tree`
 * @returns the reason and, for a skipped directory, the directory's path
 */
export function skipOf(path: string): { reason: SkipReason; at: string } | undefined {
  const segments = path.split("/");
  if (
    path.startsWith("/") || segments.some((s) => s === "" || s === "." || s === "..") ||
    segments.some((s) => s.toLowerCase() === ".git")
  ) return { reason: "unsafe path", at: path };
  const dir = segments.findIndex((s, i) => i < segments.length - 1 && INSTRUCTIONS_DIR.test(s));
  if (dir >= 0) {
    return { reason: "agent instructions", at: `${segments.slice(0, dir + 1).join("/")}/` };
  }
  if (INSTRUCTIONS_FILE.test(segments.at(-1)!)) return { reason: "agent instructions", at: path };
  return undefined;
}

/** Parse `ls-tree -r -z -l` output: "<mode> SP <type> SP <oid> SP+ <size> TAB <path>" NUL. */
function parseListing(out: Uint8Array): Entry[] {
  const entries: Entry[] = [];
  for (const record of new TextDecoder().decode(out).split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, oid, size] = record.slice(0, tab).split(/ +/);
    entries.push({ mode, type, oid, size: Number(size) || 0, path: record.slice(tab + 1) });
  }
  return entries;
}

/**
 * Write the copy of `tree` into `dest` (an existing empty directory).
 *
 * @param runner the subprocess seam
 * @param root any directory of the repository (git runs there)
 * @param tree a tree-ish object id
 * @param dest absolute destination directory
 * @returns counts and what was left out
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function copyTree(
  runner: Runner,
  root: string,
  tree: string,
  dest: string,
): Promise<TreeCopy> {
  const listing = await git(runner, root, ["ls-tree", "-r", "-z", "-l", "--full-tree", tree], {
    isolated: true,
  });
  const copy: TreeCopy = { files: 0, bytes: 0, skipped: [] };
  const blobs: Entry[] = [];
  for (const entry of parseListing(listing)) {
    const skip = entry.type === "commit"
      ? { reason: "submodule" as const, at: entry.path }
      : skipOf(entry.path);
    if (skip) {
      if (!copy.skipped.some((s) => s.path === skip.at)) {
        copy.skipped.push({ path: skip.at, reason: skip.reason });
      }
    } else if (entry.type === "blob") blobs.push(entry);
  }
  const dirs = new Set(blobs.map((b) => parentOf(b.path)).filter((d) => d !== ""));
  for (const dir of [...dirs].sort()) await Deno.mkdir(join(dest, dir), { recursive: true });
  for (const batch of batches(blobs)) await writeBatch(runner, root, dest, batch, copy);
  await sealDirectories(dest, dirs);
  return copy;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** Group blobs so each `cat-file --batch` call reads at most {@linkcode BATCH_BYTES}. */
function batches(blobs: Entry[]): Entry[][] {
  const out: Entry[][] = [];
  let current: Entry[] = [];
  let bytes = 0;
  for (const blob of blobs) {
    if (current.length > 0 && bytes + blob.size > BATCH_BYTES) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(blob);
    bytes += blob.size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Read one batch with `cat-file --batch` and write each blob's raw bytes (0444). */
async function writeBatch(
  runner: Runner,
  root: string,
  dest: string,
  batch: Entry[],
  copy: TreeCopy,
): Promise<void> {
  const args = ["cat-file", "--batch"];
  const size = batch.reduce((n, b) => n + b.size + b.oid.length + 32, 0);
  const result = await runGit(runner, root, args, {
    stdin: batch.map((b) => b.oid).join("\n") + "\n",
    isolated: true,
    maxOutputBytes: size + 1024,
  });
  if (result.code !== 0 || result.truncated) throw gitFailure(args, result);
  const out = result.stdout;
  let offset = 0;
  let pending: Promise<void>[] = [];
  for (const blob of batch) {
    const newline = out.indexOf(0x0a, offset);
    // "<oid> SP blob SP <size> LF <content> LF" (git-cat-file(1) "BATCH OUTPUT")
    const header = new TextDecoder().decode(out.subarray(offset, newline)).split(" ");
    const length = Number(header[2]);
    const start = newline + 1;
    offset = start + length + 1;
    const full = join(dest, blob.path);
    if (!full.startsWith(`${dest}/`)) continue;
    pending.push(writeBlob(full, out.subarray(start, start + length), blob.path, copy));
    if (pending.length >= PARALLEL_WRITES) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
}

/** Files written at once (the cost is kernel time per file; a few in flight hide the latency). */
const PARALLEL_WRITES = 32;

async function writeBlob(full: string, bytes: Uint8Array, path: string, copy: TreeCopy) {
  try {
    await Deno.writeFile(full, bytes, { mode: 0o444, createNew: true });
    copy.files++;
    copy.bytes += bytes.byteLength;
  } catch {
    copy.skipped.push({ path, reason: "unwritable" });
  }
}

/** Make every directory of the copy read-only (0555), deepest first, then the root. */
async function sealDirectories(dest: string, dirs: Set<string>): Promise<void> {
  const all = new Set<string>();
  for (const dir of dirs) {
    const parts = dir.split("/");
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join("/"));
  }
  for (const dir of [...all].sort((a, b) => b.length - a.length)) {
    await Deno.chmod(join(dest, dir), 0o555);
  }
  await Deno.chmod(dest, 0o555);
}

/**
 * Give the owner write permission back on `dir` and every directory under it, so it can be
 * removed. Never throws (a vanished entry is skipped).
 *
 * @param dir a directory (a copy written by {@linkcode copyTree})
 */
export async function makeWritable(dir: string): Promise<void> {
  try {
    await Deno.chmod(dir, 0o755);
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && !entry.isSymlink) await makeWritable(join(dir, entry.name));
    }
  } catch {
    // gone or not ours
  }
}
