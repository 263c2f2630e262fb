/**
 * JSON text in pieces (pure): the exact text `JSON.stringify(value, null, 2)` gives, handed over
 * in pieces of about {@linkcode PIECE_CHARS} characters, so a large value (a 1M-line change's
 * coverage names ~100,000 hunks: a 12 MB envelope) is written out without ever being one string,
 * nor one encoded buffer (docs/design.md "Scale": memory stays bounded whatever the change's
 * size). Values small enough are serialised by `JSON.stringify` itself, in one native call; only
 * arrays and plain objects with more than about {@linkcode SMALL_NODES} nodes below them are
 * walked (a size estimated from a few elements per array: the text never depends on it).
 *
 * @module
 */

/** About how many characters one piece holds (a piece may be longer: one small value's text). */
export const PIECE_CHARS = 64 * 1024;

/** A value with at most about this many nodes below it is serialised in one `JSON.stringify` call. */
export const SMALL_NODES = 8192;

/** Options of {@linkcode jsonPieces} (tests make them small to walk every branch). */
export interface PieceOptions {
  /** About how many characters a piece holds (default {@linkcode PIECE_CHARS}). */
  pieceChars?: number;
  /** Most nodes of a value serialised natively (default {@linkcode SMALL_NODES}). */
  smallNodes?: number;
  /** 2 (default): `JSON.stringify(value, null, 2)`'s text; 0: `JSON.stringify(value)`'s. */
  indent?: 0 | 2;
}

/**
 * The pieces of `JSON.stringify(value, null, 2)` (or, with `indent: 0`, of `JSON.stringify(value)`):
 * joined, they are exactly that text.
 *
 * @param value any JSON-serialisable value (`toJSON` is honoured; `undefined`, functions and
 *   symbols are left out of objects and are `null` in arrays, as `JSON.stringify` does)
 * @returns the pieces, in order; none for a value `JSON.stringify` gives `undefined` for
 * @throws {TypeError} for a cycle or a BigInt, as `JSON.stringify` does
 * @example
 * ```ts
 * import { jsonPieces } from "./json_pieces.ts";
 * import { equal } from "node:assert/strict";
 * const value = { a: [1, { b: "x" }], c: null };
 * equal([...jsonPieces(value)].join(""), JSON.stringify(value, null, 2));
 * ```
 */
export function* jsonPieces(value: unknown, options: PieceOptions = {}): Generator<string> {
  const writer = new PieceWriter(
    options.pieceChars ?? PIECE_CHARS,
    options.smallNodes ?? SMALL_NODES,
    options.indent === 0,
  );
  yield* writer.value(value, prepared(value, ""), "");
  yield* writer.flush();
}

/** What `JSON.stringify` serialises a value as: after `toJSON`, `undefined` when it is skipped. */
function prepared(value: unknown, key: string): unknown {
  if (
    value !== null && typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** An array or an object whose prototype is `Object.prototype` or `null`: walked, not delegated. */
function walkable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * About how many nodes are below `value`, for deciding whether to walk it (the text is the same
 * either way; only the pieces' sizes depend on it): an object's properties are all counted, an
 * array is estimated from its first, middle and last elements (the largest of them times its
 * length), so the estimate costs a few visits per level, not one per node. Counting stops past
 * `limit`.
 */
function estimate(value: unknown, limit: number, depth = 0): number {
  if (!walkable(value) || depth > 8) return 1;
  if (Array.isArray(value)) {
    const n = value.length;
    if (n === 0) return 1;
    if (n > limit) return n;
    let most = 0;
    for (const k of n < 3 ? [0, n - 1] : [0, n >> 1, n - 1]) {
      most = Math.max(most, estimate(value[k], limit, depth + 1));
    }
    return 1 + n * most;
  }
  let count = 1;
  for (const key in value) {
    count += estimate(value[key], limit, depth + 1);
    if (count > limit) break;
  }
  return count;
}

/** Per depth: the lengths of the text around a value wrapped in that many arrays. */
const wrapping: { before: number; after: number }[] = [];

/**
 * `JSON.stringify(raw, null, 2)` as it reads at `depth` levels of nesting (every line after the
 * first indented by `2 × depth` spaces), without re-indenting it: `raw` is serialised wrapped in
 * `depth` arrays, and the wrapper's text sliced off (a slice of a long string is not a copy).
 * `raw` is never skipped (not `undefined`, a function or a symbol); its `toJSON` is called with
 * the key "0".
 */
function indented(raw: unknown, depth: number): string {
  let wrapped: unknown = raw;
  for (let k = 0; k < depth; k++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  let around = wrapping[depth];
  if (around === undefined) {
    let marker: unknown = 0;
    for (let k = 0; k < depth; k++) marker = [marker];
    const shown = JSON.stringify(marker, null, 2);
    const before = shown.indexOf("0");
    around = wrapping[depth] = { before, after: shown.length - before - 1 };
  }
  return text.slice(around.before, text.length - around.after);
}

class PieceWriter {
  readonly #pieceChars: number;
  readonly #smallNodes: number;
  readonly #ancestors = new Set<unknown>();
  #parts: string[] = [];
  #chars = 0;

  readonly #compact: boolean;

  constructor(pieceChars: number, smallNodes: number, compact: boolean) {
    this.#pieceChars = Math.max(1, pieceChars);
    this.#smallNodes = Math.max(0, smallNodes);
    this.#compact = compact;
  }

  /** A line break and the indent `pad` (nothing in compact text). */
  #line(pad: string): string {
    return this.#compact ? "" : `\n${pad}`;
  }

  /** Keep `text`; a piece is handed over once enough is kept (a long text alone, not copied). */
  *#put(text: string): Generator<string> {
    if (text.length >= this.#pieceChars) {
      yield* this.flush();
      yield text;
      return;
    }
    this.#parts.push(text);
    this.#chars += text.length;
    if (this.#chars >= this.#pieceChars) yield* this.flush();
  }

  /** Hand over what is kept. */
  *flush(): Generator<string> {
    if (this.#chars === 0) return;
    const piece = this.#parts.join("");
    this.#parts = [];
    this.#chars = 0;
    yield piece;
  }

  /**
   * The text of a value (`raw`, and `value` what its `toJSON` gave), indented at `pad`; a small
   * one is `JSON.stringify(raw)` as it reads at that depth ({@linkcode indented}).
   */
  *value(raw: unknown, value: unknown, pad: string): Generator<string> {
    if (!walkable(value) || estimate(value, this.#smallNodes) <= this.#smallNodes) {
      const text = this.#compact || pad === ""
        ? (this.#compact ? JSON.stringify(raw) : JSON.stringify(raw, null, 2))
        : indented(raw, pad.length >> 1);
      if (text === undefined) return;
      yield* this.#put(text);
      return;
    }
    if (this.#ancestors.has(value)) throw new TypeError("Converting circular structure to JSON");
    this.#ancestors.add(value);
    const inner = this.#compact ? "" : `${pad}  `;
    if (Array.isArray(value) && value.length === 0) yield* this.#put("[]");
    else if (Array.isArray(value)) {
      yield* this.#put("[");
      for (let i = 0; i < value.length; i++) {
        yield* this.#put(i === 0 ? this.#line(inner) : `,${this.#line(inner)}`);
        const item = prepared(value[i], String(i));
        if (skipped(item)) yield* this.#put("null");
        else yield* this.value(value[i], item, inner);
      }
      yield* this.#put(`${this.#line(pad)}]`);
    } else {
      let first = true;
      yield* this.#put("{");
      for (const name of Object.keys(value)) {
        const item = prepared(value[name], name);
        if (skipped(item)) continue;
        const colon = this.#compact ? ":" : ": ";
        yield* this.#put(`${first ? "" : ","}${this.#line(inner)}${JSON.stringify(name)}${colon}`);
        first = false;
        yield* this.value(value[name], item, inner);
      }
      yield* this.#put(first ? "}" : `${this.#line(pad)}}`);
    }
    this.#ancestors.delete(value);
  }
}
