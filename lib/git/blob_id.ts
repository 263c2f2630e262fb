/**
 * Git's object id of a blob computed here, without a git call: the hash (SHA-1, or SHA-256 in a
 * repository using that object format) of `blob <size>\0` followed by the bytes — exactly what
 * `git hash-object --no-filters <file>` prints (gitformat-object(5)). Web Crypto only, so the hook
 * paths load nothing more.
 *
 * @module
 */

import { MAX_REGULAR_TEXT_BYTES } from "../base/regular_file.ts";
import { digestHex } from "../base/sha256.ts";

/**
 * The blob id of some bytes.
 *
 * @param bytes the file's content, unfiltered
 * @param format the repository's object format
 * @returns 40 (sha1) or 64 (sha256) lowercase hex characters
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * equal(await blobId(new Uint8Array(), "sha1"), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
 * ```
 */
export function blobId(bytes: Uint8Array, format: "sha1" | "sha256"): Promise<string> {
  return digestHex(format === "sha1" ? "SHA-1" : "SHA-256", [`blob ${bytes.length}\0`, bytes]);
}

/**
 * The blob id of a file's current bytes, read only when it is a regular file of at most
 * {@linkcode MAX_REGULAR_TEXT_BYTES} (a symlink to `/dev/zero` must not hang a hook).
 *
 * @returns the id, or `null` when the file is missing, not a regular file, too large or unreadable
 */
export async function fileBlobId(
  path: string,
  format: "sha1" | "sha256",
): Promise<string | null> {
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isFile || info.size > MAX_REGULAR_TEXT_BYTES) return null;
  const bytes = await Deno.readFile(path).catch(() => null);
  return bytes === null ? null : await blobId(bytes, format);
}
