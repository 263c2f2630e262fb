/**
 * The back-off of a turn's background reviews (docs/design.md "Review while working"): a part whose
 * background call was superseded — its bytes changed while the call ran — is being edited faster
 * than a call answers, so its next call waits until its bytes have been quiet for about one call's
 * latency (the median duration of the turn's finished background calls; until one finished, the
 * gate's `background_call_seconds`), instead of the worker's short debounce. A change planned as
 * one part waits so too: while the whole change is one part, every edit anywhere in it changes that
 * part's bytes, so a call started at once would be superseded by the agent's next write of any file
 * (the turn's first edits are of this kind); once the change has several parts, an edit of one
 * leaves the others' bytes alone. A part of several edited once, or re-edited after its call
 * finished, is asked at once; once a held part's call starts, the part is asked at once again unless
 * that call is superseded too. When the Stop asks, nothing waits.
 *
 * A part is known here by its files: the bytes of a part change with every edit (and so does its
 * key), its paths do not, and a part is held when any of its files belongs to a superseded part.
 * Pure bookkeeping on the clock the caller passes: no I/O.
 *
 * @module
 */

/** What the back-off knows of a planned part. */
export interface QuietPart {
  /** The part's verdict key (lib/gates/turn/work_calls.ts `verdictKey`). */
  key: string;
  /** The files it shows. */
  paths: readonly string[];
}

/** The quiet times of one turn's parts. */
export class QuietTimes {
  /** True once the Stop asked: no part waits. */
  urgent = false;
  readonly #defaultMs: number;
  /** Files of parts whose last call was superseded. */
  readonly #held = new Set<string>();
  /** Per file, epoch ms its part last got new bytes. */
  readonly #changedAt = new Map<string, number>();
  /** Wall times of the turn's finished background calls, ms. */
  readonly #durations: number[] = [];
  #keys = new Set<string>();

  /** @param defaultMs the latency assumed until a call finished, ms */
  constructor(defaultMs: number) {
    this.#defaultMs = defaultMs;
  }

  /**
   * A new plan of the turn's change, made after the tool call at `changedAt` (epoch ms): a part
   * whose key the previous plan did not have got its bytes then.
   */
  planned(parts: readonly QuietPart[], changedAt: number): void {
    for (const part of parts) {
      if (this.#keys.has(part.key)) continue;
      for (const path of part.paths) this.#changedAt.set(path, changedAt);
    }
    this.#keys = new Set(parts.map((p) => p.key));
  }

  /** A call of `part` was killed because its bytes changed. */
  superseded(part: QuietPart): void {
    for (const path of part.paths) this.#held.add(path);
  }

  /** A call of `part` started: its next edit is asked at once again (unless this one is superseded). */
  started(part: QuietPart): void {
    for (const path of part.paths) this.#held.delete(path);
  }

  /** A background call ran to its end (answered or not) in `ms`. */
  finished(ms: number): void {
    this.#durations.push(ms);
  }

  /** One call's latency: the median of the finished calls, or the default when none finished, ms. */
  latencyMs(): number {
    const sorted = [...this.#durations].sort((a, b) => a - b);
    if (sorted.length === 0) return this.#defaultMs;
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /**
   * The earliest time `part`'s next background call may start, epoch ms: 0 (at once) unless the
   * part is held (its last call was superseded, or it is a whole change of one part: its key is
   * `whole:…`), else when its bytes will have been quiet for {@linkcode latencyMs}.
   */
  notBefore(part: QuietPart): number {
    if (this.urgent) return 0;
    const whole = part.key.startsWith("whole:");
    if (!whole && !part.paths.some((p) => this.#held.has(p))) return 0;
    const changed = Math.max(0, ...part.paths.map((p) => this.#changedAt.get(p) ?? 0));
    return changed + this.latencyMs();
  }
}
