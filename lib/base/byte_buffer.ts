/**
 * A growable byte buffer that is reused rather than reallocated: streaming readers copy the bytes
 * they must keep into one, and reset it instead of allocating per line or per hunk. Capacity
 * doubles when needed and never shrinks, so a reader's memory is its largest unit, not the sum.
 *
 * @module
 */

/** Ranges up to this many bytes are appended by a loop rather than through a view. */
const SHORT_RANGE = 128;

/** A reusable, growable run of bytes. */
export class ByteBuffer {
  #bytes: Uint8Array;
  #length = 0;

  /** @param capacity initial capacity in bytes */
  constructor(capacity = 4096) {
    this.#bytes = new Uint8Array(Math.max(16, capacity));
  }

  /** Bytes held. */
  get length(): number {
    return this.#length;
  }

  /** Forget the contents (capacity is kept). */
  reset(): void {
    this.#length = 0;
  }

  /** Make room for `more` bytes past the current length. */
  reserve(more: number): void {
    const need = this.#length + more;
    if (need <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < need) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = grown;
  }

  /** Append bytes (copied). */
  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /**
   * Append `bytes[start, end)` (copied). A short range (a patch line) is copied byte by byte:
   * cheaper than making a view of it to copy from, millions of times for a large patch.
   */
  appendRange(bytes: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    if (n > SHORT_RANGE) this.#bytes.set(bytes.subarray(start, end), this.#length);
    else {
      const to = this.#bytes;
      for (let i = 0, at = this.#length; i < n; i++) to[at + i] = bytes[start + i];
    }
    this.#length += n;
  }

  /** Set the length (≤ capacity after {@linkcode reserve}); bytes past it are forgotten. */
  truncate(length: number): void {
    this.#length = Math.max(0, Math.min(length, this.#length));
  }

  /** Move bytes `[from, length)` to the start and keep only them. */
  shift(from: number): void {
    this.#bytes.copyWithin(0, from, this.#length);
    this.#length -= from;
  }

  /**
   * A view of bytes `[start, end)`: valid until the buffer is next changed (it is not a copy).
   *
   * @param start first byte (default 0)
   * @param end one past the last byte (default the length)
   */
  view(start = 0, end = this.#length): Uint8Array {
    return this.#bytes.subarray(start, end);
  }

  /** The underlying storage (capacity ≥ length), for writing ahead of the contents. */
  get storage(): Uint8Array {
    return this.#bytes;
  }
}
