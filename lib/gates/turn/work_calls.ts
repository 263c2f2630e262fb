/**
 * The model calls of a turn's background reviews (docs/design.md "Review while working"), seen
 * through the one subprocess seam: every provider call a background review makes goes through
 * {@linkcode WorkCalls.runner}, which knows the part it reviews — the planned part whose diff its
 * prompt carries (the prompt holds a part's diff exactly once, lib/kinds/review/prompt.ts) — and
 * so can:
 *
 * - kill a call whose part's bytes changed since (superseded: its verdict would be for bytes the
 *   turn no longer has), or every call when the turn ends;
 * - decline, without starting anything, a call for a part another background call already
 *   reviews, and any call past the turn's cap (`max_background_calls`).
 *
 * A declined or killed call ends as an interrupted attempt: the review pipeline then has no answer
 * for that part, never a verdict, and caches nothing for it. Nothing here reads or makes an answer.
 *
 * @module
 */
import type { ExecRequest, ExecResult, Runner } from "../../exec/exec.ts";

/** One planned part: its verdict's key here, its digest and diff (lib/git/types.ts `ChangeChunk`). */
export interface PlannedPart {
  /** {@linkcode verdictKey} of the part in its plan. */
  key: string;
  digest: string;
  diff: string;
}

/**
 * Which cached verdict a part's answer becomes: a change planned as one part is cached as a whole
 * (its whole-change key), a part of several under its part key (lib/review/parts.ts) — so the same
 * bytes answered in a plan of one part do not serve a plan of several, nor the other way round.
 *
 * @param digest the part's digest
 * @param parts how many parts its plan has
 * @returns `whole:<digest>` or `part:<digest>`
 */
export function verdictKey(digest: string, parts: number): string {
  return `${parts === 1 ? "whole" : "part"}:${digest}`;
}

/** The counts of a turn's background calls. */
export interface CallCounts {
  /** Calls started (each a model call; a corrective resume is one more). */
  calls: number;
  /** Started calls killed (superseded, or the turn ended). */
  killed: number;
  /** Per part's {@linkcode verdictKey}, the calls started for it. */
  spent: Record<string, number>;
  /** True once the cap declined a call. */
  capped: boolean;
}

const EMPTY = new Uint8Array();

/** An attempt that never started: the pipeline records it as interrupted, with this reason. */
function declined(reason: string): ExecResult {
  return {
    code: 130,
    stdout: EMPTY,
    stderr: new TextEncoder().encode(`review-gate: background call not started: ${reason}\n`),
    durationMs: 0,
    timedOut: false,
    aborted: true,
    truncated: false,
  };
}

/** The part a provider request reviews (its key): the longest planned diff its prompt carries. */
export function partOf(request: ExecRequest, parts: readonly PlannedPart[]): string | null {
  const text = [typeof request.stdin === "string" ? request.stdin : "", ...request.args].join("\n");
  let best: PlannedPart | null = null;
  for (const part of parts) {
    const diff = part.diff.endsWith("\n") ? part.diff.slice(0, -1) : part.diff;
    if (diff.length > 0 && text.includes(diff) && diff.length > (best?.diff.length ?? -1)) {
      best = part;
    }
  }
  return best?.key ?? null;
}

/** The background calls of one turn: counts, the calls in flight by part, and the cap. */
export class WorkCalls {
  readonly counts: CallCounts = { calls: 0, killed: 0, spent: {}, capped: false };
  readonly #inFlight = new Map<string, AbortController>();
  readonly #all = new Set<AbortController>();
  readonly #cap: number;
  readonly #bins: ReadonlySet<string>;

  /**
   * @param cap most calls the turn may start
   * @param bins the provider programs (what `ExecRequest.cmd` is for a model call)
   */
  constructor(cap: number, bins: readonly string[]) {
    this.#cap = cap;
    this.#bins = new Set(bins);
  }

  /** True when a call for the part with this key is running. */
  inFlight(key: string): boolean {
    return this.#inFlight.has(key);
  }

  /** The keys of the parts whose calls run now. */
  running(): string[] {
    return [...this.#inFlight.keys()];
  }

  /**
   * `runner` for one background review whose plan has `parts`: provider calls are counted, bounded
   * by the cap, declined when their part is already being reviewed, and killable by part.
   */
  runner(runner: Runner, parts: readonly PlannedPart[]): Runner {
    return async (request) => {
      if (!this.#bins.has(request.cmd)) return await runner(request);
      const part = partOf(request, parts);
      if (part !== null && this.#inFlight.has(part)) {
        return declined("another background call reviews the same bytes");
      }
      if (this.counts.calls >= this.#cap) {
        this.counts.capped = true;
        return declined(`the turn's ${this.#cap} background calls are spent`);
      }
      const controller = new AbortController();
      this.counts.calls++;
      const key = part ?? "(resume)";
      this.counts.spent[key] = (this.counts.spent[key] ?? 0) + 1;
      if (part !== null) this.#inFlight.set(part, controller);
      this.#all.add(controller);
      const signal = request.signal
        ? AbortSignal.any([request.signal, controller.signal])
        : controller.signal;
      try {
        return await runner({ ...request, signal });
      } finally {
        if (part !== null && this.#inFlight.get(part) === controller) this.#inFlight.delete(part);
        this.#all.delete(controller);
      }
    };
  }

  /**
   * Kill the running calls whose part's key is not in `keep` (its bytes changed: superseded).
   *
   * @returns how many were killed
   */
  supersede(keep: ReadonlySet<string>): number {
    let killed = 0;
    for (const [key, controller] of this.#inFlight) {
      if (keep.has(key)) continue;
      controller.abort(new Error("superseded: the part's bytes changed"));
      this.#inFlight.delete(key);
      killed++;
    }
    this.counts.killed += killed;
    return killed;
  }

  /**
   * Kill every running call (the turn ended).
   *
   * @returns how many were killed
   */
  killAll(): number {
    const killed = this.#all.size;
    for (const controller of this.#all) controller.abort(new Error("the turn ended"));
    this.#all.clear();
    this.#inFlight.clear();
    this.counts.killed += killed;
    return killed;
  }
}
