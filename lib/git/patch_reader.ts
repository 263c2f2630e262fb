/**
 * A unified patch read as it streams (pure, incremental): `git diff-tree -p` output arrives in
 * pipe-sized chunks and leaves through a {@linkcode PatchSink} — a file section's header, then its
 * hunks — so the review plan never holds more than one hunk of the patch at a time, whatever the
 * change's size. The reader allocates nothing per line: the current hunk's bytes are copied into
 * one reused buffer and handed over as a view, valid only during the call. A hunk larger than
 * `cutBytes` (a 100,000-line new file is one hunk) is cut at line boundaries while it streams into
 * parts whose `@@` lines carry their own, true line ranges; every part after the first repeats up
 * to {@linkcode SPLIT_CONTEXT} context lines from before its start. A single line longer than
 * `keepBytes` (minified code; by default the part size) is not kept past that: it ends its part,
 * which is handed over marked `cut`, with its true size, so it can be named but never shown, and
 * nothing of it is repeated in the next part.
 *
 * Format: git-diff(1) "GENERATING PATCH TEXT WITH -P". A section starts at a line beginning with
 * `diff --git `; its header runs to the first `@@ -` line (or to the next section: renames, mode
 * changes, empty files and binary files have no hunk). Hunk body lines start with " ", "-", "+" or
 * "\\" ("\ No newline at end of file"), so neither `diff --git ` nor `@@ -` can start one. Bytes are
 * passed on as read; decoding them (UTF-8, or windows-1252 per line) is the plan's business.
 *
 * @module
 */
import { ByteBuffer } from "../base/byte_buffer.ts";
import { type Hunk, type Section, utf8Length } from "./hunks.ts";
import { decodeDiffText } from "./text_encoding.ts";
import type { HunkRange } from "./types.ts";

/** Context lines a split hunk's later parts repeat from the part before them. */
export const SPLIT_CONTEXT = 3;

/** One hunk (or hunk part) as the reader hands it over. */
export interface HunkInfo extends HunkRange {
  /** Bytes of its text: the `@@` line and the body (including what a `cut` part lost). */
  bytes: number;
  /**
   * Bytes of git's patch text this part covers for the first time (its share of the hunk: the
   * hunk's own `@@` line in the first part, then each line in the part it is new in; never the
   * lines repeated as context nor a later part's own `@@` line). The parts of a hunk sum to the
   * hunk's size in the patch.
   */
  own: number;
  /** Added plus deleted lines. */
  changed: number;
  additions: number;
  deletions: number;
  /** True when a line of it was longer than `keepBytes`: its text is incomplete, never show it. */
  cut: boolean;
}

/**
 * The body lines of a handed-over hunk part, per line its first byte (" ", "-", "+", "\\") and
 * its new-side line number: views valid only during the call. What the changed lines are
 * gathered from (lib/git/changed_lines.ts) without reading the body's bytes again.
 */
export interface HunkLines {
  /** Lines of the part. */
  count: number;
  /** First byte of each line. */
  kinds: Uint8Array;
  /** New-side line number of each line (of the next new-side line for a "-" line). */
  newAt: Int32Array;
}

/** Where the reader's findings go, in patch order. */
export interface PatchSink {
  /** A file section's header, complete (incl. a `Binary files … differ` line); a fresh copy. */
  section(header: Uint8Array): void;
  /**
   * The current section's next hunk or hunk part: its text is `head` (the `@@` line) then `body`,
   * both views valid only during the call (copy what you keep), and its lines' kinds and numbers.
   */
  hunk(hunk: HunkInfo, head: Uint8Array, body: Uint8Array, lines: HunkLines): void;
}

/** Sizes the reader works to. */
export interface ReaderLimits {
  /** Most bytes of one hunk part: larger hunks are cut at line boundaries (at least 256). */
  cutBytes: number;
  /** Most bytes of one line kept (a longer line makes its part `cut`); default `cutBytes`. */
  keepBytes?: number;
}

const DIFF_GIT = [0x64, 0x69, 0x66, 0x66, 0x20, 0x2d, 0x2d, 0x67, 0x69, 0x74, 0x20]; // "diff --git "
const HUNK_START = [0x40, 0x40, 0x20, 0x2d]; // "@@ -"
const HUNK_LINE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** Room kept in a part for its own, longer `@@ … @@ part k of one hunk; heading` line. */
const PART_LINE_RESERVE = 96;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;

/** Where the bytes of the current line go. */
const enum Dest {
  Skip,
  Header,
  At,
  Body,
}

/** True when `bytes[at, end)` starts with `prefix` (read in place: no view is made per line). */
function startsWith(
  bytes: Uint8Array,
  at: number,
  end: number,
  prefix: readonly number[],
): boolean {
  if (end - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

const lenient = new TextDecoder();
const encoder = new TextEncoder();

/** Incremental patch reader: {@linkcode push} chunks in order, then {@linkcode end} once. */
export class PatchReader {
  readonly #sink: PatchSink;
  readonly #hunk: HunkBuilder;
  /** The start of a line split across two pushes, until it can be classified. */
  readonly #head = new Uint8Array(DIFF_GIT.length);
  #headLength = 0;
  readonly #header = new ByteBuffer(1024);
  #headerOpen = false;
  #hunkOpen = false;
  #inLine = false;
  #dest = Dest.Skip;

  /**
   * @param limits hunk part size (`cutBytes` ≥ 256) and the most bytes of a part kept
   * @param sink receives the sections and hunks
   */
  constructor(limits: ReaderLimits, sink: PatchSink) {
    this.#sink = sink;
    const cut = Math.max(256, limits.cutBytes);
    this.#hunk = new HunkBuilder(cut, limits.keepBytes ?? cut, sink);
  }

  /** Read the next chunk of the patch (the reader copies what it keeps). */
  push(bytes: Uint8Array): void {
    let pos = 0;
    const length = bytes.length;
    while (pos < length) {
      if (!this.#inLine && this.#headLength === 0) {
        // the common case: a whole line in this chunk, found with one search
        const nl = bytes.indexOf(NEWLINE, pos);
        if (nl >= 0) {
          const first = bytes[pos];
          // in a hunk, only "diff --git " and "@@ -" lines are not body lines
          if (this.#hunkOpen && first !== 0x64 && first !== 0x40) {
            this.#hunk.line(bytes, pos, nl + 1, first);
          } else {
            this.#classify(bytes, pos, Math.min(length, pos + DIFF_GIT.length));
            this.#feed(bytes, pos, nl + 1);
            this.#endLine();
          }
          pos = nl + 1;
          continue;
        }
      }
      if (!this.#inLine) {
        const next = this.#startLine(bytes, pos);
        if (next < 0) break; // the line's start is too short to classify yet
        pos = next;
        if (!this.#inLine) continue; // a short line, already read whole
      }
      const nl = bytes.indexOf(NEWLINE, pos);
      const end = nl < 0 ? length : nl + 1;
      this.#feed(bytes, pos, end);
      pos = end;
      if (nl >= 0) this.#endLine();
    }
    // what is kept of this chunk is copied before it goes back to the caller
    this.#hunk.flush();
  }

  /** The patch has ended: a last line without newline and what is still open are handed over. */
  end(): void {
    if (!this.#inLine && this.#headLength > 0) {
      this.#classify(this.#head, 0, this.#headLength);
      this.#feed(this.#head, 0, this.#headLength);
      this.#headLength = 0;
    }
    if (this.#inLine) this.#endLine();
    this.#closeHunk();
    this.#closeHeader();
  }

  /**
   * Classify the line starting at `pos` (with any start kept from the last push) and feed what of
   * it was kept aside.
   *
   * @returns where reading goes on in `bytes`, or -1 when all of it was kept aside
   */
  #startLine(bytes: Uint8Array, pos: number): number {
    const want = DIFF_GIT.length;
    if (this.#headLength === 0) {
      const nl = bytes.indexOf(NEWLINE, pos);
      if (bytes.length - pos >= want || (nl >= 0 && nl < pos + want)) {
        this.#classify(bytes, pos, Math.min(bytes.length, pos + want));
        return pos;
      }
    }
    let taken = 0;
    let complete = false;
    while (this.#headLength < want && pos + taken < bytes.length) {
      const byte = bytes[pos + taken++];
      this.#head[this.#headLength++] = byte;
      if (byte === NEWLINE) {
        complete = true;
        break;
      }
    }
    if (!complete && this.#headLength < want) return -1;
    this.#classify(this.#head, 0, this.#headLength);
    this.#feed(this.#head, 0, this.#headLength);
    this.#headLength = 0;
    if (complete) this.#endLine();
    return pos + taken;
  }

  /** Decide where the line that starts with `bytes[at, end)` goes, closing what it ends. */
  #classify(bytes: Uint8Array, at: number, end: number): void {
    this.#inLine = true;
    if (startsWith(bytes, at, end, DIFF_GIT)) {
      this.#closeHunk();
      this.#closeHeader();
      this.#header.reset();
      this.#headerOpen = true;
      this.#dest = Dest.Header;
    } else if (startsWith(bytes, at, end, HUNK_START) && (this.#headerOpen || this.#hunkOpen)) {
      this.#closeHunk();
      this.#closeHeader();
      this.#hunk.begin();
      this.#hunkOpen = true;
      this.#dest = Dest.At;
    } else if (this.#headerOpen) this.#dest = Dest.Header;
    else if (this.#hunkOpen) {
      this.#hunk.beginLine(bytes[at]);
      this.#dest = Dest.Body;
    } else this.#dest = Dest.Skip; // anything before the first section is not patch text
  }

  /** Keep `bytes[start, end)` where the current line goes. */
  #feed(bytes: Uint8Array, start: number, end: number): void {
    if (this.#dest === Dest.Body) this.#hunk.appendBody(bytes, start, end);
    else if (this.#dest === Dest.Header) this.#header.append(bytes.subarray(start, end));
    else if (this.#dest === Dest.At) this.#hunk.appendAt(bytes.subarray(start, end));
  }

  #endLine(): void {
    if (this.#dest === Dest.At) this.#hunk.endAt();
    else if (this.#dest === Dest.Body) this.#hunk.endLine();
    this.#inLine = false;
  }

  #closeHeader(): void {
    if (!this.#headerOpen) return;
    this.#headerOpen = false;
    this.#sink.section(this.#header.view().slice());
  }

  #closeHunk(): void {
    if (!this.#hunkOpen) return;
    this.#hunkOpen = false;
    this.#hunk.finish();
  }
}

/** Grow `array` (a typed array) to hold at least `n` entries. */
function grown<T extends Int32Array | Uint8Array>(array: T, n: number, make: (n: number) => T): T {
  if (n <= array.length) return array;
  const next = make(Math.max(n, array.length * 2));
  next.set(array);
  return next;
}

/**
 * The hunk being read, reused from hunk to hunk: its `@@` line, the current part's body in one
 * buffer, and per line of the part its start, kind and line numbers (for cutting it into parts).
 * Whole lines of one chunk are not copied one by one: they are noted as one pending run of the
 * chunk's bytes, copied in one go when the part is handed over or cut, or when the chunk ends.
 */
class HunkBuilder {
  readonly #cutBytes: number;
  readonly #keepBytes: number;
  readonly #sink: PatchSink;
  readonly #at = new ByteBuffer(256);
  readonly #body = new ByteBuffer(16 * 1024);
  /** The pending run: bytes `[#runFrom, #runTo)` of `#run`, logically after `#body`'s. */
  #run: Uint8Array | null = null;
  #runFrom = 0;
  #runTo = 0;
  #starts = new Int32Array(256);
  #kinds = new Uint8Array(256);
  #oldAt = new Int32Array(256);
  #newAt = new Int32Array(256);
  #count = 0;
  #range = { oldStart: 0, oldLines: 0, newStart: 0, newLines: 0 };
  /** The `@@` line's heading, read from it only when the hunk is cut (`null` until then). */
  #heading: string | null = null;
  #oldNext = 0;
  #newNext = 0;
  #part = 0;
  /** Lines added since the last cut (the repeated context lines are not fresh). */
  #fresh = 0;
  /** Bytes of the part's last line not kept (it was longer than `keepBytes`). */
  #overflow = 0;
  /** Leading lines of the current part repeated as context from the part before. */
  #repeated = 0;
  readonly #lines: HunkLines = { count: 0, kinds: this.#kinds, newAt: this.#newAt };

  constructor(cutBytes: number, keepBytes: number, sink: PatchSink) {
    this.#cutBytes = cutBytes;
    this.#keepBytes = keepBytes;
    this.#sink = sink;
  }

  /** A new hunk starts (its `@@` line follows). */
  begin(): void {
    this.flush();
    this.#at.reset();
    this.#body.reset();
    this.#count = 0;
    this.#part = 0;
    this.#fresh = 0;
    this.#overflow = 0;
    this.#repeated = 0;
    this.#heading = null;
  }

  appendAt(bytes: Uint8Array): void {
    if (this.#at.length < 4096) this.#at.append(bytes.subarray(0, 4096 - this.#at.length));
  }

  /** The `@@` line is complete: read its ranges. */
  endAt(): void {
    const range = readRange(this.#at.view()) ?? readRangeText(lenient.decode(this.#at.view()));
    this.#range = range;
    // the first body line's numbers; an empty side's start is the line before it
    this.#oldNext = range.oldLines === 0 ? range.oldStart + 1 : range.oldStart;
    this.#newNext = range.newLines === 0 ? range.newStart + 1 : range.newStart;
  }

  /** Copy the pending run into the body buffer (the chunk it is in goes back to the caller). */
  flush(): void {
    if (this.#run === null) return;
    this.#body.appendRange(this.#run, this.#runFrom, this.#runTo);
    this.#run = null;
  }

  /** Bytes of the part's body kept so far, the pending run included. */
  #bodyLength(): number {
    return this.#body.length + (this.#run === null ? 0 : this.#runTo - this.#runFrom);
  }

  /**
   * A whole body line `bytes[start, end)` (newline included) starting with byte `kind`: as
   * {@linkcode beginLine}, {@linkcode appendBody} and {@linkcode endLine}, without copying it
   * yet when it is no longer than `keepBytes`.
   */
  line(bytes: Uint8Array, start: number, end: number, kind: number): void {
    if (end - start > this.#keepBytes) {
      this.beginLine(kind);
      this.appendBody(bytes, start, end);
      this.endLine();
      return;
    }
    if (this.#fresh > 0 && this.#full()) this.#cut(this.#count);
    const i = this.#count;
    if (i === this.#starts.length) this.#grow(i + 1);
    if (this.#run !== bytes || this.#runTo !== start) {
      this.flush();
      this.#run = bytes;
      this.#runFrom = start;
      this.#runTo = start;
    }
    this.#starts[i] = this.#bodyLength();
    this.#kinds[i] = kind;
    this.#oldAt[i] = this.#oldNext;
    this.#newAt[i] = this.#newNext;
    this.#count = i + 1;
    this.#runTo = end;
    if (kind === SPACE || kind === MINUS) this.#oldNext++;
    if (kind === SPACE || kind === PLUS) this.#newNext++;
    this.#fresh++;
    if (this.#fresh > 1 && this.#partBytes() > this.#limit()) this.#cut(this.#count - 1);
  }

  /** A body line starting with byte `kind` begins (a part too large already is handed over). */
  beginLine(kind: number): void {
    this.flush();
    if (this.#fresh > 0 && this.#full()) this.#cut(this.#count);
    const n = this.#count + 1;
    if (n > this.#starts.length) this.#grow(n);
    this.#starts[this.#count] = this.#body.length;
    this.#kinds[this.#count] = kind;
    this.#oldAt[this.#count] = this.#oldNext;
    this.#newAt[this.#count] = this.#newNext;
    this.#count = n;
  }

  /** Room for at least `n` lines' numbers. */
  #grow(n: number): void {
    this.#starts = grown(this.#starts, n, (k) => new Int32Array(k));
    this.#kinds = grown(this.#kinds, n, (k) => new Uint8Array(k));
    this.#oldAt = grown(this.#oldAt, n, (k) => new Int32Array(k));
    this.#newAt = grown(this.#newAt, n, (k) => new Int32Array(k));
    this.#lines.kinds = this.#kinds;
    this.#lines.newAt = this.#newAt;
  }

  /** Keep `bytes[start, end)` of the current body line (past `keepBytes` only counted). */
  appendBody(bytes: Uint8Array, start: number, end: number): void {
    this.flush();
    const line = this.#body.length - this.#starts[this.#count - 1];
    const room = Math.max(0, this.#keepBytes - line);
    const kept = Math.min(end - start, room);
    this.#body.appendRange(bytes, start, start + kept);
    this.#overflow += end - start - kept;
  }

  /** The current body line is complete: a part too large with it is handed over before it. */
  endLine(): void {
    const kind = this.#kinds[this.#count - 1];
    if (kind === SPACE || kind === MINUS) this.#oldNext++;
    if (kind === SPACE || kind === PLUS) this.#newNext++;
    this.#fresh++;
    if (this.#fresh > 1 && this.#partBytes() > this.#limit()) this.#cut(this.#count - 1);
  }

  /** The hunk has ended: hand over what is left of it. */
  finish(): void {
    this.flush();
    if (this.#part === 0) {
      const info = this.#info(this.#count, this.#at.length);
      Object.assign(info, this.#range);
      this.#lines.count = this.#count;
      this.#sink.hunk(info, this.#at.view(), this.#body.view(), this.#lines);
    } else if (this.#count > 0) this.#emitPart(this.#count);
  }

  #limit(): number {
    return this.#cutBytes - PART_LINE_RESERVE;
  }

  /**
   * Whether the part must be handed over before the next line: it is over its size, or its last
   * line was longer than `keepBytes` (such a line ends its part: were the part to go on, a later
   * cut could repeat the line's kept bytes, without their newline, as context of a part shown).
   */
  #full(): boolean {
    return this.#overflow > 0 || this.#partBytes() > this.#limit();
  }

  #partBytes(): number {
    const head = this.#part === 0 ? this.#at.length : PART_LINE_RESERVE;
    return head + this.#bodyLength() + this.#overflow;
  }

  /**
   * Hand over lines `[0, n)` as a part; the next part starts with the context lines before line
   * `n` (up to {@linkcode SPLIT_CONTEXT}, never a line that was not kept whole) and lines `n…`.
   */
  #cut(n: number): void {
    this.flush();
    const all = n === this.#count;
    this.#emitPart(n);
    let keep = 0;
    while (
      !(all && this.#overflow > 0) && keep < SPLIT_CONTEXT && keep < n &&
      this.#kinds[n - 1 - keep] === SPACE
    ) keep++;
    const first = n - keep;
    // every line went (n is the count): nothing of the part stays, not even a long line's tail
    const from = first < this.#count ? this.#starts[first] : this.#body.length;
    this.#body.shift(from);
    for (let i = first; i < this.#count; i++) {
      const to = i - first;
      this.#starts[to] = this.#starts[i] - from;
      this.#kinds[to] = this.#kinds[i];
      this.#oldAt[to] = this.#oldAt[i];
      this.#newAt[to] = this.#newAt[i];
    }
    this.#count -= first;
    this.#fresh = this.#count - keep;
    this.#repeated = keep;
    if (all) this.#overflow = 0; // the part's last line (the only one that can overflow) went with it
  }

  /** Counts of lines `[0, n)` of the current part (the pending run flushed). */
  #info(n: number, headBytes: number): HunkInfo {
    let oldLines = 0;
    let newLines = 0;
    let additions = 0;
    let deletions = 0;
    const kinds = this.#kinds;
    for (let i = 0; i < n; i++) {
      const kind = kinds[i];
      if (kind === SPACE) {
        oldLines++;
        newLines++;
      } else if (kind === MINUS) {
        oldLines++;
        deletions++;
      } else if (kind === PLUS) {
        newLines++;
        additions++;
      }
    }
    const end = n < this.#count ? this.#starts[n] : this.#body.length;
    const overflow = n === this.#count ? this.#overflow : 0;
    const fresh = Math.min(this.#repeated, n);
    const repeated = fresh < this.#count ? this.#starts[fresh] : this.#body.length;
    return {
      oldStart: n === 0 ? this.#oldNext : oldLines === 0 ? this.#oldAt[0] - 1 : this.#oldAt[0],
      oldLines,
      newStart: n === 0 ? this.#newNext : newLines === 0 ? this.#newAt[0] - 1 : this.#newAt[0],
      newLines,
      bytes: headBytes + end + overflow,
      own: (this.#part <= 1 ? this.#at.length : 0) + end - repeated + overflow,
      changed: additions + deletions,
      additions,
      deletions,
      cut: overflow > 0,
    };
  }

  #emitPart(n: number): void {
    this.#part++;
    const probe = this.#info(n, 0);
    this.#heading ??= lenient.decode(this.#at.view()).replace(HUNK_LINE, "").trim();
    const heading = this.#heading;
    const note = `part ${this.#part} of one hunk${heading ? `; ${heading}` : ""}`;
    const head = encoder.encode(
      `@@ -${range(probe.oldStart, probe.oldLines)} +${
        range(probe.newStart, probe.newLines)
      } @@ ${note}\n`,
    );
    const end = n < this.#count ? this.#starts[n] : this.#body.length;
    probe.bytes += head.length;
    this.#lines.count = n;
    this.#sink.hunk(probe, head, this.#body.view(0, end), this.#lines);
  }
}

/** A hunk's ranges as its `@@` line's text gives them (0 for what it does not say). */
function readRangeText(first: string): HunkRange {
  const match = HUNK_LINE.exec(first);
  return {
    oldStart: Number(match?.[1] ?? 0),
    oldLines: match?.[2] === undefined ? 1 : Number(match[2]),
    newStart: Number(match?.[3] ?? 0),
    newLines: match?.[4] === undefined ? 1 : Number(match[4]),
  };
}

const COMMA = 0x2c;
const DIGIT_0 = 0x30;

/**
 * A hunk's ranges read from its `@@ -a[,b] +c[,d] @@` line's bytes in place (as
 * {@linkcode readRangeText} reads its text), or `null` when the line is not of that form.
 */
function readRange(at: Uint8Array): HunkRange | null {
  let i = HUNK_START.length;
  const number = (): number => {
    const from = i;
    let value = 0;
    while (i < at.length && at[i] >= DIGIT_0 && at[i] <= DIGIT_0 + 9 && i - from < 10) {
      value = value * 10 + at[i++] - DIGIT_0;
    }
    return i > from && i - from < 10 ? value : -1;
  };
  const oldStart = number();
  const oldLines = at[i] === COMMA ? (i++, number()) : 1;
  if (oldStart < 0 || oldLines < 0 || at[i++] !== SPACE || at[i++] !== PLUS) return null;
  const newStart = number();
  const newLines = at[i] === COMMA ? (i++, number()) : 1;
  if (newStart < 0 || newLines < 0 || at[i++] !== SPACE || at[i++] !== 0x40) return null;
  if (at[i] !== 0x40) return null;
  return { oldStart, oldLines, newStart, newLines };
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/**
 * Split one section's text into header and hunks (a {@linkcode PatchReader} over the whole text,
 * nothing cut; hunk text decoded as UTF-8, or per line as windows-1252).
 *
 * @param text one `diff --git` section, newline-terminated
 * @returns the header (the whole text when it has no hunk: renames, mode changes, empty files)
 *   and the hunks in order
 */
export function parseSection(text: string): Section {
  const section: Section = { header: "", headerBytes: 0, hunks: [] };
  const reader = new PatchReader({ cutBytes: Number.MAX_SAFE_INTEGER }, {
    section(header) {
      section.header = lenient.decode(header);
      section.headerBytes = header.length;
    },
    hunk(info, head, body) {
      section.hunks.push(toHunk(info, head, body));
    },
  });
  reader.push(encoder.encode(text));
  reader.end();
  return section;
}

/**
 * A handed-over hunk as a {@linkcode Hunk} with its text decoded (UTF-8, or per line
 * windows-1252).
 */
export function toHunk(info: HunkInfo, head: Uint8Array, body: Uint8Array): Hunk {
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  const { text } = decodeDiffText(bytes);
  const { oldStart, oldLines, newStart, newLines, changed } = info;
  return { oldStart, oldLines, newStart, newLines, text, bytes: utf8Length(text), changed };
}
