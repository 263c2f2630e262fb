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
 * An identity of `parts` followed by text that comes in pieces (lib/base/json_pieces.ts), with Web
 * Crypto alone: never the text joined, nor Node's crypto (starting Node compatibility costs ~10 MB
 * and tens of milliseconds: docs/design.md "Performance notes"). Text of at most one piece is
 * hashed as {@linkcode sha256Hex} of the concatenation; longer text as {@linkcode sha256Hex} of the
 * parts, {@linkcode PIECES_TAG}, then the sha256 hex of each piece, in order. Equal inputs (in equal
 * pieces) give equal digests; text that never starts with a NUL (JSON never does) cannot give the
 * digest of a longer text's form.
 *
 * @param parts hashed first, in order
 * @param pieces then these, in order (consumed once; each digested as it comes)
 * @returns 64 lowercase hex characters
 * @example
 * ```ts
 * import { PIECES_TAG, sha256Hex, sha256OfPieces } from "./sha256.ts";
 * import { equal } from "node:assert/strict";
 * equal(await sha256OfPieces(["a"], ["b"]), await sha256Hex("ab"));
 * equal(
 *   await sha256OfPieces(["a"], ["b", "c"]),
 *   await sha256Hex(["a", PIECES_TAG, await sha256Hex("b"), await sha256Hex("c")]),
 * );
 * ```
 */
export async function sha256OfPieces(
  parts: readonly HashPart[],
  pieces: Iterable<string>,
): Promise<string> {
  const it = pieces[Symbol.iterator]();
  const first = it.next();
  const second = first.done ? first : it.next();
  if (second.done) return sha256Hex(first.done ? parts : [...parts, first.value]);
  const digests = [await sha256Hex(first.value), await sha256Hex(second.value)];
  for (let next = it.next(); !next.done; next = it.next()) {
    digests.push(await sha256Hex(next.value));
  }
  return sha256Hex([...parts, PIECES_TAG, ...digests]);
}

/** What stands between the parts and the pieces' digests in {@linkcode sha256OfPieces}. */
export const PIECES_TAG = "\0pieces\0";
