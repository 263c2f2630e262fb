/**
 * Stat-level fingerprints for the read-only proof beyond the repository (lib/session/proof.ts):
 * the private copy the provider runs in, and the files outside the repository a reviewer could use
 * to persist (lib/session/outside.ts). A file's signature is its type, size, mode, inode and mtime
 * (ms): no content is read, so the cost is one `lstat` per entry. A write that keeps size, inode
 * and mtime (a deliberate `touch -d` back-dating) is not seen; the provider's sandbox is the first
 * line, this is the check that it held.
 *
 * @module
 */
import { join } from "../base/path.ts";

/** Signature of one path: "absent", "unreadable", or "<type> <size> <mode> <ino> <mtime ms>". */
export function statSignature(path: string): Promise<string> {
  return Promise.resolve(signatureOf(path));
}

/**
 * {@linkcode statSignature}, with one synchronous `lstat`: a walk signs every entry of a tree, and
 * a synchronous call costs one syscall where an asynchronous one costs a trip through Deno's thread
 * pool and a wake-up of the review's thread per entry (docs/design.md "Performance notes").
 */
function signatureOf(path: string): string {
  try {
    const info = Deno.lstatSync(path);
    const type = info.isSymlink ? "link" : info.isDirectory ? "dir" : "file";
    return `${type} ${info.size} ${(info.mode ?? 0).toString(8)} ${info.ino ?? 0} ${
      info.mtime?.getTime() ?? 0
    }`;
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? "absent" : "unreadable";
  }
}

/** Options of {@linkcode fingerprintDir}. */
export interface DirOptions {
  /** Directory levels below `dir` to descend (0: only its entries). Default: unlimited. */
  depth?: number;
  /** Most entries signed in all; past it the key "<label>/…" says "truncated". Default: unlimited. */
  maxEntries?: number;
  /** Entry names (relative to `dir`, "/"-joined) whose subtree is not watched. */
  exclude?: readonly string[];
}

/**
 * Sign every entry under `dir` as `<label>/<relative path>` → signature. Directories are listed
 * by their entries (a new or removed entry appears as its own key), not by their own mtime, so a
 * CLI creating an excluded subfolder does not count as a change of its parent.
 *
 * @param dir absolute directory
 * @param label key prefix (e.g. "~/.claude" or "reviewed copy")
 * @param options depth, entry cap, exclusions
 * @returns keys → signatures; nothing for a missing or empty directory (a CLI creating an empty
 *   folder is no change), `{label: signature}` when `dir` is not a directory
 */
export function fingerprintDir(
  dir: string,
  label: string,
  options: DirOptions = {},
): Promise<Record<string, string>> {
  return Promise.resolve(signDir(dir, label, options));
}

function signDir(dir: string, label: string, options: DirOptions): Record<string, string> {
  const out: Record<string, string> = {};
  const budget = { left: options.maxEntries ?? Infinity };
  const top = signatureOf(dir);
  if (top === "absent") return out;
  if (!top.startsWith("dir")) {
    out[label] = top;
    return out;
  }
  walk(dir, "", options.depth ?? Infinity, { out, label, budget, options });
  return out;
}

/** Sign the entries under `dir/rel`, in name order, descending `depth` more levels. */
function walk(
  dir: string,
  rel: string,
  depth: number,
  at: {
    out: Record<string, string>;
    label: string;
    budget: { left: number };
    options: DirOptions;
  },
): void {
  let names: string[];
  try {
    names = [];
    for (const entry of Deno.readDirSync(join(dir, rel))) names.push(entry.name);
  } catch {
    at.out[`${at.label}/${rel}`] = "unreadable";
    return;
  }
  const entries: { path: string; signature: string }[] = [];
  for (const name of names.sort()) {
    const path = rel === "" ? name : `${rel}/${name}`;
    if (at.options.exclude?.includes(path)) continue;
    if (at.budget.left-- <= 0) {
      at.out[`${at.label}/…`] = "truncated";
      break;
    }
    entries.push({ path, signature: signatureOf(join(dir, path)) });
  }
  // a directory's entries are all signed before its subdirectories are walked
  for (const { path, signature: sig } of entries) {
    if (sig.startsWith("dir") && depth > 0) walk(dir, path, depth - 1, at);
    else at.out[`${at.label}/${path}`] = sig.startsWith("dir") ? "dir" : sig;
  }
}
