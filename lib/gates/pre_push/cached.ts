/**
 * The pre-push fast path of a re-push (DESIGN.md "Gates" → pre-push): a range reviewed before (same
 * commits, provider, model, prompt, schema and budgets) finds its verdict through the verdict memo
 * and the cache without collecting the change.
 *
 * @module
 */
import type { Config } from "../../config/config.ts";
import type { Coverage } from "../../git/types.ts";
import type { ReviewAnswer } from "../../kinds/review/types.ts";
import { verdictIdentity } from "../../review/identity.ts";
import { readCache } from "../../store/cache.ts";
import { ensureStateDir } from "../../store/state.ts";
import { memoKey, readMemo } from "../../store/verdict_memo.ts";

/** What every ref update of a push shares for the cache lookup: verdict identity and state dir. */
export interface CacheContext {
  identity: Awaited<ReturnType<typeof verdictIdentity>>;
  /** The state dir, or `null` when the cache is off (then it is never created). */
  state: string | null;
}

/** A verdict found in the cache: the answer, its run folder, status and coverage. */
export interface CachedVerdict {
  answer: ReviewAnswer;
  runDir?: string;
  status: string;
  /** What the cached review saw (absent in entries written before coverage was recorded). */
  coverage?: Coverage;
}

/**
 * Build the {@linkcode CacheContext} once per push (both parts are the same for every ref update).
 *
 * @throws {import("../../base/errors.ts").UsageError} for an unknown provider; whatever
 *   {@linkcode ensureStateDir} throws for a broken state dir
 */
export async function cacheContextOf(config: Config, commonDir: string): Promise<CacheContext> {
  return {
    identity: await verdictIdentity(config, { kind: "review" }),
    state: config.cache ? await ensureStateDir(commonDir) : null,
  };
}

/**
 * The cached verdict of a range reviewed before, found without collecting the change.
 *
 * @returns the range's memo key (to record the verdict under after a fresh review) and the hit, or
 *   `null` when there is none (or the cache is off)
 */
export async function cachedVerdict(
  context: CacheContext,
  range: { from: string; to: string },
): Promise<{ memo: string; hit: CachedVerdict | null }> {
  const memo = await memoKey({ ...context.identity, from: range.from, to: range.to });
  if (context.state === null) return { memo, hit: null };
  const cacheKey = await readMemo(context.state, memo);
  const entry = cacheKey ? await readCache<ReviewAnswer>(context.state, cacheKey) : null;
  return {
    memo,
    hit: entry
      ? {
        answer: entry.answer,
        runDir: entry.record.runDir,
        status: entry.record.status,
        coverage: entry.record.coverage,
      }
      : null,
  };
}
