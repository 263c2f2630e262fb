/**
 * Store a finished review run (docs/design.md "Store"): build its {@linkcode RunRecord} from the
 * run's start, the provider call's outcome or the cache hit, and the answer; write the transcript,
 * the answer kind's two success files on success (`answer.json` + `review.md`, or
 * `compliance.json` + `compliance.md`; the markdown drawn by the format registry), the verdict
 * cache and memo, the final `run.json` (which replaces the "running" placeholder), and one line in
 * the records log. Every write is best-effort: a failure is a warning, never a lost verdict.
 *
 * @module
 */
import type { KindDefinition, Policy } from "../kinds/definition.ts";
import type { Config } from "../config/config.ts";
import { StoreError } from "../base/errors.ts";
import { getRenderer } from "../formats/registry.ts";
import type { CallOutcome } from "../session/call.ts";
import { type CacheEntry, writeCache } from "../store/cache.ts";
import { appendRecord, type RecordLine } from "../store/records.ts";
import { warnFields } from "../store/warn_fields.ts";
import { writeRunRecord, writeSuccess, writeTranscript } from "../store/run_dir.ts";
import type { Coverage } from "../git/types.ts";
import type { PartRecord, ReviewStatus, RunningRecord, RunRecord } from "../store/run_record.ts";
import { exitCodeFor } from "./exit_code.ts";

/** What is known of a run when its folder is created: its "running" record without the status. */
export type RunStart = Omit<RunningRecord, "status"> & { cacheKey: string };

/** How a run ended, for {@linkcode storeRun}. */
export interface FinishedRun {
  /** The state directory (lib/store/state.ts). */
  state: string;
  status: ReviewStatus;
  /** True when the answer has findings the policy blocks on (not in a gate's warn mode). */
  blocking: boolean;
  /** A gate in warn mode: how many findings would have blocked (absent when none). */
  wouldBlock?: number;
  /** The accepted answer (fresh or cached) of the run's answer kind, absent on failure. */
  answer?: unknown;
  /** A review answer's finding notes (fingerprints, acknowledgements), index for index. */
  findingNotes?: RunRecord["findingNotes"];
  /**
   * False when the verdict must not be reused for the whole change: a part of it, or a council
   * member, could not run, so a later identical change would read as fully reviewed. Default true.
   */
  cacheable?: boolean;
  /** The provider call, absent on a cache hit. */
  outcome?: CallOutcome<unknown>;
  /** The cache entry the answer came from, or `null`. */
  hit: CacheEntry<unknown> | null;
  config: Config;
  /** The answer kind asked for (its success files, counts and markdown). */
  kind: KindDefinition;
  /** The kind's policy under the config (the markdown file marks what blocks). */
  policy: Policy;
  /** Verdict memo key of an immutable target, pointed at this verdict on success. */
  memoKey?: string;
  /** When the run started and finished (`durationMs` is their difference). */
  started: Date;
  finished: Date;
  /** Coverage to store instead of the collected one (failed parts of a multi-call review). */
  coverage?: Coverage;
  /** The parts of a multi-call review, and per merged finding who reported it. */
  parts?: PartRecord[];
  findingSources?: { parts: number[]; providers: string[] }[];
  /**
   * A merge (`review-gate merge`): the shards' files say the bundled fake answered, so the run is
   * marked as the fake's, as the shards' own runs are (lib/review/shard_merge.ts).
   */
  fakeProvider?: boolean;
  /** Why the run failed, when there is no call outcome to say it (an exception after `openRun`). */
  message?: string;
  /** Stops waiting for the records lock (Ctrl-C); the records line is then skipped. */
  signal?: AbortSignal;
}

/** A stored run: its final record and what could not be stored. */
export interface StoredRun {
  record: RunRecord;
  /**
   * One line per store write that failed (transcript, answer/review, cache, memo, `run.json`,
   * records line); empty when everything was written.
   */
  warnings: string[];
}

/**
 * Build the final record of a run and store everything about it, best-effort: the verdict is
 * already in hand, so a failed write (a full disk, a read-only `.git`, a records lock held by
 * another process) becomes a warning and the other writes still run. `run.json` is written last but
 * one (before the records line) and carries the warnings so far in `notes`.
 *
 * The record takes the model from the call, else the cached record, else the config; attempts
 * without their raw bytes (those go to `transcript/`); finding counts by severity. The cache is
 * written for every fresh answer and the memo whenever `memoKey` is given — also with
 * `config.cache` false, which only stops reusing a cached verdict (like `--no-cache`), so the next
 * run sees the newest verdict, never an older one.
 *
 * @param start the run's start, as written in the "running" `run.json`
 * @param run how it ended
 * @returns the record and the warnings; never throws for a file-system failure
 */
export async function storeRun(start: RunStart, run: FinishedRun): Promise<StoredRun> {
  const { outcome, answer, hit, config, state } = run;
  const record: RunRecord = {
    ...start,
    ...(run.fakeProvider ? { fakeProvider: true } : {}),
    status: run.status,
    blocking: run.blocking,
    ...(run.wouldBlock ? { wouldBlock: run.wouldBlock } : {}),
    cached: hit !== null,
    ...(hit
      ? {
        cachedFrom: {
          runId: hit.record.id,
          ...(hit.record.finishedAt ? { reviewedAt: hit.record.finishedAt } : {}),
        },
      }
      : {}),
    model: outcome?.model ?? hit?.record.model ?? config.model,
    sessionId: outcome?.sessionId ?? hit?.record.sessionId,
    attempts: outcome
      ? (await import("../session/call.ts")).toAttemptRecords(outcome.attempts)
      : [],
    usage: outcome?.usage,
    costUsd: outcome?.costUsd,
    message: run.message ?? outcome?.message,
    refusal: outcome?.refusal,
    notes: outcome?.notes,
    findingNotes: run.findingNotes,
    ...(answer !== undefined ? run.kind.recordCounts(answer) : {}),
    ...(run.coverage ? { coverage: run.coverage } : {}),
    ...(run.parts ? { parts: run.parts } : {}),
    ...(run.findingSources
      ? {
        findingSources: run.findingSources.map((s) => ({ parts: s.parts, providers: s.providers })),
      }
      : {}),
    finishedAt: run.finished.toISOString(),
    durationMs: run.finished.getTime() - run.started.getTime(),
  };
  const warnings: string[] = [];
  /** Run one write; its failure becomes its warning (`undefined` when it worked). */
  const attempt = async (what: string, write: () => Promise<unknown>) => {
    try {
      await write();
      return undefined;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return error instanceof StoreError ? reason : `Could not store ${what}: ${reason}`;
    }
  };
  // The transcript, the success files and the cache (then the memo that points at it) are
  // independent: written at once, their warnings kept in this order.
  const written = await Promise.all([
    outcome ? attempt("the transcript", () => writeTranscript(start.runDir, outcome.attempts)) : [],
    answer !== undefined ? storeAnswer(start, run, record, answer, attempt) : [],
  ]);
  for (const warning of written.flat()) if (warning !== undefined) warnings.push(warning);
  const stored = warnings.length > 0
    ? { ...record, notes: [...record.notes ?? [], ...warnings] }
    : record;
  const runJson = await attempt("run.json", () => writeRunRecord(start.runDir, stored));
  if (runJson !== undefined) warnings.push(runJson);
  const recordsLine = await attempt("the records line", async () => {
    const result = await appendRecord(state, recordLine(record), {
      // An interrupted run still gets its line: only a Ctrl-C during this very wait skips it (the
      // wait is bounded anyway).
      signal: run.signal?.aborted ? undefined : run.signal,
    });
    if (!result.written) warnings.push(result.warning);
  });
  if (recordsLine !== undefined) warnings.push(recordsLine);
  return { record: stored, warnings };
}

/**
 * Write a successful run's answer files, then the verdict cache and the memo (which points at the
 * cache entry, so it comes after it).
 *
 * @returns the warnings of the writes that failed, in that order (`undefined` for those that worked)
 */
async function storeAnswer(
  start: RunStart,
  run: FinishedRun,
  record: RunRecord,
  answer: unknown,
  attempt: (what: string, write: () => Promise<unknown>) => Promise<string | undefined>,
): Promise<(string | undefined)[]> {
  const { state } = run;
  const files = run.kind.files;
  const success = attempt(`${files.answer} and ${files.markdown}`, async () => {
    const markdown = await (await getRenderer("markdown"))({
      record,
      answer,
      exitCode: exitCodeFor(record.status, record.blocking),
    }, { policy: run.policy });
    return writeSuccess(start.runDir, { answer, markdown, files });
  });
  const cached = async () => {
    const out: (string | undefined)[] = [];
    if (!run.hit && run.cacheable !== false) {
      out.push(
        await attempt(
          "the verdict cache",
          () => writeCache(state, start.cacheKey, { answer, record }),
        ),
      );
    }
    if (run.memoKey) {
      const key = run.memoKey;
      out.push(
        await attempt(
          "the verdict memo",
          async () =>
            await (await import("../store/verdict_memo.ts")).writeMemo(state, {
              key,
              cacheKey: start.cacheKey,
            }),
        ),
      );
    }
    return out;
  };
  const [successWarning, cacheWarnings] = await Promise.all([success, cached()]);
  return [successWarning, ...cacheWarnings];
}

/** The ledger line of a run (`records.jsonl`, lib/store/records.ts `RecordLine`). */
function recordLine(record: RunRecord): RecordLine {
  return {
    id: record.id,
    status: record.status,
    blocking: record.blocking,
    target: record.target.label,
    provider: record.provider,
    model: record.model,
    ...(record.fakeProvider ? { fake: true } : {}),
    ...(record.gate ? { gate: record.gate } : {}),
    ...warnFields(record),
    cached: record.cached,
    ...(record.answerKind && record.answerKind !== "review" ? { kind: record.answerKind } : {}),
    attempts: record.attempts.length,
    ...(record.usage ? { usage: record.usage } : {}),
    ...(record.costUsd !== undefined ? { costUsd: record.costUsd } : {}),
    findings: record.findingCounts,
    ...(record.itemCounts ? { items: record.itemCounts } : {}),
    acknowledged: record.findingNotes?.filter((n) => n.acknowledged).length ?? 0,
    coverage: record.coverage?.status,
    durationMs: record.durationMs,
    finishedAt: record.finishedAt,
  };
}
