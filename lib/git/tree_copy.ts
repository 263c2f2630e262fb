/**
 * Write a private, read-only copy of exactly the reviewed tree: the provider child's working
 * directory (lib/session/workspace.ts explains why). One `git ls-tree -r -z -l --full-tree <tree>`
 * lists the blobs, `git cat-file --batch` reads them (one call per ~8 MiB of blobs) and each
 * blob's raw bytes are written to its file as they stream in (the copy's memory is one pipe buffer
 * whatever the tree's size), as they are stored — no smudge or clean filter, no
 * eol conversion, no `.gitattributes` (`export-ignore`/`export-subst` of `git archive` would let the
 * repository hide or rewrite files), no hook. Both git calls read no global or system config.
 *
 * What the copy leaves out, and names:
 * - agent instructions, settings and environment a provider CLI would load outside our data fence
 *   whatever its flags say: every provider's `projectFiles` (its folder's `meta.ts`, e.g. codex's
 *   `AGENTS.md`, `AGENTS.override.md`, `.codex/`, `.agents/`; qwen's `QWEN.md`, `.qwen/`, `.env`),
 *   at any depth and in any case (macOS and Windows file systems fold case) — for every review, so
 *   a council's providers share one copy;
 * - submodules (gitlinks): their content is not in this tree;
 * - entries whose path is not safe to write (empty, `.` or `..` segments, a leading `/`, a `.git`
 *   segment in any case): our writer bypasses git's checkout checks, so it checks itself.
 * Symbolic links become regular files holding the link's target (a reader cannot follow them out).
 * Files are 0444 and directories 0555 once written; {@linkcode makeWritable} undoes that before
 * removal.
 *
 * @module
 */
import { join } from "../base/path.ts";
import type { Runner } from "../exec/exec.ts";
import { git, gitFailure, runGit, stoppedByGroupSignal } from "./git.ts";
import { providerMetas } from "../providers/registry.ts";

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

const metas = providerMetas();
const INSTRUCTIONS_FILES = new Set(metas.flatMap((m) => m.projectFiles.files.map(lower)));
const INSTRUCTIONS_DIRS = new Set(metas.flatMap((m) => m.projectFiles.dirs.map(lower)));

function lower(name: string): string {
  return name.toLowerCase();
}

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
  const dir = segments.findIndex((s, i) =>
    i < segments.length - 1 && INSTRUCTIONS_DIRS.has(lower(s))
  );
  if (dir >= 0) {
    return { reason: "agent instructions", at: `${segments.slice(0, dir + 1).join("/")}/` };
  }
  if (INSTRUCTIONS_FILES.has(lower(segments.at(-1)!))) {
    return { reason: "agent instructions", at: path };
  }
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
 * The listing {@linkcode copyTree} works from: one `git ls-tree -r -z -l --full-tree <tree>` call
 * (it needs no destination: a caller may start it while it makes the directory).
 *
 * @param runner the subprocess seam
 * @param root any directory of the repository (git runs there)
 * @param tree a tree-ish object id
 * @returns the raw `-z` listing
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export function listTree(runner: Runner, root: string, tree: string): Promise<Uint8Array> {
  return git(runner, root, ["ls-tree", "-r", "-z", "-l", "--full-tree", tree], { isolated: true });
}

/**
 * Write the copy of `tree` into `dest` (an existing empty directory).
 *
 * @param runner the subprocess seam
 * @param root any directory of the repository (git runs there)
 * @param tree a tree-ish object id
 * @param dest absolute destination directory
 * @param listed the listing of `tree` already under way ({@linkcode listTree}); default: list now
 * @returns counts and what was left out
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function copyTree(
  runner: Runner,
  root: string,
  tree: string,
  dest: string,
  listed?: Promise<Uint8Array>,
): Promise<TreeCopy> {
  const listing = await (listed ?? listTree(runner, root, tree));
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

/**
 * Read one batch with `cat-file --batch` and write each blob's raw bytes (0444) as they stream in:
 * nothing of a blob is kept, so the copy's memory is one pipe buffer whatever the tree's size. A
 * call stopped by a signal to our process group (a Ctrl-C: lib/git/git.ts) is carried on once from
 * the first blob not fully written (the copy must finish: the review's abort decides, later).
 */
async function writeBatch(
  runner: Runner,
  root: string,
  dest: string,
  batch: Entry[],
  copy: TreeCopy,
): Promise<void> {
  const args = ["cat-file", "--batch"];
  let rest = batch;
  for (let attempt = 1;; attempt++) {
    const writer = new BlobWriter(dest, rest, copy);
    const result = await runGit(runner, root, args, {
      stdin: rest.map((b) => b.oid).join("\n") + "\n",
      isolated: true,
      onStdout: (chunk) => writer.push(chunk),
    });
    // a runner that cannot stream hands stdout over at the end
    if (result.stdout.length > 0) writer.push(result.stdout);
    writer.close();
    if (attempt === 1 && stoppedByGroupSignal(result)) {
      rest = rest.slice(writer.resumeAt());
      if (rest.length > 0) continue;
      return;
    }
    if (result.code !== 0 || writer.broken) throw gitFailure(args, result);
    return;
  }
}

/**
 * Writes `cat-file --batch` output ("<oid> SP blob SP <size> LF <content> LF" per object,
 * git-cat-file(1) "BATCH OUTPUT") into the blobs' files with synchronous writes of each piece as
 * it arrives (a piece is valid only during the call).
 */
class BlobWriter {
  readonly #dest: string;
  readonly #batch: Entry[];
  readonly #copy: TreeCopy;
  readonly #header: number[] = [];
  #next = 0;
  /** Content bytes of the current blob still to come; -1 while reading a header. */
  #left = -1;
  /** The separator LF after a blob's content is still to come. */
  #separator = false;
  #file: Deno.FsFile | null = null;
  #written = 0;
  /** The file of a blob the output was cut in the middle of, once closed. */
  #partial: string | null = null;
  /** True when the output did not match the batch. */
  broken = false;

  constructor(dest: string, batch: Entry[], copy: TreeCopy) {
    this.#dest = dest;
    this.#batch = batch;
    this.#copy = copy;
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.broken) {
      if (this.#separator) {
        this.#separator = false;
        at++;
      } else if (this.#left < 0) {
        const newline = chunk.indexOf(0x0a, at);
        const end = newline < 0 ? chunk.length : newline;
        for (let i = at; i < end; i++) this.#header.push(chunk[i]);
        at = end;
        if (newline >= 0) {
          at++;
          this.#open();
        }
      } else {
        const take = Math.min(this.#left, chunk.length - at);
        this.#write(chunk.subarray(at, at + take));
        at += take;
        this.#left -= take;
        if (this.#left === 0) this.#finish();
      }
    }
  }

  /** The output ended: every blob must have been written. */
  close(): void {
    if (this.#next < this.#batch.length || this.#left > 0) this.broken = true;
    this.#file?.close();
    if (this.#file && this.#left > 0) {
      this.#partial = join(this.#dest, this.#batch[this.#next - 1].path);
    }
    this.#file = null;
  }

  /**
   * After {@linkcode close} of a cut output: remove the blob written in part, if any, and give the
   * index of the first blob of the batch still to write (a blob skipped as unwritable counts as
   * done).
   */
  resumeAt(): number {
    if (this.#partial === null) return this.#next;
    try {
      Deno.removeSync(this.#partial);
    } catch {
      // gone already: written again below
    }
    return this.#next - 1;
  }

  #open(): void {
    const header = String.fromCharCode(...this.#header).split(" ");
    this.#header.length = 0;
    const blob = this.#batch[this.#next++];
    if (!blob || header[1] !== "blob") {
      this.broken = true;
      return;
    }
    this.#left = Number(header[2]);
    this.#written = 0;
    const full = join(this.#dest, blob.path);
    try {
      if (full.startsWith(`${this.#dest}/`)) {
        this.#file = Deno.openSync(full, { write: true, createNew: true, mode: 0o444 });
      }
    } catch {
      this.#copy.skipped.push({ path: blob.path, reason: "unwritable" });
    }
    if (this.#left === 0) this.#finish();
  }

  #write(bytes: Uint8Array): void {
    if (!this.#file) return;
    try {
      for (let done = 0; done < bytes.length;) done += this.#file.writeSync(bytes.subarray(done));
      this.#written += bytes.length;
    } catch {
      this.#file.close();
      this.#file = null;
      this.#copy.skipped.push({ path: this.#batch[this.#next - 1].path, reason: "unwritable" });
    }
  }

  #finish(): void {
    if (this.#file) {
      this.#file.close();
      this.#file = null;
      this.#copy.files++;
      this.#copy.bytes += this.#written;
    }
    this.#left = -1;
    this.#separator = true;
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
