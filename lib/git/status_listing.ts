/**
 * One `git status --porcelain=v2 -z` listing of a worktree, each listed path keyed by its status
 * entry plus a signature of the file on disk, and the submodules git reports as changed. Shared by
 * the read-only proof (`snapshot.ts`) and change collection (the fingerprint of a submodule's
 * uncommitted changes). Reads files, writes nothing: every git call runs with
 * `GIT_OPTIONAL_LOCKS=0`.
 *
 * Format: git-status(1) "Porcelain Format Version 2": ordinary ("1"), renamed ("2"), unmerged
 * ("u"), untracked ("?") entries; the third field of 1/2/u entries is "N..." for a file and
 * "S<c><m><u>" for a submodule.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { sha256Hex } from "../base/sha256.ts";
import { git } from "./git.ts";
import { hasMetadataName, METADATA_PROBE_BYTES, platformMetadata } from "./platform_files.ts";

/** A worktree's status listing. */
export interface StatusListing {
  /** "<branch.head> <branch.oid>", e.g. "main 1a2b…", "(detached) 1a2b…", "main (initial)". */
  head: string;
  /** `prefix` + repo-relative path → "<status entry> | <disk signature>", for every listed path. */
  files: Record<string, string>;
  /** Repo-relative paths (without `prefix`) of the listed entries that are submodules. */
  submodules: string[];
  /**
   * The index side of every entry whose index differs from HEAD (`<X> <mI> <hI> <path>` of "1" and
   * "2" entries with X other than ".", every stage of "u" entries), in git's order. With HEAD
   * unchanged this determines the whole index (mode, blob id and stage of every path): a path git
   * does not list, or lists with X ".", is in the index as in HEAD. See {@linkcode indexSide}.
   */
  indexEntries: string[];
}

/** Options of {@linkcode listStatus}. */
export interface ListStatusOptions {
  /** Prepended to every key of `files` (e.g. "sm/" for a submodule's listing). */
  prefix?: string;
  /** `--ignore-submodules` value: "none" (report submodule changes) or "all" (do not recurse). */
  ignoreSubmodules: "none" | "all";
}

/** Files signed between two turns of the event loop (signing reads synchronously). */
const YIELD_EVERY = 64;

/** Bytes of the one buffer every file's content is read through. */
const READ_BUFFER_BYTES = 1024 * 1024;
let readBuffer: Uint8Array | null = null;

/** Files larger than this (bytes) are signed by size and mtime instead of a content hash. */
const HASH_LIMIT = 64 * 1024 * 1024;

/**
 * The `git status` arguments of {@linkcode listStatus}: porcelain v2, NUL-terminated, every
 * untracked file, no ignored ones, no rename detection.
 *
 * @param ignoreSubmodules git's `--ignore-submodules` value
 */
export function statusArgs(ignoreSubmodules: ListStatusOptions["ignoreSubmodules"]): string[] {
  return [
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--untracked-files=all",
    "--ignored=no",
    "--no-renames",
    `--ignore-submodules=${ignoreSubmodules}`,
  ];
}

/**
 * List the worktree at `dir` (untracked files included, ignored ones not, no rename detection).
 * One git call; listed files are hashed in-process (sha256 up to 64 MiB), one at a time through one
 * reused buffer, so no file is ever held whole.
 *
 * @param runner the subprocess seam
 * @param dir absolute path of the worktree top level
 * @returns the listing
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function listStatus(
  runner: Runner,
  dir: string,
  options: ListStatusOptions,
): Promise<StatusListing> {
  const prefix = options.prefix ?? "";
  const status = await git(runner, dir, statusArgs(options.ignoreSubmodules));
  const tokens = new TextDecoder().decode(status).split("\0");
  let branchHead = "";
  let branchOid = "";
  const files: Record<string, string> = {};
  const submodules: string[] = [];
  const indexEntries: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.startsWith("# branch.head ")) branchHead = token.slice(14);
    else if (token.startsWith("# branch.oid ")) branchOid = token.slice(13);
    else if (token.startsWith("#") || token === "") continue;
    else {
      const [line, path] = splitStatusLine(token);
      files[prefix + path] = line;
      const side = indexSide(line);
      if (side !== null) indexEntries.push(`${side} ${path}`);
      if ("12u".includes(token[0]) && token.split(" ")[2]?.startsWith("S")) submodules.push(path);
      if (token.startsWith("2 ")) files[prefix + tokens[++i]] = "source of a rename";
    }
  }
  // one file at a time through one reused buffer (lib/git/status_listing.ts `diskSignature`): no
  // file is held whole, and the event loop gets a turn every few files
  let signed = 0;
  for (const key of Object.keys(files)) {
    const path = `${dir}/${key.slice(prefix.length)}`;
    files[key] += ` | ${await diskSignature(path)}`;
    if (hasMetadataName(key) && await isPlatformMetadata(path)) files[key] += PLATFORM_METADATA;
    if (++signed % YIELD_EVERY === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { head: `${branchHead} ${branchOid}`, files, submodules, indexEntries };
}

/**
 * Appended to a listed file's entry when it is the platform's own metadata (lib/git/platform_files.ts:
 * Finder's `.DS_Store`, AppleDouble `._*`), which the OS writes at any time: the read-only proof
 * does not count it as a write.
 */
export const PLATFORM_METADATA = " | platform metadata";

/** Whether the file at `path` starts as a platform metadata file of its name does. */
async function isPlatformMetadata(path: string): Promise<boolean> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) return false;
    using file = await Deno.open(path);
    const head = new Uint8Array(METADATA_PROBE_BYTES);
    let read = 0;
    while (read < head.length) {
      const n = await file.read(head.subarray(read));
      if (n === null) break;
      read += n;
    }
    return platformMetadata(path, head.subarray(0, read)) !== null;
  } catch {
    return false;
  }
}

/**
 * The index side of a porcelain v2 entry (without its path), or `null` when the index holds the
 * path as HEAD does (X is ".") and for untracked and ignored entries. Formats (git-status(1)): `1 <XY> <sub> <mH> <mI> <mW> <hH> <hI>`, `2 <XY> <sub> <mH>
 * <mI> <mW> <hH> <hI> <X><score>`, `u <XY> <sub> <m1> <m2> <m3> <mW> <h1> <h2> <h3>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(indexSide("1 M. N... 100644 100644 100644 aaa bbb"), "M 100644 bbb");
 * assert.equal(indexSide("1 .M N... 100644 100644 100644 aaa aaa"), null);
 * assert.equal(indexSide("? "), null);
 * ```
 */
export function indexSide(entry: string): string | null {
  const f = entry.split(" ");
  if ((f[0] === "1" || f[0] === "2") && f[1][0] !== ".") return `${f[1][0]} ${f[4]} ${f[7]}`;
  if (f[0] === "u") return `U ${f[3]} ${f[4]} ${f[5]} ${f[7]} ${f[8]} ${f[9]}`;
  return null;
}

/** Split a porcelain v2 entry into (entry without the path, path). Formats: git-status(1). */
function splitStatusLine(token: string): [string, string] {
  const fields = { "1": 8, "2": 9, "u": 10, "?": 1, "!": 1 }[token[0]] ?? 1;
  let pos = 0;
  for (let k = 0; k < fields; k++) pos = token.indexOf(" ", pos) + 1;
  return [token.slice(0, pos - 1), token.slice(pos)];
}

/**
 * The signature {@linkcode diskSignature} gives a regular file holding `bytes` (at most 64 MiB),
 * without the mode: "file <size> <sha256>".
 */
export async function contentSignature(bytes: Uint8Array): Promise<string> {
  return `file ${bytes.length} ${await sha256Hex(bytes)}`;
}

/**
 * Signature of a path on disk: "file <size> <sha256>" (or "large <size> <mtime ms>" past 64 MiB,
 * with the mode bits when `withMode`), "link <target>", "directory", "special <mode>" (a FIFO,
 * socket or device: never read), "absent", "unreadable <error>".
 *
 * The file is opened off the main thread (`Deno.open`): a FIFO swapped in between the lstat and
 * the open would block the open until a writer comes, and a blocked worker thread leaves the
 * review's deadline and Ctrl-C working where a blocked main thread would not; what was opened is
 * checked to be a regular file before it is read. It is then read synchronously through one 1 MiB
 * buffer shared by every call (reading whole files, several at once, left the read-only proof of a
 * large change holding tens of MB of freed buffers): a file that fits is hashed with Web Crypto,
 * a larger one with node:crypto's incremental sha256, loaded only then (~20 ms of module load the
 * usual review does not pay).
 */
export async function diskSignature(path: string, withMode = false): Promise<string> {
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) return `link ${Deno.readLinkSync(path)}`;
    if (info.isDirectory) return "directory";
    const mode = withMode ? ` mode ${(info.mode ?? 0).toString(8)}` : "";
    // a FIFO, socket or device is never opened: reading a FIFO waits for a writer forever
    if (!info.isFile) return `special ${(info.mode ?? 0).toString(8)}`;
    if (info.size > HASH_LIMIT) return `large ${info.size} ${info.mtime?.getTime() ?? 0}${mode}`;
    using file = await Deno.open(path);
    const opened = file.statSync();
    if (!opened.isFile) return `special ${(opened.mode ?? 0).toString(8)}`;
    return `${await hashOpenFile(file)}${mode}`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "absent";
    return `unreadable ${(error as Error).name}`;
  }
}

/**
 * Bytes of small files hashed with Web Crypto before node:crypto takes over. Web Crypto copies
 * what it hashes (and the shared buffer must be copied before its await), so each file leaves
 * two copies of itself for the garbage collector: the proof of a 1M-line change (~120 MB of
 * files) left up to 60 MB of them (docs/design.md "Scale"). Past this many bytes, files are hashed
 * in place, incrementally, and the process's peak stays bounded; a small change never pays
 * node:crypto's module load.
 */
export const WEB_CRYPTO_BYTES = 2 * 1024 * 1024;
let webCryptoBytes = 0;

/** "file <size> <sha256>" of an open regular file, read from where it is to its end. */
async function hashOpenFile(file: Deno.FsFile): Promise<string> {
  // loaded before the read: from the read on, nothing awaits while the shared buffer is in use
  let node = webCryptoBytes >= WEB_CRYPTO_BYTES ? await import("node:crypto") : null;
  const buffer = readBuffer ??= new Uint8Array(READ_BUFFER_BYTES);
  let filled = 0;
  for (let n: number | null = 0; n !== null && filled < buffer.length;) {
    n = file.readSync(buffer.subarray(filled));
    filled += n ?? 0;
  }
  if (node === null && filled < buffer.length) {
    webCryptoBytes += filled;
    // the shared buffer is copied before any await: concurrent calls reuse it
    return contentSignature(buffer.slice(0, filled));
  }
  const head = node === null ? buffer.slice(0, filled) : buffer.subarray(0, filled);
  node ??= await import("node:crypto");
  const hash = node.createHash("sha256").update(head);
  let size = filled;
  for (let n = file.readSync(buffer); n !== null; n = file.readSync(buffer)) {
    hash.update(buffer.subarray(0, n));
    size += n;
  }
  return `file ${size} ${hash.digest("hex")}`;
}
