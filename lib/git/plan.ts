/**
 * The review plan (pure): which parts of a change go to which model call, and what is left out.
 *
 * Files arrive in git's path order. A file's diff is one *piece* when it fits `pieceBytes`
 * (`budgets.file_bytes`); a larger file is cut at hunk boundaries into pieces of at most
 * `pieceBytes`, each carrying its section header (a hunk larger than that is cut at line
 * boundaries by lib/git/hunks.ts `splitHunk`). Pieces are kept while their total stays within the
 * plan's capacity (`maxChunks × chunkBytes`); past it the largest pieces are dropped first (their
 * text is let go at once, so memory stays bounded by the capacity whatever the change's size),
 * which keeps the most files and hunks reviewable. The kept pieces are then packed in path order
 * (so files of one directory share a call) into at most `maxChunks` chunks of at most
 * `chunkBytes` each: a piece that does not fit the current chunk opens the next one, and once
 * every chunk is open it goes to the first with room. What fits nowhere is left out as "budget".
 *
 * Coverage names every part the model does not get: whole files, or the hunks of a file whose
 * other hunks were shown (with their line ranges), plus the parts collection could not show
 * (binary, undecodable, submodule), with changed lines and diff bytes on both sides.
 *
 * @module
 */
import { type Hunk, type Section, splitHunk } from "./hunks.ts";
import type { Coverage, HunkRange, OmitReason, OmittedPart } from "./types.ts";

/** One file offered to the plan. */
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
export interface PlannedChunk {
  /** Unified diff text of the chunk's pieces, in path order. */
  diff: string;
  /** UTF-8 bytes of `diff`. */
  bytes: number;
  /** Changed lines in `diff`. */
  lines: number;
  /** Paths of the files the chunk shows (all or part of), in order. */
  paths: string[];
}

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

/**
 * Incremental planner: {@linkcode Planner.add} each file in path order, then
 * {@linkcode Planner.finish} once.
 */
export class Planner {
  readonly #limits: PlanLimits;
  readonly #files: PlanFile[] = [];
  readonly #pieces: Piece[] = [];
  readonly #heap: Piece[] = [];
  #kept = 0;

  /** @param limits chunk size, piece size (bytes, ≥ 1) and chunk count (≥ 1) */
  constructor(limits: PlanLimits) {
    this.#limits = limits;
  }

  /** Offer the next file (path order). Its sections' text is kept only while it may be shown. */
  add(file: PlanFile): void {
    const index = this.#files.length;
    this.#files.push({ path: file.path, sections: [], omitted: file.omitted });
    const capacity = this.#limits.chunkBytes * this.#limits.maxChunks;
    for (const piece of cutPieces(index, file.sections, this.#limits)) {
      this.#pieces.push(piece);
      heapPush(this.#heap, piece);
      this.#kept += piece.bytes;
      while (this.#kept > capacity && this.#heap.length > 0) {
        const dropped = heapPop(this.#heap);
        dropped.slices = null;
        this.#kept -= dropped.bytes;
      }
    }
  }

  /** Pack the kept pieces into chunks and describe the coverage. */
  finish(): ReviewPlan {
    const { chunkBytes, maxChunks } = this.#limits;
    const bins: Piece[][] = [];
    const sizes: number[] = [];
    for (const piece of this.#pieces) {
      if (piece.slices === null) continue;
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
}

function byOrder(a: Piece, b: Piece): number {
  return a.file - b.file || a.seq - b.seq;
}

/** Cut a file's sections into pieces of at most `pieceBytes` (and `chunkBytes`). */
function cutPieces(file: number, sections: Section[], limits: PlanLimits): Piece[] {
  const limit = Math.max(1, Math.min(limits.pieceBytes, limits.chunkBytes));
  const total = sections.reduce(
    (n, s) => n + s.headerBytes + s.hunks.reduce((m, h) => m + h.bytes, 0),
    0,
  );
  if (total <= limit) {
    if (sections.length === 0) return [];
    const slices = sections.map((s, i) => ({ section: i, ...s }));
    return [makePiece(file, 0, slices)];
  }
  const pieces: Piece[] = [];
  sections.forEach((section, i) => {
    const room = Math.max(1, limit - section.headerBytes);
    let current: Hunk[] = [];
    let size = section.headerBytes;
    const flush = () => {
      const slice = { section: i, ...section, hunks: current };
      pieces.push(makePiece(file, pieces.length, [slice]));
      current = [];
      size = section.headerBytes;
    };
    for (const hunk of section.hunks.flatMap((h) => splitHunk(h, room))) {
      if (current.length > 0 && size + hunk.bytes > limit) flush();
      current.push(hunk);
      size += hunk.bytes;
    }
    if (current.length > 0 || section.hunks.length === 0) flush();
  });
  return pieces;
}

function makePiece(file: number, seq: number, slices: Slice[]): Piece {
  let bytes = 0;
  let lines = 0;
  const ranges: HunkRange[] = [];
  for (const slice of slices) {
    bytes += slice.headerBytes + slice.hunks.reduce((n, h) => n + h.bytes, 0);
    for (const h of slice.hunks) {
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
function renderChunk(pieces: Piece[], files: PlanFile[]): PlannedChunk {
  const parts: string[] = [];
  const paths: string[] = [];
  let last = "";
  let lines = 0;
  for (const piece of pieces) {
    const path = files[piece.file].path;
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
  return { diff, bytes: new TextEncoder().encode(diff).length, lines, paths };
}

/** Coverage of a packed plan, and each file's reason when none of it is shown. */
function describeCoverage(
  files: PlanFile[],
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
  files.forEach((file, i) => {
    const own = byFile.get(i) ?? [];
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
    for (const part of file.omitted ?? []) omitted.push(part);
    fileOmitted.push(
      shown > 0 ? undefined : dropped.length > 0 ? "budget" : file.omitted?.[0]?.reason,
    );
  });
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

/** Max-heap of pieces by size; ties put the later piece on top (dropped first). */
function above(a: Piece, b: Piece): boolean {
  return a.bytes > b.bytes || (a.bytes === b.bytes && byOrder(a, b) > 0);
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
