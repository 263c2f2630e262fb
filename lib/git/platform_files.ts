/**
 * The operating system's own metadata files, which appear in a worktree at any time without anyone
 * editing code (docs/design.md "Platforms"): macOS Finder writes `.DS_Store` (folder view
 * settings) into any folder it shows, and `._<name>` AppleDouble files (resource forks, extended
 * attributes) on volumes that cannot store them natively. A file counts only when its name *and*
 * its first bytes are the format's: anything else of that name (code routed into a file called
 * `.DS_Store`) is an ordinary file.
 *
 * Formats: `.DS_Store` starts with the 4-byte alignment word `00 00 00 01` then the buddy-allocator
 * magic `Bud1`; an AppleDouble file starts with its magic number `00 05 16 07` (RFC 1740).
 *
 * @module
 */

/** Bytes needed to recognise a metadata file. */
export const METADATA_PROBE_BYTES = 8;

const DS_STORE_MAGIC = [0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31];
const APPLE_DOUBLE_MAGIC = [0, 5, 0x16, 7];

/**
 * Whether a path's name is one a platform metadata file has (folded as macOS compares names).
 *
 * @param path repo-relative or absolute, `/`-separated
 */
export function hasMetadataName(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.toLowerCase() === ".ds_store" || (name.startsWith("._") && name.length > 2);
}

/**
 * What platform metadata file `bytes` at `path` are, or `null` when they are not one.
 *
 * @param path the file's path (its name decides the format looked for)
 * @param bytes the file's content, or at least its first {@linkcode METADATA_PROBE_BYTES}
 * @returns e.g. "macOS Finder folder settings (.DS_Store)"
 */
export function platformMetadata(path: string, bytes: Uint8Array): string | null {
  if (!hasMetadataName(path)) return null;
  const name = path.slice(path.lastIndexOf("/") + 1);
  const starts = (magic: readonly number[]) => magic.every((byte, i) => bytes[i] === byte);
  if (name.toLowerCase() === ".ds_store") {
    return starts(DS_STORE_MAGIC) ? "macOS Finder folder settings (.DS_Store)" : null;
  }
  return starts(APPLE_DOUBLE_MAGIC) ? "macOS AppleDouble metadata (._*)" : null;
}
