/**
 * The pipes of a child started by `runProcess` (lib/exec/exec.ts): stdout and stderr read to EOF but
 * kept only up to a byte cap, and stdin fed then closed. Each is a {@linkcode Drain} that can be
 * cancelled once the child has exited and something else still holds the pipe.
 *
 * @module
 */

/** One pipe being read or written. */
export interface Drain {
  /** The bytes read (empty for stdin) and whether the cap cut them. */
  done: Promise<{ bytes: Uint8Array; truncated: boolean }>;
  /** Stop reading now; `done` resolves with what was read. */
  cancel(): void;
}

/**
 * Read `stream` to EOF (or until cancelled), keeping at most `limit` bytes.
 *
 * Reading goes on past the cap, dropping the rest: closing early makes codex exit 101
 * (docs/providers.md "Codex argv"). A read error (a cancel, a broken pipe) ends the read with what
 * was kept. A byte
 * stream (a child's pipe) is read into one reused buffer, only the bytes read being copied: the
 * default reader would allocate 64 KiB per read, most of a small git call's reading cost.
 *
 * @param stream a child's stdout or stderr
 * @param limit bytes to keep at most
 * @param onChunk when given, every chunk goes to it instead of being kept (nothing is kept); a
 *   byte stream (a child's pipe) is read into one reused buffer, so a chunk is valid only during
 *   the call: copy what you keep
 * @returns the drain; `done` never rejects
 */
export function readBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onChunk?: (chunk: Uint8Array) => void,
): Drain {
  const byob = byobReader(stream);
  if (byob) {
    return {
      done: onChunk ? passReused(byob, onChunk) : collectReused(byob, limit),
      cancel: () => void byob.cancel().catch(() => {}),
    };
  }
  const reader = stream.getReader();
  const done = onChunk ? pass(reader, onChunk) : collect(reader, limit);
  return { done, cancel: () => void reader.cancel().catch(() => {}) };
}

/** A BYOB reader when the stream is a byte stream (a child's pipe is), else `null`. */
function byobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    return null;
  }
}

/** Size of the one buffer a streamed read reuses. */
const PASS_BUFFER_BYTES = 64 * 1024;

/** Like `pass`, reading into one reused buffer: a chunk is valid only during `onChunk`. */
async function passReused(
  reader: ReadableStreamBYOBReader,
  onChunk: (chunk: Uint8Array) => void,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  let buffer = new ArrayBuffer(PASS_BUFFER_BYTES);
  while (true) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read(new Uint8Array(buffer));
    } catch {
      break; // cancelled or the pipe broke
    }
    if (next.done || !next.value) break;
    try {
      onChunk(next.value);
    } catch {
      // the consumer's own failure is its to report; keep draining so the child can finish
    }
    buffer = next.value.buffer as ArrayBuffer;
  }
  return { bytes: new Uint8Array(), truncated: false };
}

async function pass(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onChunk: (chunk: Uint8Array) => void,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  while (true) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      break; // cancelled or the pipe broke
    }
    if (next.done) break;
    try {
      onChunk(next.value);
    } catch {
      // the consumer's own failure is its to report; keep draining so the child can finish
    }
  }
  return { bytes: new Uint8Array(), truncated: false };
}

/**
 * Like `collect`, reading into one reused buffer and keeping a copy of what fits under `limit`: a
 * read allocates nothing (the default reader of a byte stream allocates 64 KiB per read).
 */
async function collectReused(
  reader: ReadableStreamBYOBReader,
  limit: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const kept = new Kept(limit);
  // go on draining past the cap: codex exits 101 otherwise
  await passReused(reader, (chunk) => kept.add(chunk, true));
  return kept.result();
}

async function collect(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const kept = new Kept(limit);
  // go on draining past the cap: codex exits 101 otherwise
  await pass(reader, (chunk) => kept.add(chunk, false));
  return kept.result();
}

/** The bytes kept of a pipe, at most `limit` of them; what goes past it is dropped and noted. */
class Kept {
  readonly #limit: number;
  readonly #chunks: Uint8Array[] = [];
  /** Every chunk kept is a copy of its own: one alone is the result as it is. */
  #copies = true;
  #size = 0;
  #truncated = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Keep what fits of `chunk` (a copy when `reused`: its buffer is read into again). */
  add(chunk: Uint8Array, reused: boolean): void {
    const room = this.#limit - this.#size;
    if (chunk.byteLength > room) this.#truncated = true;
    if (room <= 0) return;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(reused ? part.slice() : part);
    this.#copies &&= reused;
    this.#size += part.byteLength;
  }

  result(): { bytes: Uint8Array; truncated: boolean } {
    const truncated = this.#truncated;
    if (this.#chunks.length === 1 && this.#copies) return { bytes: this.#chunks[0], truncated };
    const bytes = new Uint8Array(this.#size);
    let offset = 0;
    for (const c of this.#chunks) {
      bytes.set(c, offset);
      offset += c.byteLength;
    }
    return { bytes, truncated };
  }
}

/**
 * Write `stdin` (text as UTF-8) to the child's stdin, then close it.
 *
 * @param child a child spawned with `stdin: "piped"`
 * @param stdin the bytes or text to write
 * @returns a drain whose `done` resolves with no bytes once written, or once the child closed
 *   stdin early (its exit code tells the story); never rejects
 */
export function feedStdin(child: Deno.ChildProcess, stdin: Uint8Array | string): Drain {
  const data = typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin;
  const writer = child.stdin.getWriter();
  const done = (async () => {
    try {
      await writer.write(data);
      await writer.close();
    } catch {
      // the child closed stdin early (or died): its exit code tells the story
    }
    return { bytes: new Uint8Array(), truncated: false };
  })();
  return { done, cancel: () => void writer.abort().catch(() => {}) };
}
