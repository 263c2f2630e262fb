/**
 * Hunks and sections (pure): the units the review plan budgets by (lib/git/plan.ts) — a file too
 * large for one piece is cut at hunk boundaries, never inside a hunk; lib/git/patch_reader.ts cuts
 * a single hunk larger than a piece at line boundaries. Format: git-diff(1): a unified hunk is
 * `@@ -a[,b] +c[,d] @@ [heading]` followed by lines starting with " ", "-", "+" or "\\"; a count
 * of 1 is written without ",1" and an empty side's start is the line before it.
 *
 * @module
 */
import type { HunkRange } from "./types.ts";

/** One hunk: its range, its text (the `@@` line and body, newline-terminated) and its size. */
export interface Hunk extends HunkRange {
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** Added plus deleted lines. */
  changed: number;
}

/** A file's patch section: the header (`diff --git` … up to the first hunk) and its hunks. */
export interface Section {
  header: string;
  /** UTF-8 bytes of `header`. */
  headerBytes: number;
  hunks: Hunk[];
}

/** Text of 7-bit characters only, whose UTF-8 length is its length. */
// deno-lint-ignore no-control-regex -- every 7-bit character, controls included, is one UTF-8 byte
const ASCII = /^[\x00-\x7f]*$/;

/**
 * UTF-8 byte length of a string without encoding it.
 *
 * @param text any string (lone surrogates count as the 3 bytes of U+FFFD, as TextEncoder writes)
 */
export function utf8Length(text: string): number {
  if (ASCII.test(text)) return text.length; // one native scan: most diffs are ASCII
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      n += 1;
      continue;
    }
    n += 2; // 3 bytes; a surrogate pair is 4 bytes for its 2 units
    const d = c <= 0xdbff && c >= 0xd800 ? text.charCodeAt(i + 1) : 0;
    if (d >= 0xdc00 && d <= 0xdfff) i++;
  }
  return n;
}
