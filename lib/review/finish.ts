/**
 * The review's last stage: judge what the model (or the cache) answered — the status from the
 * answer kind, a merged answer settled per report and a council's agreements (the kind's
 * `parts.settle`), each finding's fingerprint and acknowledgement (the kind's `findings`, matched
 * by lib/acks), blocking from the kind's policy, a gate's `on_partial` and its `mode` (in warn mode
 * the findings that would block are counted, not blocking: README "Warn first") — then store the run
 * (lib/review/store_run.ts) and build the outcome with its exit code.
 *
 * @module
 */
import { noteFindings } from "../acks/match.ts";
import type { Ack } from "../acks/types.ts";
import type { Config } from "../config/config.ts";
import type { Change } from "../git/types.ts";
import type { CouncilAnswers } from "../kinds/definition.ts";
import type { CallOutcome } from "../session/call.ts";
import type { CacheEntry } from "../store/cache.ts";
import type { ReviewStatus } from "../store/run_record.ts";
import { exitCodeFor } from "./exit_code.ts";
import type { Setup } from "./setup.ts";
import { type FinishedRun, type RunStart, storeRun } from "./store_run.ts";
import type { ReviewDeps, ReviewOptions, ReviewOutcome, ShardedOutcome } from "./types.ts";

/** Where a review's run is stored, and what every `storeRun` call of it shares. */
export interface RunStore {
  /** The run's start, as its "running" `run.json` holds it. */
  start: RunStart;
  shared: Omit<FinishedRun, "status" | "blocking" | "hit" | "finished">;
  now: () => Date;
}

/** The {@linkcode RunStore} of an opened run. */
export function runStore(
  start: RunStart,
  state: string,
  at: {
    setup: Pick<Setup, "kind" | "policy" | "started">;
    options: Pick<ReviewOptions, "config" | "memoKey">;
    deps: Pick<ReviewDeps, "now" | "signal">;
  },
): RunStore {
  const { setup, options, deps } = at;
  return {
    start,
    shared: {
      state,
      config: options.config,
      kind: setup.kind,
      policy: setup.policy,
      memoKey: options.memoKey,
      started: setup.started,
      signal: deps.signal,
    },
    now: deps.now,
  };
}

/** What a review has to judge: an answer (fresh, cached or merged), or a call that failed. */
export interface Answered {
  /** The accepted answer, absent when the call failed. */
  answer?: unknown;
  /** The provider call, absent on a cache hit. */
  outcome?: CallOutcome<unknown>;
  /** What a review in parts adds to the record. */
  extras?: Pick<
    FinishedRun,
    "coverage" | "parts" | "findingSources" | "cacheable" | "fakeProvider"
  >;
  /** A council's providers and, per part, who answered it (each finding's agreement). */
  council?: CouncilAnswers;
  /** A shard's part results, or what a merge found in the shards' files. */
  sharded?: ShardedOutcome;
}

/** What judging an answer needs besides the answer. */
export interface Judging {
  /** The cache entry the answer came from, or `null`. */
  hit: CacheEntry<unknown> | null;
  change: Change;
  /** The acknowledgements that hold (matched against the findings' fingerprints). */
  acks: readonly Ack[];
  /** The kind's command-line switches that were given, by name. */
  switches: ReadonlySet<string>;
  councilPolicy: Config["council_policy"];
  /** A gate's `on_partial`: "block" records a partially reviewed verdict as blocking. */
  onPartial?: "allow" | "block";
  /** A gate's `mode`: "warn" counts the blocking findings instead of blocking on them. */
  gateMode?: ReviewOptions["gateMode"];
}

/** The {@linkcode Judging} of a review's answer. */
export function judgingOf(
  options: Pick<ReviewOptions, "switches" | "config" | "onPartial" | "gateMode">,
  at: Pick<Judging, "hit" | "change" | "acks">,
): Judging {
  return {
    ...at,
    switches: options.switches ?? new Set<string>(),
    councilPolicy: options.config.council_policy,
    onPartial: options.onPartial,
    gateMode: options.gateMode,
  };
}

/**
 * Decide status and blocking, store the run, and build the outcome.
 *
 * @throws what reading the reviewed tree throws while the findings are fingerprinted (a git failure)
 */
export async function finish(
  store: RunStore,
  judging: Judging,
  result: Answered,
): Promise<ReviewOutcome<unknown>> {
  const { outcome } = result;
  const { kind, policy } = store.shared;
  const status: ReviewStatus = result.answer !== undefined
    ? kind.status(result.answer)
    : outcome!.status as ReviewStatus;
  const sources = result.extras?.findingSources;
  // merged answers (parts, council) are judged per report, by the kind (a council's agreements)
  const council = result.council ? { ...result.council, policy: judging.councilPolicy } : undefined;
  const settled = result.answer !== undefined && kind.parts && sources
    ? await kind.parts.settle(result.answer, { sources, policy, council })
    : { answer: result.answer };
  const { answer, agreements } = settled;
  const findingNotes = answer !== undefined && kind.findings
    ? noteFindings(await kind.findings.fingerprints(answer, judging.change.tree), judging.acks)
    : undefined;
  if (findingNotes && agreements) {
    findingNotes.forEach((note, i) => (note.agreement = agreements[i]));
  }
  // A gate with on_partial "block" stops a partially reviewed change: the record says so, so the
  // ledger and `stats` count the block the user saw.
  const partialBlocks = judging.onPartial === "block" &&
    (result.extras?.coverage ?? store.start.coverage)?.status === "partial";
  const blockers = answer !== undefined
    ? kind.blockingCount(answer, { policy, switches: judging.switches, notes: findingNotes })
    : 0;
  // a gate in warn mode lets its findings through and records how many would have blocked
  const warn = judging.gateMode === "warn";
  const blocking = answer !== undefined && ((blockers > 0 && !warn) || partialBlocks);
  const { record, warnings } = await storeRun(store.start, {
    ...store.shared,
    ...result.extras,
    status,
    blocking,
    ...(warn && blockers > 0 ? { wouldBlock: blockers } : {}),
    answer,
    findingNotes,
    outcome,
    hit: judging.hit,
    finished: store.now(),
  });
  const last = outcome?.attempts.at(-1);
  const decoder = new TextDecoder();
  return {
    record,
    answer,
    exitCode: exitCodeFor(status, blocking),
    rawOutput: last
      ? { stdout: decoder.decode(last.stdout), stderr: decoder.decode(last.stderr) }
      : undefined,
    change: judging.change,
    ...(warnings.length > 0 ? { storeWarnings: warnings } : {}),
    ...(result.sharded ? { sharded: result.sharded } : {}),
  };
}

/**
 * Store a run that ended by an error once its folder existed as `provider-error` with the error's
 * message, so its `run.json` is never left "running" for a run that has ended.
 */
export async function storeFailure(
  store: RunStore,
  hit: CacheEntry<unknown> | null,
  error: unknown,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await storeRun(store.start, {
    ...store.shared,
    status: "provider-error",
    blocking: false,
    hit,
    message,
    finished: store.now(),
  });
}
