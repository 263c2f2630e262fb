/**
 * A unified patch read as it streams (pure, incremental): `git diff-tree -p` output arrives in
 * pipe-sized chunks and leaves as events — a file section's header, then its hunks — so the review
 * plan never holds more than one hunk of the patch at a time, whatever the change's size. A hunk
 * larger than `maxHunkBytes` (a 100,000-line new file is one hunk) is cut at line boundaries while
 * it streams into parts whose `@@` lines carry their own, true line ranges; every part after the
 * first repeats up to {@linkcode SPLIT_CONTEXT} context lines from before its start.
 *
 * Format: git-diff(1) "GENERATING PATCH TEXT WITH -P". A section starts at a line beginning with
 * `diff --git `; its header runs to the first `@@ -` line (or to the next section: renames, mode
 * changes, empty files and binary files have no hunk). Hunk body lines start with " ", "-", "+" or
 * "\\" ("\ No newline at end of file"), so neither `diff --git ` nor `@@ -` can start one. Hunk
 * text is decoded as UTF-8, or line by line as windows-1252 where a line is not valid UTF-8
 * (every byte has a character there, so nothing is lost to U+FFFD).
 *
 * @module
 */
import { type Hunk, type Section, utf8Length } from "./hunks.ts";

/** Context lines a split hunk's later parts repeat from the part before them. */
export const SPLIT_CONTEXT = 3;

/** What the reader found. */
export type PatchEvent =
  /** A file section's header, complete (incl. a `Binary files … differ` line), as bytes. */
  | { kind: "section"; header: Uint8Array }
  /** The next hunk (or hunk part) of the current section; `fallback` when decoded as windows-1252. */
  | { kind: "hunk"; hunk: Hunk; fallback: boolean };

const DIFF_GIT = [0x64, 0x69, 0x66, 0x66, 0x20, 0x2d, 0x2d, 0x67, 0x69, 0x74, 0x20]; // "diff --git "
const HUNK_START = [0x40, 0x40, 0x20, 0x2d]; // "@@ -"
const HUNK_LINE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** Room kept in a part for its own, longer `@@ … @@ part k of one hunk; heading` line. */
const PART_LINE_RESERVE = 96;

function startsWith(line: Uint8Array, prefix: readonly number[]): boolean {
  if (line.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[i] !== prefix[i]) return false;
  return true;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder();
const latin = new TextDecoder("windows-1252");

/** Decode hunk lines: UTF-8 when all are, else each invalid line as windows-1252. */
function decodeLines(lines: readonly Uint8Array[]): { text: string; fallback: boolean } {
  const bytes = concat(lines);
  try {
    return { text: utf8.decode(bytes), fallback: false };
  } catch {
    const text = lines.map((line) => {
      try {
        return utf8.decode(line);
      } catch {
        return latin.decode(line);
      }
    }).join("");
    return { text, fallback: true };
  }
}

/** Incremental patch reader: {@linkcode push} chunks in order, then {@linkcode end} once. */
export class PatchReader {
  readonly #maxHunkBytes: number;
  #carry: Uint8Array[] = [];
  #header: Uint8Array[] | null = null;
  #hunk: HunkBuilder | null = null;
  #events: PatchEvent[] = [];

  /** @param maxHunkBytes the most bytes of one emitted hunk (parts of larger ones), ≥ 256 */
  constructor(maxHunkBytes: number) {
    this.#maxHunkBytes = Math.max(256, maxHunkBytes);
  }

  /**
   * Read the next chunk of the patch.
   *
   * @returns the events its complete lines make (a partial last line waits for the next chunk)
   */
  push(bytes: Uint8Array): PatchEvent[] {
    let pos = 0;
    while (pos < bytes.length) {
      const nl = bytes.indexOf(0x0a, pos);
      if (nl < 0) {
        this.#carry.push(bytes.slice(pos));
        break;
      }
      let line = bytes.subarray(pos, nl + 1);
      if (this.#carry.length > 0) {
        line = concat([...this.#carry, line]);
        this.#carry = [];
      }
      this.#line(line);
      pos = nl + 1;
    }
    return this.#take();
  }

  /** The patch has ended: the events of a last line without newline and of what is still open. */
  end(): PatchEvent[] {
    if (this.#carry.length > 0) {
      this.#line(concat(this.#carry));
      this.#carry = [];
    }
    this.#closeHunk();
    this.#closeHeader();
    return this.#take();
  }

  #take(): PatchEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #line(line: Uint8Array): void {
    if (startsWith(line, DIFF_GIT)) {
      this.#closeHunk();
      this.#closeHeader();
      this.#header = [line];
    } else if (startsWith(line, HUNK_START) && (this.#header !== null || this.#hunk !== null)) {
      this.#closeHunk();
      this.#closeHeader();
      this.#hunk = new HunkBuilder(line, this.#maxHunkBytes, (e) => this.#events.push(e));
    } else if (this.#header !== null) this.#header.push(line);
    else this.#hunk?.add(line); // anything before the first section is not patch text
  }

  #closeHeader(): void {
    if (this.#header === null) return;
    this.#events.push({ kind: "section", header: concat(this.#header) });
    this.#header = null;
  }

  #closeHunk(): void {
    this.#hunk?.finish();
    this.#hunk = null;
  }
}

/** One hunk being read: its lines, and their line numbers for cutting it into parts. */
class HunkBuilder {
  readonly #at: Uint8Array;
  readonly #max: number;
  readonly #emit: (event: PatchEvent) => void;
  readonly #oldStart: number;
  readonly #oldLines: number;
  readonly #newStart: number;
  readonly #newLines: number;
  readonly #heading: string;
  #lines: Uint8Array[] = [];
  #oldAt: number[] = [];
  #newAt: number[] = [];
  #bytes: number;
  #oldNext: number;
  #newNext: number;
  #part = 0;
  /** Lines added since the last cut (the repeated context lines are not fresh). */
  #fresh = 0;

  constructor(at: Uint8Array, max: number, emit: (event: PatchEvent) => void) {
    this.#at = at;
    this.#max = max;
    this.#emit = emit;
    const first = lenient.decode(at);
    const match = HUNK_LINE.exec(first);
    this.#oldStart = Number(match?.[1] ?? 0);
    this.#oldLines = match?.[2] === undefined ? 1 : Number(match[2]);
    this.#newStart = Number(match?.[3] ?? 0);
    this.#newLines = match?.[4] === undefined ? 1 : Number(match[4]);
    this.#heading = first.replace(HUNK_LINE, "").trim();
    // the first body line's numbers; an empty side's start is the line before it
    this.#oldNext = this.#oldLines === 0 ? this.#oldStart + 1 : this.#oldStart;
    this.#newNext = this.#newLines === 0 ? this.#newStart + 1 : this.#newStart;
    this.#bytes = at.length;
  }

  add(line: Uint8Array): void {
    if (this.#fresh > 0 && this.#bytes + line.length > this.#max - PART_LINE_RESERVE) this.#cut();
    this.#lines.push(line);
    this.#fresh++;
    this.#oldAt.push(this.#oldNext);
    this.#newAt.push(this.#newNext);
    const c = line[0];
    if (c === 0x20 || c === 0x2d) this.#oldNext++;
    if (c === 0x20 || c === 0x2b) this.#newNext++;
    this.#bytes += line.length;
  }

  finish(): void {
    if (this.#part === 0) {
      const { text, fallback } = decodeLines([this.#at, ...this.#lines]);
      this.#emit({
        kind: "hunk",
        hunk: {
          oldStart: this.#oldStart,
          oldLines: this.#oldLines,
          newStart: this.#newStart,
          newLines: this.#newLines,
          text,
          bytes: utf8Length(text),
          changed: countChanged(this.#lines),
        },
        fallback,
      });
    } else if (this.#lines.length > 0) this.#emitPart(this.#lines.length);
  }

  /** Emit the lines so far as a part; the next part starts with the context lines before it. */
  #cut(): void {
    const n = this.#lines.length;
    this.#emitPart(n);
    let keep = 0;
    while (keep < SPLIT_CONTEXT && keep < n && this.#lines[n - 1 - keep][0] === 0x20) keep++;
    this.#lines = this.#lines.slice(n - keep);
    this.#oldAt = this.#oldAt.slice(n - keep);
    this.#newAt = this.#newAt.slice(n - keep);
    this.#bytes = PART_LINE_RESERVE + this.#lines.reduce((s, l) => s + l.length, 0);
    this.#fresh = 0;
  }

  #emitPart(n: number): void {
    const body = this.#lines.slice(0, n);
    let oldLines = 0;
    let newLines = 0;
    for (const line of body) {
      if (line[0] === 0x20 || line[0] === 0x2d) oldLines++;
      if (line[0] === 0x20 || line[0] === 0x2b) newLines++;
    }
    const oldStart = oldLines === 0 ? this.#oldAt[0] - 1 : this.#oldAt[0];
    const newStart = newLines === 0 ? this.#newAt[0] - 1 : this.#newAt[0];
    this.#part++;
    const note = `part ${this.#part} of one hunk${this.#heading ? `; ${this.#heading}` : ""}`;
    const head = `@@ -${range(oldStart, oldLines)} +${range(newStart, newLines)} @@ ${note}\n`;
    const { text, fallback } = decodeLines(body);
    const full = head + text;
    this.#emit({
      kind: "hunk",
      hunk: {
        oldStart,
        oldLines,
        newStart,
        newLines,
        text: full,
        bytes: utf8Length(full),
        changed: countChanged(body),
      },
      fallback,
    });
  }
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

function countChanged(lines: readonly Uint8Array[]): number {
  let n = 0;
  for (const line of lines) if (line[0] === 0x2b || line[0] === 0x2d) n++;
  return n;
}

/**
 * Split one section's text into header and hunks (a {@linkcode PatchReader} over the whole text).
 *
 * @param text one `diff --git` section, newline-terminated
 * @returns the header (the whole text when it has no hunk: renames, mode changes, empty files)
 *   and the hunks in order, none cut
 */
export function parseSection(text: string): Section {
  const reader = new PatchReader(Number.MAX_SAFE_INTEGER);
  const events = [...reader.push(new TextEncoder().encode(text)), ...reader.end()];
  const section: Section = { header: "", headerBytes: 0, hunks: [] };
  for (const event of events) {
    if (event.kind === "hunk") section.hunks.push(event.hunk);
    else {
      section.header = new TextDecoder().decode(event.header);
      section.headerBytes = event.header.length;
    }
  }
  return section;
}
