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
  const pairs: number[] = [];
  scan(section, 0, pairs);
  return unpackLineRanges(pairs);
}

/**
 * Line ranges packed as numbers, two per range (start, end: 1-based, inclusive), in the order
 * found. A large change has one range per hunk, about 100,000 for a million changed lines: packed,
 * they cost 8 bytes each rather than an object each.
 */
export type PackedLineRanges = ArrayLike<number>;

/** Numbers per block of {@linkcode ChangedLinesCollector} (3 per range: 64 K ranges, 768 KiB). */
const BLOCK_INTS = 3 * 65536;

/**
 * The changed lines of many files' hunks as they stream, kept packed in blocks of numbers (three
 * per range: file, start, end) rather than an object, or an array, per hunk; blocks are added as
 * they fill, never grown by copying.
 */
export class ChangedLinesCollector {
  /** The block being filled (the first one small: most changes have few hunks). */
  #triples = new Int32Array(3 * 1024);
  #length = 0;
  /** Blocks already full, in order: the triples are never copied to grow (~4 MB for 1M lines). */
  #full: Int32Array[] = [];
  readonly #scratch: number[] = [];

  /**
   * Add the changed lines of one hunk of file `file`.
   *
   * @param file the file's index (≥ 0)
   * @param hunk the hunk's new side, as in its `@@` line (`+newStart,newLines`)
   * @param body the body lines, newline-terminated (CRLF allowed)
   */
  add(file: number, hunk: { newStart: number; newLines: number }, body: Uint8Array): void {
    const pairs = this.#scratch;
    pairs.length = 0;
    // an empty new side ("+c,0") starts after line c
    scan(body, hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart, pairs);
    for (let k = 0; k + 1 < pairs.length; k += 2) this.#push(file, pairs[k], pairs[k + 1]);
  }

  /**
   * Add the changed lines of one hunk (or hunk part) of file `file` from its lines' kinds and
   * new-side numbers, as the patch reader hands them over (lib/git/patch_reader.ts `HunkLines`):
   * the same ranges {@linkcode add} reads from the body's bytes, without reading them again.
   *
   * @param file the file's index (≥ 0)
   * @param lines per body line its first byte and new-side line number (`count` of them)
   */
  addLines(
    file: number,
    lines: { count: number; kinds: ArrayLike<number>; newAt: ArrayLike<number> },
  ): void {
    const { count, kinds, newAt } = lines;
    let deleting = false; // inside a run of "-" lines
    let added = false; // the current change run has "+" lines
    let line = count > 0 ? newAt[0] : 0; // the next new-side line number
    for (let i = 0; i < count; i++) {
      const kind = kinds[i];
      line = newAt[i];
      if (kind === PLUS) {
        this.#mark(file, line, line);
        added = true;
        line++;
      } else if (kind === MINUS) {
        deleting = true;
      } else if (kind === SPACE) {
        if (deleting && !added) this.#mark(file, Math.max(1, line - 1), line);
        deleting = added = false;
        line++;
      } else if (kind !== 0x5c /* "\" No newline at end of file */) {
        break; // not hunk body: what follows is not read (as `scan` does)
      }
    }
    if (deleting && !added) this.#mark(file, Math.max(1, line - 1), line);
  }

  /** Add (start, end) of `file`, merged with the file's last range when they touch. */
  #mark(file: number, start: number, end: number): void {
    const n = this.#length;
    if (n >= 3 && this.#triples[n - 3] === file && start <= this.#triples[n - 1] + 1) {
      this.#triples[n - 1] = Math.max(this.#triples[n - 1], end);
      return;
    }
    this.#push(file, start, end);
  }

  /** Append one (file, start, end) triple; a full block is kept and a new one started. */
  #push(file: number, start: number, end: number): void {
    if (this.#length + 3 > this.#triples.length) {
      this.#full.push(this.#triples);
      this.#triples = new Int32Array(BLOCK_INTS);
      this.#length = 0;
    }
    const n = this.#length;
    this.#triples[n] = file;
    this.#triples[n + 1] = start;
    this.#triples[n + 2] = end;
    this.#length = n + 3;
  }

  /**
   * Each file's ranges, sorted and merged; the collector is empty afterwards.
   *
   * @param files how many files (indices `0…files-1`)
   * @returns per file its packed ranges (start, end pairs; views of one buffer), `null` for a file
   *   with none
   */
  finish(files: number): (Int32Array | null)[] {
    const blocks = [...this.#full, this.#triples.subarray(0, this.#length)];
    const offsets = new Int32Array(files + 1);
    for (const triples of blocks) {
      for (let k = 0; 3 * k < triples.length; k++) offsets[triples[3 * k] + 1] += 2;
    }
    for (let f = 0; f < files; f++) offsets[f + 1] += offsets[f];
    const grouped = new Int32Array(offsets[files]);
    const at = offsets.slice(0, files);
    for (const triples of blocks) {
      for (let k = 0; 3 * k < triples.length; k++) {
        const f = triples[3 * k];
        grouped[at[f]++] = triples[3 * k + 1];
        grouped[at[f]++] = triples[3 * k + 2];
      }
    }
    this.#full = [];
    this.#triples = new Int32Array(3 * 1024);
    this.#length = 0;
    return Array.from({ length: files }, (_, f) => {
      const own = grouped.subarray(offsets[f], offsets[f + 1]);
      return own.length === 0 ? null : mergeInPlace(own);
    });
  }
}

/** Sort and merge packed ranges in place; returns the view of the merged ones. */
function mergeInPlace(pairs: Int32Array): Int32Array {
  const count = pairs.length >> 1;
  let sorted = true;
  for (let k = 1; k < count && sorted; k++) sorted = pairs[2 * k] >= pairs[2 * k - 2];
  if (!sorted) {
    const order = Array.from({ length: count }, (_, k) => [pairs[2 * k], pairs[2 * k + 1]]);
    order.sort((a, b) => a[0] - b[0]);
    order.forEach(([start, end], k) => {
      pairs[2 * k] = start;
      pairs[2 * k + 1] = end;
    });
  }
  let n = 0;
  for (let k = 0; k < count; k++) {
    const start = pairs[2 * k];
    const end = pairs[2 * k + 1];
    if (n > 0 && start <= pairs[n - 1] + 1) pairs[n - 1] = Math.max(pairs[n - 1], end);
    else {
      pairs[n++] = start;
      pairs[n++] = end;
    }
  }
  return pairs.subarray(0, n);
}

/** Packed ranges as {@linkcode LineRange} objects. */
export function unpackLineRanges(pairs: PackedLineRanges): LineRange[] {
  const ranges: LineRange[] = [];
  for (let k = 0; k + 1 < pairs.length; k += 2) ranges.push({ start: pairs[k], end: pairs[k + 1] });
  return ranges;
}

const headerDecoder = new TextDecoder();

/**
 * Scan patch lines into `out` (empty: packed, merged with the range before when they touch);
 * `start` is the new-side line number of the first one (0: not in a hunk).
 */
function scan(section: Uint8Array, start: number, out: number[]): void {
  const mark = (start: number, end: number) => {
    const n = out.length;
    if (n > 0 && start <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], end);
    else out.push(start, end);
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
      const header = headerDecoder.decode(section.subarray(pos, Math.min(end, pos + 80)));
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
}
