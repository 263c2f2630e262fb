/**
 * SHA-256 (and SHA-1, for git's blob ids) through Web Crypto. `node:crypto` costs ~23 ms to load in Deno, which the hook fast paths
 * must not pay; `crypto.subtle` is built in. Web Crypto has no incremental API, so several parts
 * are concatenated into one buffer first — the digest equals that of feeding the parts one after
 * another to an incremental hash (no separator is added; callers add their own).
 *
 * @module
 */

/** One piece of input: text (hashed as UTF-8) or raw bytes. */
export type HashPart = string | Uint8Array;

const encoder = new TextEncoder();

/**
 * Hash text (UTF-8), bytes, or the concatenation of several such parts.
 *
 * @param data one part, or parts hashed as if concatenated in order (no separator between them)
 * @returns the digest as 64 lowercase hex characters
 * @example
 * ```ts
 * import { sha256Hex } from "./sha256.ts";
 * import { equal } from "node:assert/strict";
 * equal((await sha256Hex("")).slice(0, 8), "e3b0c442");
 * equal(await sha256Hex(["a", new Uint8Array([98])]), await sha256Hex("ab"));
 * ```
 */
export function sha256Hex(data: HashPart | readonly HashPart[]): Promise<string> {
  return digestHex("SHA-256", data);
}

/**
 * Hash parts as {@linkcode sha256Hex} does, with another Web Crypto digest (git's blob ids use
 * SHA-1 in a sha1 repository).
 *
 * @param algorithm `"SHA-1"` or `"SHA-256"`
 * @param data one part, or parts hashed as if concatenated in order
 * @returns the digest as lowercase hex (40 or 64 characters)
 */
export async function digestHex(
  algorithm: "SHA-1" | "SHA-256",
  data: HashPart | readonly HashPart[],
): Promise<string> {
  const digest = await crypto.subtle.digest(
    algorithm,
    concatParts(typeof data === "string" || data instanceof Uint8Array ? [data] : data),
  );
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function concatParts(parts: readonly HashPart[]): Uint8Array<ArrayBuffer> {
  const bytes = parts.map((p) => typeof p === "string" ? encoder.encode(p) : p);
  if (bytes.length === 1 && bytes[0].buffer instanceof ArrayBuffer) {
    return bytes[0] as Uint8Array<ArrayBuffer>;
  }
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.byteLength, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.byteLength;
  }
  return out;
}

/**
 * {@linkcode sha256Hex} of `parts` followed by text that comes in pieces (lib/base/json_pieces.ts),
 * never joined: text of one piece is hashed with Web Crypto like any part, longer text
 * incrementally with node:crypto (loaded only then: the usual small review does not pay its
 * ~20 ms load).
 *
 * @param parts hashed first, in order
 * @param pieces then these, in order (consumed once)
 * @returns the digest of the concatenation as 64 lowercase hex characters
 */
export async function sha256HexThen(
  parts: readonly HashPart[],
  pieces: Iterable<string>,
): Promise<string> {
  const it = pieces[Symbol.iterator]();
  const first = it.next();
  const second = first.done ? first : it.next();
  if (second.done) return sha256Hex(first.done ? parts : [...parts, first.value]);
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  hash.update(first.value).update(second.value);
  for (let next = it.next(); !next.done; next = it.next()) hash.update(next.value);
  return hash.digest("hex");
}
