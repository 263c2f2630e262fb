/**
 * What the index file says about its entries, read in-process instead of starting git: whether any
 * entry carries a bit that makes git skip re-reading the file (assume-unchanged, skip-worktree)
 * and whether any entry is a submodule (gitlink). Collection asks both before every worktree
 * snapshot (lib/git/live_tree.ts, lib/git/collect.ts); in the usual index the answer is "none",
 * and then `git ls-files -v` and `git diff-files` need not run at all.
 *
 * Format: gitformat-index(5) ("The Git index file has the following format"): a 12-byte header
 * (`DIRC`, version 2, 3 or 4, entry count), then the entries — 40 bytes of stat data, the object
 * id (20 or 32 bytes), 16 bits of flags (assume-valid 0x8000, extended 0x4000, name length 0x0fff),
 * in version 3 and later 16 more bits when extended (skip-worktree 0x4000), then the path:
 * NUL-terminated and padded with NULs to a multiple of 8 bytes (versions 2 and 3), or
 * prefix-compressed (a varint of bytes to drop from the previous path, then the NUL-terminated
 * rest, no padding; version 4) — then the extensions (4-byte signature, 32-bit size each) and a
 * trailing hash. A split index (`link` extension: more entries in a shared index file) and
 * anything this reader does not recognise give `null`: the caller asks git.
 *
 * @module
 */

/** What {@linkcode scanIndex} found. */
export interface IndexScan {
  /** Some entry is marked assume-unchanged or skip-worktree. */
  flagged: boolean;
  /** Some entry is a gitlink (a submodule, mode 160000). */
  gitlinks: boolean;
}

/** Stat data before the object id: ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;
const SKIP_WORKTREE = 0x4000;
const GITLINK = 0o160000;
const TYPE_MASK = 0o170000;

/**
 * Scan index bytes.
 *
 * @param bytes the whole index file
 * @param objectFormat the repository's object format (sets the object id length)
 * @returns the scan, or `null` when the file is not an index this reader fully understands (a
 *   split index, an unknown version, a cut-off file): ask git then
 */
export function scanIndex(bytes: Uint8Array, objectFormat: "sha1" | "sha256"): IndexScan | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashBytes = objectFormat === "sha1" ? 20 : 32;
  if (bytes.length < 12 + hashBytes || view.getUint32(0) !== 0x44495243) return null; // "DIRC"
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return null;
  const count = view.getUint32(8);
  const end = bytes.length - hashBytes;
  const scan: IndexScan = { flagged: false, gitlinks: false };
  let pos = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = pos + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return null;
    const mode = view.getUint32(pos + 24);
    const flags = view.getUint16(flagsAt);
    let nameAt = flagsAt + 2;
    if (flags & EXTENDED) {
      if (version < 3 || nameAt + 2 > end) return null;
      if (view.getUint16(nameAt) & SKIP_WORKTREE) scan.flagged = true;
      nameAt += 2;
    }
    if (flags & ASSUME_VALID) scan.flagged = true;
    if ((mode & TYPE_MASK) === GITLINK) scan.gitlinks = true;
    if (version === 4) {
      while (nameAt < end && bytes[nameAt] & 0x80) nameAt++; // the varint's continuation bytes
      nameAt++;
    }
    const known = flags & NAME_MASK;
    const nul = version < 4 && known < NAME_MASK ? nameAt + known : bytes.indexOf(0, nameAt);
    if (nul < 0 || nul >= end || bytes[nul] !== 0) return null;
    pos = version === 4 ? nul + 1 : pos + ((nul - pos + 8) & ~7);
  }
  // extensions: a split index keeps further entries in a shared file this scan never saw
  while (pos + 8 <= end) {
    if (view.getUint32(pos) === 0x6c696e6b) return null; // "link"
    pos += 8 + view.getUint32(pos + 4);
  }
  return pos === end ? scan : null;
}

/**
 * Scan the index file at `path`.
 *
 * @returns the scan; no flags and no gitlinks when there is no index yet (a fresh repository);
 *   `null` when the file cannot be read or is not understood (ask git then)
 */
export async function scanIndexFile(
  path: string,
  objectFormat: "sha1" | "sha256",
): Promise<IndexScan | null> {
  try {
    return scanIndex(await Deno.readFile(path), objectFormat);
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? { flagged: false, gitlinks: false } : null;
  }
}

/**
 * Scan the index git would use in `repo`: `index` when given (a private copy), else the
 * repository's own — unless the environment names another one (`GIT_INDEX_FILE`, as git sets it
 * for some hooks): then `null`, and the caller asks git, which reads that one.
 *
 * @param repo the repository's git dir and object format
 * @param index the path of the index file to scan instead (e.g. a private copy)
 * @returns the scan, or `null` (ask git)
 */
export function scanRepoIndex(
  repo: { gitDir: string; objectFormat: "sha1" | "sha256" },
  index?: string,
): Promise<IndexScan | null> {
  if (index === undefined && Deno.env.get("GIT_INDEX_FILE")) return Promise.resolve(null);
  return scanIndexFile(index ?? `${repo.gitDir}/index`, repo.objectFormat);
}
