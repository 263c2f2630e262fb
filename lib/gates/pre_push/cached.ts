/**
 * The pre-push fast path of a re-push (docs/design.md "Pre-push gate"): a range reviewed before
 * (same
 * commits, provider, model, prompt, schema and budgets) finds its verdict through the verdict memo
 * and the cache without collecting the change.
 *
 * @module
 */
import type { Config } from "../../config/config.ts";
import type { Coverage, ExcludedFile } from "../../git/types.ts";
import type { FindingNote, ReviewAnswer } from "../../kinds/review/types.ts";
import { reviewDefinition } from "../../kinds/review/definition.ts";
import { acksDigest, activeAcks, noteFindings } from "../../acks/match.ts";
import { readAcks } from "../../acks/file.ts";
import type { Repo } from "../../git/repo.ts";
import type { Runner } from "../../exec/exec.ts";
import type { Ack } from "../../acks/types.ts";
import { verdictIdentity } from "../../review/identity.ts";
import { sha256Hex } from "../../base/sha256.ts";
import type { RulesOptions } from "../../rules/options.ts";
import { readCache } from "../../store/cache.ts";
import { ensureStateDir } from "../../store/state.ts";
import { memoKey, readMemo } from "../../store/verdict_memo.ts";
import { type PushReviewer, reviewerOf } from "./messages.ts";

/**
 * Where a pushed range's rules come from: a tree on the remote's side
 * (lib/gates/pre_push/rules.ts), never the pushed commits themselves. The verdict memo key holds that tree's id, so the rules read
 * there (REVIEW.md, .gitattributes) are fixed with it.
 *
 * @param tree the tree id the rules are read from (the range's base)
 * @param label what it is, for people
 */
export function pushRules(tree: string, label = "the remote's side"): RulesOptions {
  return { from: { kind: "tree", tree, label, attributesFromTreeOnly: true }, untrusted: false };
}

/** What every ref update of a push shares for the cache lookup: verdict identity and state dir. */
export interface CacheContext {
  identity: Awaited<ReturnType<typeof verdictIdentity>>;
  /** The state dir, or `null` when the cache is off (then it is never created). */
  state: string | null;
  /** The acknowledgements that hold (part of the identity; they mark a cached verdict's findings). */
  acks: readonly Ack[];
}

/** A verdict found in the cache: the answer, its run folder, status and coverage. */
export interface CachedVerdict {
  answer: ReviewAnswer;
  /** The findings' notes, acknowledgements matched against today's. */
  findingNotes?: FindingNote[];
  runDir?: string;
  status: string;
  /** What the cached review saw (absent in entries written before coverage was recorded). */
  coverage?: Coverage;
  /** The files the cached review's rules left out (named in the push's report). */
  excluded?: ExcludedFile[];
  /** The provider and model that gave the verdict, and its findings by severity (for the ledger). */
  provider: string;
  model?: string;
  findingCounts?: Record<string, number>;
  /** Who gave the verdict, as the push names them (lib/gates/pre_push/messages.ts). */
  reviewer?: PushReviewer;
}

/**
 * Build the {@linkcode CacheContext} once per rules side of a push (the same for every ref update
 * whose rules come from there).
 *
 * @param at the repository, a runner, the clock; `acks`, the acknowledgements that count (default
 *   the worktree's `.review-gate/acks.json`); `rules`, where the rules come from (its tree id is
 *   part of the memo identity); `env`, whose provider binary override is part of the memo identity
 * @throws {import("../../base/errors.ts").ConfigError} for an invalid acks file;
 *   {@linkcode import("../../base/errors.ts").UsageError} for an unknown provider; whatever
 *   {@linkcode ensureStateDir} throws for a broken state dir
 */
export async function cacheContextOf(
  config: Config,
  at: {
    repo: Repo;
    runner: Runner;
    now: Date;
    acks?: readonly Ack[];
    rules?: RulesOptions;
    env?: Record<string, string | undefined>;
  },
): Promise<CacheContext> {
  const acks = activeAcks(
    at.acks ?? await readAcks(at.runner, { kind: "worktree", root: at.repo.root }),
    at.now,
  );
  const commonDir = at.repo.commonDir;
  const rules = at.rules ?? pushRules("");
  const identity = await verdictIdentity(config, {
    kind: "review",
    // a push asks for a review: its definition, without loading every kind's
    definition: reviewDefinition,
    acks: await acksDigest(acks),
    rules,
    ...(at.env ? { env: at.env } : {}),
  });
  const tree = rules.from.kind === "tree" ? rules.from.tree : "worktree";
  return {
    identity: { ...identity, rules: await sha256Hex(JSON.stringify([identity.rules, tree])) },
    state: config.cache ? await ensureStateDir(commonDir) : null,
    acks,
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
        excluded: entry.record.rules?.excluded,
        provider: entry.record.provider ?? context.identity.provider,
        model: entry.record.model,
        findingCounts: entry.record.findingCounts,
        reviewer: reviewerOf({
          ...entry.record,
          provider: entry.record.provider ?? context.identity.provider,
        }),
        findingNotes: entry.record.findingNotes &&
          noteFindings(entry.record.findingNotes.map((n) => n.fingerprint), context.acks),
      }
      : null,
  };
}
