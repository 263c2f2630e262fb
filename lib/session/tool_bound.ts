/**
 * The tool bound of one attempt, for a CLI that has no turn cap of its own (docs/design.md "One
 * structured call"; codex, docs/providers.md "Codex JSONL events"): the child's stdout is streamed
 * through {@linkcode ToolBound.onStdout}, kept whole (up to the runner's cap), and every line the
 * adapter says starts a tool call is counted; the call after the review's `max_turns` aborts the
 * child (its process group is killed, as for a timeout), and the attempt ends in `provider-error`
 * with {@linkcode ToolBound.message}, which names the bound. The timeout stays the last line.
 *
 * @module
 */
import { ByteBuffer } from "../base/byte_buffer.ts";
import type { ToolCallBound } from "../providers/provider.ts";

/** Most stdout bytes kept, as the runner's own default cap (lib/exec/exec.ts). */
const MAX_KEPT = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

/** Counts an attempt's tool calls and stops the child past the bound. */
export class ToolBound {
  readonly #bound: ToolCallBound;
  readonly #limit: number;
  readonly #controller = new AbortController();
  readonly #kept = new ByteBuffer(64 * 1024);
  readonly #decoder = new TextDecoder();
  #scanned = 0;
  #count = 0;
  #truncated = false;
  #tripped = false;

  /**
   * @param bound what the adapter counts (lib/providers/provider.ts `ToolCallBound`)
   * @param limit most tool calls allowed (the review's `max_turns`, at least 1)
   * @param parent the call's own abort signal (Ctrl-C, a hook deadline): it aborts this one too
   */
  constructor(bound: ToolCallBound, limit: number, parent?: AbortSignal) {
    this.#bound = bound;
    this.#limit = Math.max(1, limit);
    if (parent?.aborted) this.#controller.abort();
    else parent?.addEventListener("abort", () => this.#controller.abort(), { once: true });
  }

  /** The signal to give the runner: aborts on the parent's abort or past the bound. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once the bound stopped the child. */
  get tripped(): boolean {
    return this.#tripped;
  }

  /** True when stdout went past the kept cap. */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** The runner's `onStdout`: keep the chunk, count the tool calls of every complete line. */
  readonly onStdout = (chunk: Uint8Array): void => {
    const room = MAX_KEPT - this.#kept.length;
    if (chunk.length > room) this.#truncated = true;
    this.#kept.append(chunk.length > room ? chunk.subarray(0, room) : chunk);
    const bytes = this.#kept.view();
    let start = this.#scanned;
    for (let i = this.#scanned; i < bytes.length; i++) {
      if (bytes[i] !== NEWLINE) continue;
      this.#line(bytes.subarray(start, i));
      start = i + 1;
    }
    this.#scanned = start;
  };

  #line(line: Uint8Array): void {
    if (this.#tripped || !this.#bound.starts(this.#decoder.decode(line))) return;
    this.#count++;
    if (this.#count > this.#limit) {
      this.#tripped = true;
      this.#controller.abort();
    }
  }

  /** The stdout kept so far (a copy). */
  stdout(): Uint8Array {
    return this.#kept.view().slice();
  }

  /** The failure message, naming the bound (for a tripped bound). */
  message(provider: string): string {
    return `The reviewer was stopped: ${provider} started more than ${this.#limit} ${this.#bound.what}, ` +
      `the review's tool bound (max_turns ${this.#limit}, REVIEW_GATE_MAX_TURNS): raise max_turns ` +
      `or review a smaller change`;
  }
}
