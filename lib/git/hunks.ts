/**
 * A file's patch section as a header and hunks (pure), the unit the review plan budgets by: a
 * file too large for the prompt is cut at hunk boundaries, never inside a hunk, and a single hunk
 * larger than the budget is cut at line boundaries into smaller hunks whose `@@` lines carry
 * their own, correct line ranges (each repeating up to {@linkcode SPLIT_CONTEXT} context lines of
 * the part before it).
 *
 * Format: git-diff(1) "combined diff format" aside, a unified hunk is `@@ -a[,b] +c[,d] @@
 * [heading]` followed by lines starting with " ", "-", "+" or "\\" (the "No newline at end of
 * file" marker); a count of 1 is written without ",1" and an empty side's start is the line
 * before it.
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

/** Context lines a split hunk's later parts repeat from the part before them. */
export const SPLIT_CONTEXT = 3;

const HUNK_LINE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Split one section's text into header and hunks.
 *
 * @param text one `diff --git` section, newline-terminated
 * @returns the header (the whole text when it has no hunk: renames, mode changes, empty files)
 *   and the hunks in order
 */
export function parseSection(text: string): Section {
  const starts: number[] = text.startsWith("@@ -") ? [0] : [];
  for (let i = text.indexOf("\n@@ -"); i >= 0; i = text.indexOf("\n@@ -", i + 1)) {
    starts.push(i + 1);
  }
  const header = starts.length > 0 ? text.slice(0, starts[0]) : text;
  const hunks: Hunk[] = [];
  for (let k = 0; k < starts.length; k++) {
    const hunkText = text.slice(starts[k], starts[k + 1] ?? text.length);
    const match = HUNK_LINE.exec(hunkText);
    if (!match) continue; // cannot happen for git's output; the text then stays unbudgeted
    hunks.push({
      oldStart: Number(match[1]),
      oldLines: match[2] === undefined ? 1 : Number(match[2]),
      newStart: Number(match[3]),
      newLines: match[4] === undefined ? 1 : Number(match[4]),
      text: hunkText,
      bytes: utf8Length(hunkText),
      changed: countChanged(hunkText),
    });
  }
  return { header, headerBytes: utf8Length(header), hunks };
}

/** Lines of a hunk body starting with "+" or "-" (the `@@` line is skipped). */
function countChanged(hunk: string): number {
  let n = 0;
  let pos = hunk.indexOf("\n") + 1;
  while (pos > 0 && pos < hunk.length) {
    const c = hunk.charCodeAt(pos);
    if (c === 0x2b || c === 0x2d) n++;
    pos = hunk.indexOf("\n", pos) + 1;
  }
  return n;
}

/**
 * Cut a hunk larger than `maxBytes` into consecutive hunks of at most about `maxBytes` each, at
 * line boundaries; a single line longer than `maxBytes` stays whole. Every part after the first
 * repeats up to {@linkcode SPLIT_CONTEXT} context lines from before its start, and every part's
 * `@@` line carries its true ranges and says which part it is.
 *
 * @param hunk a parsed hunk
 * @param maxBytes the most UTF-8 bytes per part (≥ 1)
 * @returns `[hunk]` when it fits, else the parts in order
 */
export function splitHunk(hunk: Hunk, maxBytes: number): Hunk[] {
  if (hunk.bytes <= maxBytes) return [hunk];
  const firstNl = hunk.text.indexOf("\n");
  const heading = hunk.text.slice(0, firstNl).replace(HUNK_LINE, "").trim();
  const lines = splitLines(hunk.text.slice(firstNl + 1));
  // room for the part's own `@@ … @@ part k of n of one hunk; heading` line
  const reserve = 72 + utf8Length(heading);
  const groups: { from: number; to: number }[] = [];
  let from = 0;
  let size = 0;
  lines.forEach((line, i) => {
    const b = utf8Length(line);
    if (i > from && size + b > maxBytes - reserve) {
      groups.push({ from, to: i });
      from = i;
      size = 0;
    }
    size += b;
  });
  groups.push({ from, to: lines.length });
  // line numbers (old, new) of each body line; an empty side's start is the line before it
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
  let n = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
  for (const line of lines) {
    oldAt.push(o);
    newAt.push(n);
    if (line[0] === " " || line[0] === "-") o++;
    if (line[0] === " " || line[0] === "+") n++;
  }
  const part = (start: number, to: number, k: number): Hunk => {
    const body = lines.slice(start, to);
    let oldLines = 0;
    let newLines = 0;
    let changed = 0;
    for (const line of body) {
      if (line[0] === " " || line[0] === "-") oldLines++;
      if (line[0] === " " || line[0] === "+") newLines++;
      if (line[0] === "+" || line[0] === "-") changed++;
    }
    const oldStart = oldLines === 0 ? oldAt[start] - 1 : oldAt[start];
    const newStart = newLines === 0 ? newAt[start] - 1 : newAt[start];
    const note = `part ${k + 1} of ${groups.length} of one hunk${heading ? `; ${heading}` : ""}`;
    const text = `@@ -${range(oldStart, oldLines)} +${range(newStart, newLines)} @@ ${note}\n` +
      body.join("");
    return { oldStart, oldLines, newStart, newLines, text, bytes: utf8Length(text), changed };
  };
  return groups.map((g, k) => {
    let start = g.from;
    while (k > 0 && start > g.from - SPLIT_CONTEXT && lines[start - 1][0] === " ") start--;
    const withContext = part(start, g.to, k);
    return withContext.bytes <= maxBytes || start === g.from ? withContext : part(g.from, g.to, k);
  });
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** Lines with their newline (the last one may lack it). */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 ? text.length : nl + 1;
    lines.push(text.slice(pos, end));
    pos = end;
  }
  return lines;
}

/**
 * UTF-8 byte length of a string without encoding it.
 *
 * @param text any string (lone surrogates count as the 3 bytes of U+FFFD, as TextEncoder writes)
 */
export function utf8Length(text: string): number {
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
