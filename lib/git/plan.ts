/**
 * The review plan (pure, incremental): which parts of a change go to which model call, and what
 * is left out.
 *
 * A file's diff streams in — section headers and hunks, as lib/git/patch_reader.ts hands them
 * over — and becomes *pieces*: the whole file when it fits `pieceBytes` (`budgets.file_bytes`),
 * else runs of hunks of at most `pieceBytes`, each carrying its section header (hunks larger than
 * that were already cut at line boundaries by the reader). Only the piece being made is buffered,
 * as bytes in one reused buffer. Pieces are kept while their total stays within the plan's
 * capacity (`maxChunks × chunkBytes`); past it the largest pieces are dropped first. A piece's
 * text is copied out of the buffer only once it is kept (a piece dropped on arrival costs no
 * allocation), and a kept piece's text is let go when it is dropped later, so memory stays bounded
 * by the capacity whatever the change's size, and the most files and hunks stay reviewable. Text
 * stays bytes until the end, when only the chunks' pieces are decoded: UTF-8, or line by line
 * windows-1252 where a line is not valid UTF-8 (its file is then reported in `fallback`). A piece
 * is budgeted by its decoded size.
 *
 * At the end the kept pieces are packed in path order into at most `maxChunks` chunks of at most
 * `chunkBytes` (lib/git/plan_pack.ts: boundaries chosen so that they stay put when the change is
 * edited elsewhere). What fits nowhere is left out as "budget".
 *
 * Coverage names every part the model does not get: whole files, or the hunks of a file whose
 * other hunks were shown (with their line ranges), plus the parts collection could not show
 * (binary, undecodable, submodule), with changed lines and diff bytes on both sides.
 *
 * @module
 */
import { isUtf8 } from "../base/utf8.ts";
import { ByteBuffer } from "../base/byte_buffer.ts";
import { type Section, utf8Length } from "./hunks.ts";
import type { HunkInfo } from "./patch_reader.ts";
import { packChunks } from "./plan_pack.ts";
import { decodeDiffText } from "./text_encoding.ts";
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
  /** File indices whose shown text has lines decoded as windows-1252 (not valid UTF-8). */
  fallback: Set<number>;
}

/** One section's part of a piece: header then hunks, `length` bytes of the piece's text. */
interface Slice {
  section: number;
  headerBytes: number;
  length: number;
}

interface Piece {
  file: number;
  seq: number;
  /** Decoded UTF-8 bytes of its text (what it costs in a prompt). */
  bytes: number;
  /**
   * Bytes of the patch, as git printed it, this piece covers first: its hunks' `own` bytes, and
   * once the plan is packed each section header once, in the first shown piece that carries it
   * (else the first piece): what coverage counts, so a repeated header or context line is never
   * counted twice.
   */
  own: number;
  lines: number;
  /** Hunk ranges, four numbers each (old start, old lines, new start, new lines). */
  ranges: Int32Array;
  /** Its text as read (`null` once dropped) and how it divides into sections. */
  data: Uint8Array | null;
  slices: Slice[];
  /** True when its text has lines that are not valid UTF-8. */
  fallback: boolean;
  /** True when it holds a line longer than a part (a `cut` hunk): never shown. */
  long: boolean;
}

interface FileState {
  path: string;
  omitted: OmittedPart[];
  /** Next piece number and section number of the file. */
  seq: number;
  sections: number;
}

/** A hunk of the piece being made: what the reader said of it, and the bytes of it kept. */
interface OpenHunk {
  info: HunkInfo;
  stored: number;
}

/** The piece being made: its slices' text in the work buffer, and its hunks. */
interface Open {
  slices: (Slice & { hunks: number })[];
  hunks: OpenHunk[];
  /** Bytes of its hunks that `cut` hunks did not keep (kept as a sum: no rescan per hunk). */
  missing: number;
  /** The current section's number and header (a large file's next piece repeats it). */
  section: number;
  header: Uint8Array | null;
}

/** The file whose diff is streaming in. */
interface Current {
  file: number;
  /** Past `pieceBytes`: pieces are cut as they fill. */
  large: boolean;
  /** Whether the current section has had a piece yet (large files). */
  sectionEmpty: boolean;
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
  readonly #work = new ByteBuffer(64 * 1024);
  #kept = 0;
  #current: Current | null = null;
  #open: Open = emptyOpen();
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
    const encoder = new TextEncoder();
    this.file(index, file.path);
    for (const part of file.omitted ?? []) this.omit(part);
    for (const section of file.sections) {
      this.section(encoder.encode(section.header));
      for (const h of section.hunks) {
        const info = { ...h, additions: 0, deletions: 0, cut: false };
        const text = encoder.encode(h.text);
        this.hunk({ ...info, bytes: text.length, own: text.length }, new Uint8Array(), text);
      }
    }
    this.endFile();
    return index;
  }

  /** Start (or go back to) file `index`; the file being streamed so far is ended. */
  file(index: number, path: string): void {
    this.endFile();
    if (!this.#files.has(index)) {
      this.#files.set(index, { path, omitted: [], seq: 0, sections: 0 });
    }
    this.#next = Math.max(this.#next, index + 1);
    this.#current = { file: index, large: false, sectionEmpty: false };
    this.#resetOpen();
  }

  /** Name a part of the current file collection could not show. */
  omit(part: OmittedPart): void {
    const state = this.#state();
    if (!state.omitted.some((o) => o.reason === part.reason)) state.omitted.push(part);
  }

  /** The current file's next section starts, with this header (bytes as read). */
  section(header: Uint8Array): void {
    const cur = this.#require();
    const number = this.#state().sections++;
    if (cur.large) {
      this.#closeLarge(cur);
      cur.sectionEmpty = true;
    }
    this.#open.section = number;
    this.#open.header = header;
    this.#startSlice(number, header);
    if (!cur.large && this.#work.length > this.#pieceLimit) this.#goLarge(cur);
  }

  /**
   * The current section's next hunk (at most about `pieceBytes`: the reader cuts larger ones):
   * its text is `head` then `body`, copied if kept.
   */
  hunk(hunk: HunkInfo, head: Uint8Array, body: Uint8Array): void {
    const cur = this.#require();
    if (this.#open.slices.length === 0) return; // a hunk before any header: not patch text
    if (cur.large) this.#largeHunk(cur, hunk, head, body);
    else {
      this.#appendHunk(hunk, head, body);
      // a cut hunk is never shown: it goes in a piece of its own, the file's other hunks are kept
      if (hunk.cut || this.#openBytes() > this.#pieceLimit) this.#goLarge(cur);
    }
  }

  /** End the current file: its last piece is made. */
  endFile(): void {
    const cur = this.#current;
    if (!cur) return;
    if (cur.large) this.#closeLarge(cur);
    else if (this.#open.slices.length > 0) this.#addPiece(cur);
    this.#current = null;
    this.#resetOpen();
  }

  /** Pack the kept pieces into chunks and describe the coverage. */
  finish(): ReviewPlan {
    this.endFile();
    const kept = this.#pieces.filter((p) => p.data !== null).sort(byOrder);
    const packing = packChunks(
      kept.map((p) => ({
        file: p.file,
        path: this.#files.get(p.file)!.path,
        seq: p.seq,
        bytes: p.bytes,
      })),
      this.#limits,
    );
    for (const k of packing.dropped) kept[k].data = null;
    countHeaders(this.#pieces);
    const fallback = new Set<number>();
    const chunks = packing.chunks.map((chunk) =>
      renderChunk(chunk.map((k) => kept[k]), this.#files, fallback)
    );
    return { chunks, ...describeCoverage(this.#files, this.#pieces, chunks), fallback };
  }

  #state(): FileState {
    return this.#files.get(this.#require().file)!;
  }

  #require(): Current {
    if (!this.#current) throw new Error("Planner: no file started");
    return this.#current;
  }

  #resetOpen(): void {
    this.#work.reset();
    this.#open = emptyOpen();
  }

  #startSlice(section: number, header: Uint8Array): void {
    this.#work.append(header);
    this.#open.slices.push({
      section,
      headerBytes: header.length,
      length: header.length,
      hunks: 0,
    });
  }

  #appendHunk(info: HunkInfo, head: Uint8Array, body: Uint8Array): void {
    const before = this.#work.length;
    this.#work.append(head);
    this.#work.append(body);
    const stored = this.#work.length - before;
    const slice = this.#open.slices.at(-1)!;
    slice.length += stored;
    slice.hunks++;
    this.#open.hunks.push({ info, stored });
    this.#open.missing += info.bytes - stored;
  }

  /** A large file's next hunk: a piece that would outgrow `pieceBytes` is made first. */
  #largeHunk(cur: Current, info: HunkInfo, head: Uint8Array, body: Uint8Array): void {
    const open = this.#open;
    const alone = info.cut || open.hunks.at(-1)?.info.cut === true;
    if (open.hunks.length > 0 && (alone || this.#openBytes() + info.bytes > this.#pieceLimit)) {
      this.#closeLarge(cur);
      this.#startSlice(open.section, open.header!);
    }
    this.#appendHunk(info, head, body);
  }

  /** Bytes of the open piece, counting what `cut` hunks did not keep. */
  #openBytes(): number {
    return this.#work.length + this.#open.missing;
  }

  /** The file outgrew one piece: cut what was buffered into pieces, and go on cutting. */
  #goLarge(cur: Current): void {
    cur.large = true;
    const buffered = this.#work.view().slice();
    const { slices, hunks } = this.#open;
    this.#resetOpen();
    let at = 0;
    let next = 0;
    for (const slice of slices) {
      this.#closeLarge(cur);
      cur.sectionEmpty = true;
      const header = buffered.slice(at, at + slice.headerBytes);
      this.#open.section = slice.section;
      this.#open.header = header;
      this.#startSlice(slice.section, header);
      at += slice.headerBytes;
      for (const { info, stored } of hunks.slice(next, next + slice.hunks)) {
        this.#largeHunk(cur, info, new Uint8Array(), buffered.subarray(at, at + stored));
        at += stored;
      }
      next += slice.hunks;
    }
  }

  /** Make a piece of the open slice: with hunks, or header only for a section that has none. */
  #closeLarge(cur: Current): void {
    if (this.#open.slices.length > 0 && (this.#open.hunks.length > 0 || cur.sectionEmpty)) {
      this.#addPiece(cur);
      cur.sectionEmpty = false;
    }
    const { section, header } = this.#open;
    this.#resetOpen();
    this.#open.section = section;
    this.#open.header = header;
  }

  /**
   * Make a piece of what is open; keep its text if it fits the capacity (module doc). A piece
   * with a `cut` hunk is never kept: its text is incomplete.
   */
  #addPiece(cur: Current): void {
    const state = this.#files.get(cur.file)!;
    const { slices, hunks } = this.#open;
    const text = this.#work.view();
    const fallback = !isUtf8(text);
    const missing = this.#openBytes() - text.length;
    // one pass over the hunks, no array per hunk: a 1M-line change has ~100,000 of them
    let own = 0;
    let lines = 0;
    let long = false;
    const ranges = new Int32Array(4 * hunks.length);
    for (let k = 0; k < hunks.length; k++) {
      const h = hunks[k].info;
      own += h.own;
      lines += h.changed;
      long ||= h.cut;
      ranges[4 * k] = h.oldStart;
      ranges[4 * k + 1] = h.oldLines;
      ranges[4 * k + 2] = h.newStart;
      ranges[4 * k + 3] = h.newLines;
    }
    const piece: Piece = {
      file: cur.file,
      seq: state.seq++,
      bytes: missing + (fallback ? utf8Length(decodeDiffText(text).text) : text.length),
      own,
      lines,
      ranges,
      data: null,
      slices: slices.map(({ section, headerBytes, length }) => ({ section, headerBytes, length })),
      fallback,
      long,
    };
    this.#pieces.push(piece);
    if (piece.long || piece.bytes > this.#limits.chunkBytes) return;
    heapPush(this.#heap, piece);
    this.#kept += piece.bytes;
    const capacity = this.#limits.chunkBytes * this.#limits.maxChunks;
    let survived = true;
    while (this.#kept > capacity && this.#heap.length > 0) {
      const dropped = heapPop(this.#heap);
      if (dropped === piece) survived = false;
      dropped.data = null;
      this.#kept -= dropped.bytes;
    }
    if (survived) piece.data = text.slice();
  }
}

/** Give each section header's bytes to one piece: the first shown one carrying it, else the first. */
function countHeaders(pieces: Piece[]): void {
  const owner = new Map<string, { piece: Piece; bytes: number }>();
  for (const piece of [...pieces].sort(byOrder)) {
    for (const slice of piece.slices) {
      const key = `${piece.file}:${slice.section}`;
      const held = owner.get(key);
      if (!held || (held.piece.data === null && piece.data !== null)) {
        owner.set(key, { piece, bytes: slice.headerBytes });
      }
    }
  }
  for (const { piece, bytes } of owner.values()) piece.own += bytes;
}

function emptyOpen(): Open {
  return { slices: [], hunks: [], missing: 0, section: 0, header: null };
}

function byOrder(a: Piece, b: Piece): number {
  return a.file - b.file || a.seq - b.seq;
}

const utf8 = new TextDecoder();

/** The chunk's diff: its pieces' text in order, each section header written once. */
function renderChunk(
  pieces: Piece[],
  files: Map<number, FileState>,
  fallback: Set<number>,
): PlannedChunk {
  const parts: string[] = [];
  const paths: string[] = [];
  let last = "";
  let lines = 0;
  let covered = 0;
  for (const piece of pieces) {
    const path = files.get(piece.file)!.path;
    if (paths.at(-1) !== path) paths.push(path);
    let at = 0;
    for (const slice of piece.slices) {
      const key = `${piece.file}:${slice.section}`;
      const from = key === last ? at + slice.headerBytes : at;
      const bytes = piece.data!.subarray(from, at + slice.length);
      parts.push(piece.fallback ? decodeDiffText(bytes).text : utf8.decode(bytes));
      last = key;
      at += slice.length;
    }
    if (piece.fallback) fallback.add(piece.file);
    lines += piece.lines;
    covered += piece.own;
  }
  const diff = parts.join("");
  return { diff, bytes: utf8Length(diff), covered, lines, paths };
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
    const dropped = own.filter((p) => p.data === null);
    const shown = own.length - dropped.length;
    const parts: OmittedPart[] = [];
    for (const reason of ["long-line", "budget"] as const) {
      const these = dropped.filter((p) => p.long === (reason === "long-line"));
      if (these.length === 0) continue;
      const part: OmittedPart = {
        path: file.path,
        reason,
        lines: these.reduce((n, p) => n + p.lines, 0),
        bytes: these.reduce((n, p) => n + p.own, 0),
      };
      // a file with more than one reason names its hunks, so each reason says where it applies
      if (shown > 0 || these.length < dropped.length) {
        part.hunks = these.flatMap((p) => hunkRanges(p.ranges));
      }
      parts.push(part);
    }
    omitted.push(...parts, ...file.omitted);
    fileOmitted[i] = shown > 0 ? undefined : parts[0]?.reason ?? file.omitted[0]?.reason;
  }
  const coverage: Coverage = {
    status: omitted.length > 0 ? "partial" : "complete",
    omitted,
    reviewedLines: chunks.reduce((n, c) => n + c.lines, 0),
    omittedLines: omitted.reduce((n, p) => n + p.lines, 0),
    reviewedBytes: chunks.reduce((n, c) => n + c.covered, 0),
    omittedBytes: omitted.reduce((n, p) => n + p.bytes, 0),
  };
  return { coverage, fileOmitted };
}

function hunkRanges(ranges: Int32Array): HunkRange[] {
  const out: HunkRange[] = [];
  for (let i = 0; i + 3 < ranges.length; i += 4) {
    out.push({
      oldStart: ranges[i],
      oldLines: ranges[i + 1],
      newStart: ranges[i + 2],
      newLines: ranges[i + 3],
    });
  }
  return out;
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
