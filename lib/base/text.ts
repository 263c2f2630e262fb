/**
 * Small text helpers every renderer shares: a `file:start-end` location and markdown-safe inline
 * text. Pure.
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
 * Text safe inside one markdown line: markdown's inline punctuation escaped, newlines as spaces.
 *
 * @param text untrusted text (a title, a path)
 */
export function escapeMarkdownInline(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, "\\$1").replaceAll("\n", " ");
}
