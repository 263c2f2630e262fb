/**
 * The review's model calls, when it is asked in parts: the plan's chunks in several calls, or a
 * council (several providers, each asked every part) — lib/review/parts.ts, inside one setting
 * and one shared deadline — merged by the answer kind (lib/kinds/definition.ts `KindParts`). One
 * shard of a split review asks only its own parts (lib/git/shards.ts); `review-gate merge`
 * asks no model and takes the parts' answers from the shards' files instead
 * (lib/review/shard_merge.ts), merged the same way.
 *
 * @module
 */
import type { DecoderKind } from "../answer/types.ts";
import type { Repo } from "../git/repo.ts";
import type { Change } from "../git/types.ts";
import type { KindParts } from "../kinds/definition.ts";
import { getProvider, missingBinaryMessage, resolveBinary } from "../providers/registry.ts";
import type { GuidelineChooser } from "../rules/apply.ts";
import type { ReviewAcks } from "./acks.ts";
import type { SettingAhead } from "./ahead.ts";
import { loadingJudge } from "./ask.ts";
import type { Answered } from "./finish.ts";
import type { Setup } from "./setup.ts";
import type { PartsOutcome, PartsProvider } from "./parts.ts";
import { assignParts, partsText } from "../git/shards.ts";
import type { ReviewDeps, ReviewOptions, ShardedOutcome } from "./types.ts";

/** What of the options a review in parts reads. */
export type PartsOptions = Pick<
  ReviewOptions,
  | "config"
  | "cwd"
  | "kind"
  | "kindInput"
  | "focus"
  | "agentMessage"
  | "deadline"
  | "useCache"
  | "onPartial"
  | "shard"
  | "shardResults"
>;

/**
 * Review the plan's chunks in several calls and merge their answers.
 *
 * @param at the repository, the change, the state dir (the per-part cache), the acknowledgements
 *   and guidelines (told per part), the call's setting, and the kind's parts
 *   (lib/review/setup.ts `partsOf`)
 * @returns the merged answer, the outcome, what the parts add to the record, and a council's
 *   answers
 * @throws whatever the setting (the copy, the proof's snapshots) throws
 */
export async function askInParts(
  setup: Pick<Setup, "kind" | "provider" | "council" | "identity">,
  options: PartsOptions,
  deps: Pick<ReviewDeps, "runner" | "env" | "signal" | "onProviderStart">,
  at: {
    repo: Repo;
    change: Change;
    state: string;
    acks: ReviewAcks;
    guidelines: GuidelineChooser;
    setting: SettingAhead;
    parts: KindParts;
    /** The plan identity, for a shard's review or a merge (lib/review/shard_identity.ts). */
    identity?: string;
  },
): Promise<Answered> {
  const { config } = options;
  const { council } = setup;
  const providers = await providersOf(setup, options, deps);
  const decoder = setup.kind.decoder(options.kindInput, at.change);
  if (options.shardResults) {
    return answered(await fromShards(options, { ...at, providers, decoder }), {
      change: at.change,
      providers,
      council: council.length > 0,
    });
  }
  const only = options.shard ? shardParts(at.change, options.shard) : undefined;
  if (only?.size === 0) return noPartOf(at.change, options.shard!);
  deps.onProviderStart?.(providers.map((p) => p.adapter.name).join(", "));
  const asked = only?.size ?? at.change.chunks.length;
  const waves = Math.ceil(asked * providers.length / config.jobs);
  const callTimeoutMs = config.timeout_seconds * 1000;
  const deadline = Math.min(options.deadline ?? Infinity, Date.now() + callTimeoutMs * waves);
  const setting = at.setting.prepare(at.repo, at.change.toTree ?? at.change.to);
  const { reviewInParts } = await import("./parts.ts");
  const result = await setting.use((workspace, proof) =>
    reviewInParts({
      change: at.change,
      repo: at.repo,
      providers,
      // a model name is one provider's: a council asks each provider's default model
      model: council.length > 0 ? undefined : config.model,
      maxTurns: config.max_turns,
      kind: setup.kind,
      parts: at.parts,
      kindInput: options.kindInput,
      decoder,
      variant: options.kind,
      focus: options.focus,
      agentMessage: options.agentMessage,
      acks: at.acks,
      guidelines: at.guidelines,
      config,
      schemaHash: setup.identity.schemaHash,
      templateHash: setup.identity.templateHash,
      state: at.state,
      useCache: options.useCache && config.cache,
      runner: loadingJudge(deps.runner, decoder),
      env: deps.env,
      signal: deps.signal,
      deadline,
      callTimeoutMs,
      jobs: config.jobs,
      workspace,
      proof,
      onPartial: options.onPartial,
      ...(only ? { only } : {}),
    })
  );
  const sharded = only ? { results: result.shardResults ?? [] } : undefined;
  return answered({ ...result, ...(sharded ? { sharded } : {}) }, {
    change: at.change,
    providers,
    council: council.length > 0,
    asked: only?.size,
  });
}

/** The provider, or a council's providers, with the binary each runs and what to say when it is missing. */
async function providersOf(
  setup: Pick<Setup, "provider" | "council">,
  options: Pick<PartsOptions, "cwd">,
  deps: Pick<ReviewDeps, "env">,
): Promise<PartsProvider[]> {
  const { council } = setup;
  const adapters = await Promise.all(
    (council.length > 0 ? council : [setup.provider]).map((meta) => getProvider(meta.name)),
  );
  return adapters.map((adapter) => {
    const bin = resolveBinary(adapter, deps.env, options.cwd);
    return { adapter, bin, missingBinaryMessage: missingBinaryMessage(adapter, bin) };
  });
}

/**
 * The answer of a review in parts, for the pipeline's last stage: the parts' counts in coverage,
 * and whether the verdict may stand for the whole change in the cache.
 *
 * @param at the change, the providers, whether they are a council, and how many parts this
 *   process was to answer (a shard's; default: all of the plan's)
 */
function answered(
  result: PartsOutcome & { sharded?: ShardedOutcome; fake?: boolean },
  at: {
    change: Change;
    providers: Pick<PartsProvider, "adapter">[];
    council: boolean;
    asked?: number;
  },
): Answered {
  const planned = at.change.chunks.length;
  const ok = result.answeredBy.size;
  const failed = (at.asked ?? planned) - ok;
  const coverage = { ...result.coverage, chunks: { planned, reviewed: ok, failed } };
  // A part that could not run, or a council member that did not answer a part, is not in the
  // verdict: never reuse it for the whole change (a cache hit recomputes coverage as complete).
  // Nor is a shard's or a merge's: one saw part of the plan, the other took answers from files.
  const everyone = [...result.answeredBy.values()].every((by) => by.length >= at.providers.length);
  const cacheable = ok === planned && everyone && !result.sharded;
  return {
    answer: result.outcome.answer,
    outcome: result.outcome,
    extras: {
      coverage,
      parts: result.parts,
      findingSources: result.sources,
      cacheable,
      ...(result.fake ? { fakeProvider: true } : {}),
    },
    council: at.council
      ? { providers: at.providers.map((p) => p.adapter.name), answeredBy: result.answeredBy }
      : undefined,
    ...(result.sharded ? { sharded: result.sharded } : {}),
  };
}

/** The plan's parts (0-based) one shard asks. */
function shardParts(change: Change, spec: { index: number; count: number }): Set<number> {
  const owners = assignParts(change.chunks.map((c) => c.bytes), spec.count);
  return new Set(owners[spec.index - 1]);
}

/** A shard dealt no part of the plan (more shards than parts): not reviewed, asking nobody. */
function noPartOf(change: Change, spec: { index: number; count: number }): Answered {
  const total = change.chunks.length;
  const message = `shard ${spec.index} of ${spec.count} has no part of this plan (${
    partsText(change.chunks.map((_, i) => i + 1), total)
  } for ${spec.count} shards): it reviewed nothing`;
  return {
    outcome: { status: "not-reviewed", message, attempts: [] },
    extras: { cacheable: false },
    sharded: { results: [] },
  };
}

/** A merge's parts: the answers of the shards' files, merged as a review in parts merges. */
async function fromShards(
  options: PartsOptions,
  at: {
    change: Change;
    parts: KindParts;
    providers: PartsProvider[];
    decoder: DecoderKind<unknown>;
    identity?: string;
  },
): Promise<PartsOutcome & { sharded: ShardedOutcome; fake: boolean }> {
  const { partsFromShards } = await import("./shard_merge.ts");
  const { combineParts } = await import("./parts.ts");
  const gathered = await partsFromShards({
    change: at.change,
    providers: at.providers,
    identity: at.identity ?? "",
    files: options.shardResults?.files ?? [],
    ...(options.shardResults?.refused ? { refused: options.shardResults.refused } : {}),
    decoder: at.decoder,
  });
  const request = { ...at, onPartial: options.onPartial };
  const result = await combineParts(request, gathered.results);
  // named whether the review fails or stands partial (`on_partial`): which shards, which parts
  if (gathered.problem) {
    result.outcome.message = `not every part of the plan has an answer: ${gathered.problem}`;
  }
  return { ...result, sharded: { notes: gathered.notes }, fake: gathered.fake };
}
