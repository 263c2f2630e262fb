/**
 * The lines a change added or edited, per file, read from its patch (pure): what the decoder's
 * scope check holds a finding of scope "introduced" to (lib/kinds/review/coherence.ts). Lines are
 * counted on the new side of each hunk (`@@ -a,b +c,d @@`, git-diff(1) "combined diff format"
 * aside): a "+" line is changed; a run of "-" lines with no "+" beside it (a pure deletion) counts
 * as the new-side lines just before and after it, where the removed code was. Context lines are not
 * changed lines.
 *
 * @module
 */
import type { LineRange } from "../answer/types.ts";

const HUNK_LINE = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
const PLUS = 0x2b;
const MINUS = 0x2d;
const SPACE = 0x20;
const AT = 0x40;

/**
 * The changed line ranges of one file's patch section, or of one hunk.
 *
 * @param section one `diff --git` section or hunk of a unified patch (bytes or text; CRLF allowed)
 * @returns sorted, merged, 1-based inclusive ranges on the new side; `[]` when the section has no
 *   hunk (a pure rename, a mode change, a binary file)
 * @example
 * ```ts
 * import { changedLineRanges } from "./changed_lines.ts";
 * const patch = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n";
 * changedLineRanges(new TextEncoder().encode(patch)); // [{ start: 2, end: 2 }]
 * ```
 */
export function changedLineRanges(patch: Uint8Array | string): LineRange[] {
  const section = typeof patch === "string" ? new TextEncoder().encode(patch) : patch;
  return scan(section, 0);
}

/**
 * The changed line ranges of one hunk's body (its lines after the `@@` line).
 *
 * @param hunk the hunk's new side, as in its `@@` line (`+newStart,newLines`)
 * @param body the body lines, newline-terminated (CRLF allowed)
 * @returns sorted, merged, 1-based inclusive ranges on the new side
 */
export function hunkChangedLines(
  hunk: { newStart: number; newLines: number },
  body: Uint8Array,
): LineRange[] {
  // an empty new side ("+c,0") starts after line c
  return scan(body, hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart);
}

/** Scan patch lines; `start` is the new-side line number of the first one (0: not in a hunk). */
function scan(section: Uint8Array, start: number): LineRange[] {
  const ranges: LineRange[] = [];
  const mark = (start: number, end: number) => {
    const last = ranges.at(-1);
    if (last && start <= last.end + 1) last.end = Math.max(last.end, end);
    else ranges.push({ start, end });
  };
  let line = start; // next new-side line number; 0 = not inside a hunk
  let deleting = false; // inside a run of "-" lines
  let added = false; // the current change run has "+" lines
  const endRun = () => {
    if (deleting && !added) mark(Math.max(1, line - 1), line);
    deleting = added = false;
  };
  for (let pos = 0; pos < section.length;) {
    const nl = section.indexOf(0x0a, pos);
    const end = nl < 0 ? section.length : nl;
    const first = section[pos];
    if (first === AT && section[pos + 1] === AT) {
      endRun();
      const header = new TextDecoder().decode(section.subarray(pos, Math.min(end, pos + 80)));
      const match = HUNK_LINE.exec(header);
      line = match ? Number(match[1]) : 0;
      // an empty new side ("+c,0") starts after line c
      if (match && /^@@ -\d+(?:,\d+)? \+\d+,0 @@/.test(header)) line += 1;
    } else if (line > 0 && first === PLUS) {
      mark(line, line);
      added = true;
      line++;
    } else if (line > 0 && first === MINUS) {
      deleting = true;
    } else if (line > 0 && first === SPACE) {
      endRun();
      line++;
    } else if (line > 0 && first !== 0x5c /* "\" No newline at end of file */) {
      endRun();
      line = 0; // the next section's header, or anything that is not hunk body
    }
    pos = end + 1;
  }
  endRun();
  return ranges;
}
