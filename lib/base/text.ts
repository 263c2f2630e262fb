/**
 * Small text helpers every renderer shares: a `file:start-end` location and counts with
 * thousands separators (untrusted text in Markdown: lib/base/inert_markdown.ts). Pure.
 *
 * @module
 */

/**
 * `file:start-end`, or `file:line` when the range is one line.
 *
 * @param place a repo-relative file and a 1-based inclusive line range
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { formatLocation } from "./text.ts";
 * equal(formatLocation({ file: "a.ts", line_start: 3, line_end: 5 }), "a.ts:3-5");
 * ```
 */
export function formatLocation(
  place: { file: string; line_start: number; line_end: number },
): string {
  return place.line_end > place.line_start
    ? `${place.file}:${place.line_start}-${place.line_end}`
    : `${place.file}:${place.line_start}`;
}

/**
 * A whole number with thousands separators, as `n.toLocaleString("en-US")` writes it (`1,234`,
 * `-12,000`) without starting the runtime's locale data, which costs tens of milliseconds the first
 * time; any other number is left to `toLocaleString`.
 *
 * @example
 * ```ts
 * import { formatCount } from "./text.ts";
 * formatCount(1234567); // "1,234,567"
 * ```
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += "," + digits.slice(i, i + 3);
  return n < 0 ? `-${out}` : out;
}
