/**
 * SHA-256 through Web Crypto. `node:crypto` costs ~23 ms to load in Deno, which the hook fast paths
 * must not pay; `crypto.subtle` is built in.
 *
 * @module
 */

/**
 * Hash text (UTF-8) or bytes.
 *
 * @returns the digest as 64 lowercase hex characters
 * @example
 * ```ts
 * import { sha256Hex } from "./sha256.ts";
 * import { equal } from "node:assert/strict";
 * equal((await sha256Hex("")).slice(0, 8), "e3b0c442");
 * ```
 */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
