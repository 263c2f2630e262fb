/**
 * The review plan (pure, incremental): which parts of a change go to which model call, and what
 * is left out.
 *
 * A file's diff streams in — section headers and hunks, as lib/git/patch_reader.ts reads them —
 * and becomes *pieces*: the whole file when it fits `pieceBytes` (`budgets.file_bytes`), else runs
 * of hunks of at most `pieceBytes`, each carrying its section header (hunks larger than that were
 * already cut at line boundaries by the reader). Only the current file's pieces-in-making are
 * buffered, at most `pieceBytes`. Pieces are kept while their total stays within the plan's
 * capacity (`maxChunks × chunkBytes`); past it the largest pieces are dropped first and their text
 * let go at once, so memory stays bounded by the capacity whatever the change's size, and the most
 * files and hunks stay reviewable. At the end the kept pieces are packed in path order (files of
 * one directory share a call) into at most `maxChunks` chunks of at most `chunkBytes`: a piece
 * that does not fit the current chunk opens the next one, and once every chunk is open it goes to
 * the first with room. What fits nowhere is left out as "budget".
 *
 * Coverage names every part the model does not get: whole files, or the hunks of a file whose
 * other hunks were shown (with their line ranges), plus the parts collection could not show
 * (binary, undecodable, submodule), with changed lines and diff bytes on both sides.
 *
 * @module
 */
import { type Hunk, type Section, utf8Length } from "./hunks.ts";
import type { ChangeChunk, Coverage, HunkRange, OmitReason, OmittedPart } from "./types.ts";

/** One whole file offered to the plan at once (see {@linkcode Planner.add}). */
export interface PlanFile {
  path: string;
  /** The file's diff sections that can be shown (text), in order. */
  sections: Section[];
  /** Parts collection already could not show (binary, undecodable, submodule). */
  omitted?: OmittedPart[];
}

/** Limits of a plan. */
export interface PlanLimits {
  /** Most UTF-8 bytes of diff text in one chunk (one model call). */
  chunkBytes: number;
  /** Most bytes of one piece: files larger than this are cut at hunk boundaries. */
  pieceBytes: number;
  /** Most chunks (model calls). */
  maxChunks: number;
}

/** One chunk: the diff text one model call reviews. */
export type PlannedChunk = ChangeChunk;

/** The plan's outcome. */
export interface ReviewPlan {
  chunks: PlannedChunk[];
  coverage: Coverage;
  /** Per file index: the reason when none of the file's diff is shown. */
  fileOmitted: (OmitReason | undefined)[];
}

interface Slice {
  section: number;
  header: string;
  headerBytes: number;
  hunks: Hunk[];
}

interface Piece {
  file: number;
  seq: number;
  bytes: number;
  lines: number;
  /** Text, released when the piece is dropped. */
  slices: Slice[] | null;
  ranges: HunkRange[];
}

interface FileState {
  path: string;
  omitted: OmittedPart[];
  /** Next piece number and section number of the file. */
  seq: number;
  sections: number;
}

/** The file whose diff is streaming in. */
interface Current {
  file: number;
  /** While the file may still be one piece: its slices so far and their bytes. */
  buffer: Slice[];
  bytes: number;
  /** Past `pieceBytes`: pieces are cut as they fill. */
  large: boolean;
  /** The piece being filled (large files), and whether its section has had a piece yet. */
  open: Slice | null;
  openBytes: number;
  openEmpty: boolean;
}

/**
 * Incremental planner: for each file {@linkcode Planner.file}, then its sections and hunks (or
 * {@linkcode Planner.add} a whole file); {@linkcode Planner.finish} once. Files may come in any
 * order (the plan sorts by file index) and a file may be reopened to add more sections.
 */
export class Planner {
  readonly #limits: PlanLimits;
  readonly #pieceLimit: number;
  readonly #files = new Map<number, FileState>();
  readonly #pieces: Piece[] = [];
  readonly #heap: Piece[] = [];
  #kept = 0;
  #current: Current | null = null;
  /** One past the highest file index seen (the index {@linkcode Planner.add} gives). */
  #next = 0;

  /** @param limits chunk size, piece size (bytes, ≥ 1) and chunk count (≥ 1) */
  constructor(limits: PlanLimits) {
    this.#limits = limits;
    this.#pieceLimit = Math.max(1, Math.min(limits.pieceBytes, limits.chunkBytes));
  }

  /** Offer a whole file as the next index; returns its index. */
  add(file: PlanFile): number {
    const index = this.#next;
    this.file(index, file.path);
    for (const part of file.omitted ?? []) this.omit(part);
    for (const section of file.sections) {
      this.section(section.header);
      for (const hunk of section.hunks) this.hunk(hunk);
    }
    this.endFile();
    return index;
  }

  /** Start (or go back to) file `index`; the file being streamed so far is ended. */
  file(index: number, path: string): void {
    this.endFile();
    if (!this.#files.has(index)) this.#files.set(index, { path, omitted: [], seq: 0, sections: 0 });
    this.#next = Math.max(this.#next, index + 1);
    this.#current = {
      file: index,
      buffer: [],
      bytes: 0,
      large: false,
      open: null,
      openBytes: 0,
      openEmpty: false,
    };
  }

  /** Name a part of the current file collection could not show. */
  omit(part: OmittedPart): void {
    const state = this.#state();
    if (!state.omitted.some((o) => o.reason === part.reason)) state.omitted.push(part);
  }

  /** The current file's next section starts, with this header text. */
  section(header: string): void {
    const cur = this.#require();
    const slice = {
      section: this.#state().sections++,
      header,
      headerBytes: utf8Length(header),
      hunks: [],
    };
    if (!cur.large) {
      cur.buffer.push(slice);
      cur.bytes += slice.headerBytes;
      if (cur.bytes > this.#pieceLimit) this.#goLarge(cur);
      return;
    }
    this.#closeOpen(cur);
    cur.open = slice;
    cur.openBytes = slice.headerBytes;
    cur.openEmpty = true;
  }

  /** The current section's next hunk (at most about `pieceBytes`; the reader cuts larger ones). */
  hunk(hunk: Hunk): void {
    const cur = this.#require();
    if (!cur.large) {
      const last = cur.buffer.at(-1);
      if (!last) return; // a hunk before any header: not patch text
      last.hunks.push(hunk);
      cur.bytes += hunk.bytes;
      if (cur.bytes > this.#pieceLimit) this.#goLarge(cur);
      return;
    }
    this.#largeHunk(cur, hunk);
  }

  /** End the current file: its last piece is made. */
  endFile(): void {
    const cur = this.#current;
    if (!cur) return;
    if (!cur.large && cur.buffer.length > 0) this.#addPiece(cur.file, cur.buffer);
    if (cur.large) this.#closeOpen(cur);
    this.#current = null;
  }

  /** Pack the kept pieces into chunks and describe the coverage. */
  finish(): ReviewPlan {
    this.endFile();
    const { chunkBytes, maxChunks } = this.#limits;
    const bins: Piece[][] = [];
    const sizes: number[] = [];
    for (const piece of this.#pieces.filter((p) => p.slices !== null).sort(byOrder)) {
      let bin = bins.length - 1;
      if (bin < 0 || sizes[bin] + piece.bytes > chunkBytes) {
        if (bins.length < maxChunks) {
          bins.push([]);
          sizes.push(0);
          bin = bins.length - 1;
        } else bin = sizes.findIndex((s) => s + piece.bytes <= chunkBytes);
      }
      if (bin < 0 || piece.bytes > chunkBytes) {
        piece.slices = null;
        continue;
      }
      bins[bin].push(piece);
      sizes[bin] += piece.bytes;
    }
    const chunks = bins.map((bin) => renderChunk(bin.sort(byOrder), this.#files));
    return { chunks, ...describeCoverage(this.#files, this.#pieces, chunks) };
  }

  #state(): FileState {
    return this.#files.get(this.#require().file)!;
  }

  #require(): Current {
    if (!this.#current) throw new Error("Planner: no file started");
    return this.#current;
  }

  /** The file outgrew one piece: cut what was buffered into pieces, and go on cutting. */
  #goLarge(cur: Current): void {
    cur.large = true;
    const buffered = cur.buffer;
    cur.buffer = [];
    for (const slice of buffered) {
      this.#closeOpen(cur);
      cur.open = { ...slice, hunks: [] };
      cur.openBytes = slice.headerBytes;
      cur.openEmpty = true;
      for (const hunk of slice.hunks) this.#largeHunk(cur, hunk);
    }
  }

  #largeHunk(cur: Current, hunk: Hunk): void {
    const open = cur.open;
    if (!open) return;
    if (open.hunks.length > 0 && cur.openBytes + hunk.bytes > this.#pieceLimit) {
      this.#closeOpen(cur);
      cur.open = { ...open, hunks: [] };
      cur.openBytes = open.headerBytes;
    }
    cur.open!.hunks.push(hunk);
    cur.openBytes += hunk.bytes;
  }

  /** Make a piece of the open slice: with hunks, or header only for a section that has none. */
  #closeOpen(cur: Current): void {
    const open = cur.open;
    if (open && (open.hunks.length > 0 || cur.openEmpty)) this.#addPiece(cur.file, [open]);
    cur.open = null;
    cur.openEmpty = false;
  }

  #addPiece(file: number, slices: Slice[]): void {
    const state = this.#files.get(file)!;
    const piece = makePiece(file, state.seq++, slices);
    this.#pieces.push(piece);
    heapPush(this.#heap, piece);
    this.#kept += piece.bytes;
    const capacity = this.#limits.chunkBytes * this.#limits.maxChunks;
    while (this.#kept > capacity && this.#heap.length > 0) {
      const dropped = heapPop(this.#heap);
      dropped.slices = null;
      this.#kept -= dropped.bytes;
    }
  }
}

function byOrder(a: Piece, b: Piece): number {
  return a.file - b.file || a.seq - b.seq;
}

function makePiece(file: number, seq: number, slices: Slice[]): Piece {
  let bytes = 0;
  let lines = 0;
  const ranges: HunkRange[] = [];
  for (const slice of slices) {
    bytes += slice.headerBytes;
    for (const h of slice.hunks) {
      bytes += h.bytes;
      lines += h.changed;
      ranges.push({
        oldStart: h.oldStart,
        oldLines: h.oldLines,
        newStart: h.newStart,
        newLines: h.newLines,
      });
    }
  }
  return { file, seq, bytes, lines, slices, ranges };
}

/** The chunk's diff: its pieces' text in order, each section header written once. */
function renderChunk(pieces: Piece[], files: Map<number, FileState>): PlannedChunk {
  const parts: string[] = [];
  const paths: string[] = [];
  let last = "";
  let lines = 0;
  for (const piece of pieces) {
    const path = files.get(piece.file)!.path;
    if (paths.at(-1) !== path) paths.push(path);
    for (const slice of piece.slices!) {
      const key = `${piece.file}:${slice.section}`;
      if (key !== last) parts.push(slice.header);
      last = key;
      for (const hunk of slice.hunks) parts.push(hunk.text);
    }
    lines += piece.lines;
  }
  const diff = parts.join("");
  return { diff, bytes: utf8Length(diff), lines, paths };
}

/** Coverage of a packed plan, and each file's reason when none of it is shown. */
function describeCoverage(
  files: Map<number, FileState>,
  pieces: Piece[],
  chunks: PlannedChunk[],
): Pick<ReviewPlan, "coverage" | "fileOmitted"> {
  const byFile = new Map<number, Piece[]>();
  for (const piece of pieces) {
    const list = byFile.get(piece.file);
    if (list) list.push(piece);
    else byFile.set(piece.file, [piece]);
  }
  const omitted: OmittedPart[] = [];
  const fileOmitted: (OmitReason | undefined)[] = [];
  for (const i of [...files.keys()].sort((a, b) => a - b)) {
    const file = files.get(i)!;
    const own = (byFile.get(i) ?? []).sort(byOrder);
    const dropped = own.filter((p) => p.slices === null);
    const shown = own.length - dropped.length;
    if (dropped.length > 0) {
      const part: OmittedPart = {
        path: file.path,
        reason: "budget",
        lines: dropped.reduce((n, p) => n + p.lines, 0),
        bytes: dropped.reduce((n, p) => n + p.bytes, 0),
      };
      if (shown > 0) part.hunks = dropped.flatMap((p) => p.ranges);
      omitted.push(part);
    }
    omitted.push(...file.omitted);
    fileOmitted[i] = shown > 0
      ? undefined
      : dropped.length > 0
      ? "budget"
      : file.omitted[0]?.reason;
  }
  const coverage: Coverage = {
    status: omitted.length > 0 ? "partial" : "complete",
    omitted,
    reviewedLines: chunks.reduce((n, c) => n + c.lines, 0),
    omittedLines: omitted.reduce((n, p) => n + p.lines, 0),
    reviewedBytes: chunks.reduce((n, c) => n + c.bytes, 0),
    omittedBytes: omitted.reduce((n, p) => n + p.bytes, 0),
  };
  return { coverage, fileOmitted };
}

/**
 * Max-heap of pieces by size in 4 KiB steps; pieces of about the same size put the later one on
 * top (dropped first), so the parts of a large file cut into equal pieces are kept from its top.
 */
function above(a: Piece, b: Piece): boolean {
  const sa = a.bytes >> 12;
  const sb = b.bytes >> 12;
  return sa > sb || (sa === sb && byOrder(a, b) > 0);
}

function heapPush(heap: Piece[], piece: Piece): void {
  heap.push(piece);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!above(heap[i], heap[parent])) break;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function heapPop(heap: Piece[]): Piece {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < heap.length && above(heap[l], heap[best])) best = l;
      if (r < heap.length && above(heap[r], heap[best])) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best], heap[i]];
      i = best;
    }
  }
  return top;
}
