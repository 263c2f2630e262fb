/**
 * The model calls of a turn's background reviews (docs/design.md "Review while working"), seen
 * through the one subprocess seam: every provider call a background review makes goes through
 * {@linkcode WorkCalls.runner}, which knows the part it reviews — the planned part whose diff its
 * prompt carries (the prompt holds a part's diff exactly once, lib/kinds/review/prompt.ts) — and
 * so can:
 *
 * - kill a call whose part's bytes changed since (superseded: its verdict would be for bytes the
 *   turn no longer has), or every call when the turn ends;
 * - decline, without starting anything, a call for a part no longer in the latest plan (a round
 *   of an older tree that got to its call late), a call for a part another background call already
 *   reviews, a call for a part whose quiet time has not passed yet (lib/gates/turn/work_quiet.ts:
 *   its last call was superseded; such parts are noted as `deferred`), and any call past the
 *   turn's cap (`max_background_calls`);
 * - tell the back-off which calls started, finished (and how long they took) or were superseded.
 *
 * A declined or killed call ends as an interrupted attempt: the review pipeline then has no answer
 * for that part, never a verdict, and caches nothing for it. Nothing here reads or makes an answer.
 *
 * @module
 */
import type { ExecRequest, ExecResult, Runner } from "../../exec/exec.ts";
import { servingKeys } from "../../store/turn_work.ts";
import type { QuietTimes } from "./work_quiet.ts";

/** One planned part: its verdict's key here, its digest, diff and files (lib/git/types.ts `ChangeChunk`). */
export interface PlannedPart {
  /** {@linkcode verdictKey} of the part in its plan. */
  key: string;
  digest: string;
  diff: string;
  /** The files the part shows. */
  paths: readonly string[];
}

/**
 * Which cached verdict a part's answer becomes: a change planned as one part is cached as a whole
 * (its whole-change key) and, when it is what the part would have been asked, as that part too
 * (lib/review/part_verdict.ts); a part of several under its part key only (lib/review/parts.ts),
 * which never serves a plan of one part (lib/store/turn_work.ts `servingKeys`). Calls are told
 * apart by this key; a one-part change's call goes on once the change grew to several parts while
 * its part's bytes are in the new plan: its answer serves that part (the agent's write that grew
 * the change is not in the call's read-only proof, docs/design.md "Review while working").
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
  return partFor(request, parts)?.key ?? null;
}

/** The planned part a provider request reviews, or `null` (a corrective resume carries no diff). */
function partFor(request: ExecRequest, parts: readonly PlannedPart[]): PlannedPart | null {
  const text = [typeof request.stdin === "string" ? request.stdin : "", ...request.args].join("\n");
  let best: PlannedPart | null = null;
  for (const part of parts) {
    const diff = part.diff.endsWith("\n") ? part.diff.slice(0, -1) : part.diff;
    if (diff.length > 0 && text.includes(diff) && diff.length > (best?.diff.length ?? -1)) {
      best = part;
    }
  }
  return best;
}

/** The background calls of one turn: counts, the calls in flight by part, the cap and the back-off. */
export class WorkCalls {
  readonly counts: CallCounts = { calls: 0, killed: 0, spent: {}, capped: false };
  /** Keys of parts declined because their quiet time had not passed: to be asked once it has. */
  readonly deferred = new Set<string>();
  readonly #inFlight = new Map<string, { controller: AbortController; part: PlannedPart }>();
  readonly #all = new Set<AbortController>();
  readonly #cap: number;
  readonly #bins: ReadonlySet<string>;
  readonly #quiet: QuietTimes | null;
  /** The keys of the latest plan's parts (`null` until {@linkcode supersede} first says them). */
  #current: ReadonlySet<string> | null = null;

  /**
   * @param cap most calls the turn may start
   * @param bins the provider programs (what `ExecRequest.cmd` is for a model call)
   * @param quiet the turn's back-off (none: every part is asked at once)
   */
  constructor(cap: number, bins: readonly string[], quiet?: QuietTimes) {
    this.#cap = cap;
    this.#bins = new Set(bins);
    this.#quiet = quiet ?? null;
  }

  /**
   * True when a call runs whose answer serves the part with this key: its own, or (for a part of
   * several) the call of the one-part change it was (lib/store/turn_work.ts `servingKeys`).
   */
  inFlight(key: string): boolean {
    return servingKeys(key).some((k) => this.#inFlight.has(k));
  }

  /**
   * `runner` for one background review whose plan has `parts`: provider calls are counted, bounded
   * by the cap, declined when their part is already being reviewed or must wait for its quiet time,
   * and killable by part.
   */
  runner(runner: Runner, parts: readonly PlannedPart[]): Runner {
    return async (request) => {
      if (!this.#bins.has(request.cmd)) return await runner(request);
      const part = partFor(request, parts);
      if (part !== null && this.#current !== null && !this.#current.has(part.key)) {
        return declined("its bytes changed before it started");
      }
      if (part !== null && this.inFlight(part.key)) {
        return declined("another background call reviews the same bytes");
      }
      const wait = part && this.#quiet ? this.#quiet.notBefore(part) - Date.now() : 0;
      if (part !== null && wait > 0) {
        this.deferred.add(part.key);
        return declined(
          `its last call was superseded: it waits until its edits have been quiet for ${
            Math.round(this.#quiet!.latencyMs() / 1000)
          } s`,
        );
      }
      if (this.counts.calls >= this.#cap) {
        this.counts.capped = true;
        return declined(`the turn's ${this.#cap} background calls are spent`);
      }
      return await this.#start(runner, request, part);
    };
  }

  async #start(
    runner: Runner,
    request: ExecRequest,
    part: PlannedPart | null,
  ): Promise<ExecResult> {
    const controller = new AbortController();
    this.counts.calls++;
    const key = part?.key ?? "(resume)";
    this.counts.spent[key] = (this.counts.spent[key] ?? 0) + 1;
    if (part !== null) {
      this.#inFlight.set(part.key, { controller, part });
      this.deferred.delete(part.key);
      this.#quiet?.started(part);
    }
    this.#all.add(controller);
    const signal = request.signal
      ? AbortSignal.any([request.signal, controller.signal])
      : controller.signal;
    const started = Date.now();
    try {
      const result = await runner({ ...request, signal });
      // a call that ran to its end tells how long one takes (a corrective resume is not one)
      const whole = !result.aborted && !result.timedOut && !signal.aborted;
      if (part !== null && whole) this.#quiet?.finished(Date.now() - started);
      return result;
    } finally {
      if (part !== null && this.#inFlight.get(part.key)?.controller === controller) {
        this.#inFlight.delete(part.key);
      }
      this.#all.delete(controller);
    }
  }

  /**
   * The latest plan's parts are those keyed in `keep`: kill the running calls of any other part
   * (its bytes changed: superseded) and hold those parts back (lib/gates/turn/work_quiet.ts); a
   * call not started yet for another part is declined.
   *
   * @returns how many were killed
   */
  supersede(keep: ReadonlySet<string>): number {
    this.#current = new Set(keep);
    let killed = 0;
    for (const [key, { controller, part }] of this.#inFlight) {
      // a one-part change's call serves its part once the change grew, bytes unchanged
      if (keep.has(key) || (key.startsWith("whole:") && keep.has(`part:${part.digest}`))) continue;
      controller.abort(new Error("superseded: the part's bytes changed"));
      this.#inFlight.delete(key);
      this.#quiet?.superseded(part);
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
