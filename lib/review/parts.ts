/**
 * A review in several model calls (docs/design.md "Review plan"): each chunk of
 * the review plan is one provider session with its own corrective resume (lib/session/call.ts),
 * at most `jobs` at a time, all within one shared deadline, and one read-only proof around the
 * whole review rather than around each call. Each part's answer is decoded against that part's
 * files only, then the answers are merged and deduplicated by the answer kind
 * (lib/kinds/definition.ts `KindParts`; the review kind's: lib/kinds/review/merge.ts). A part
 * whose chunk is unchanged since an earlier review reuses that part's cached verdict, so when only
 * some chunks change only those are asked again.
 *
 * A council (several providers) asks every provider every part, all in the same pool of `jobs`;
 * the answers of all providers and parts are merged together, so the same finding from two
 * providers becomes one finding that names both (lib/kinds/review/council.ts judges agreement).
 *
 * A call that could not run makes the whole review fail with its status — unless `onPartial` is
 * given (a gate's `on_partial`, "allow" or "block") and another call answered: then a part no
 * provider answered has its files named as not reviewed (reason "failed") and coverage is partial;
 * so does a part some council member did not answer (naming that member), since the council did
 * not review it. With "block" that partial verdict is recorded as blocking (lib/review/finish.ts),
 * so a stricter `on_partial` never lets a part that did not answer through as "could not run"
 * under a looser `on_error` (README "Review while working", first rule).
 *
 * One shard of a review split across CI runners (`only`) asks its own parts and names the others
 * as another shard's (reason "shard"); its parts' results, per provider, go into its shard result
 * file (lib/review/shard_out.ts). `review-gate merge` builds the same part results from the
 * shards' files (lib/review/shard_merge.ts) and merges them here, with {@linkcode combineParts}.
 *
 * @module
 */
import { programKey } from "./identity.ts";
import type { DecoderKind } from "../answer/types.ts";
import { formatRefusal } from "../answer/refusal.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { Change, Coverage, OmittedPart } from "../git/types.ts";
import type {
  KindDefinition,
  KindParts,
  MergedSource,
  PartAnswer,
  PromptVariant,
} from "../kinds/definition.ts";
import type { ProviderAdapter } from "../providers/provider.ts";
import type { AttemptRun, CallOutcome, CallStatus, ReadOnlyProof } from "../session/call.ts";
import { callStructured } from "../session/call.ts";
import { readCache, writeCache } from "../store/cache.ts";
import type { PartRecord } from "../store/run_record.ts";
import type { ReviewWorkspace } from "../session/workspace.ts";
import type { ReviewAcks } from "./acks.ts";
import type { ShardPartResult } from "./shard_file.ts";
import type { Config } from "../config/config.ts";
import type { GuidelineChooser } from "../rules/apply.ts";
import { chunkDigest, partCacheKey, partView } from "./part_verdict.ts";

/** One provider a review in parts asks. */
export interface PartsProvider {
  adapter: ProviderAdapter;
  bin: string;
  missingBinaryMessage?: string;
}

/** Everything the parts of one review share. */
export interface PartsRequest {
  change: Change;
  repo: Repo;
  /** The provider, or a council's providers (each asked every part). */
  providers: PartsProvider[];
  model?: string;
  maxTurns: number;
  /** The answer kind asked for. */
  kind: KindDefinition;
  /** How it merges the answers of the parts (its definition's `parts`). */
  parts: KindParts;
  /** The kind's input (`undefined` for review). */
  kindInput?: unknown;
  /** Its decoder kind for this change (each part's answer is decoded against the part's files). */
  decoder: DecoderKind<unknown>;
  variant: PromptVariant;
  focus?: string;
  agentMessage?: string;
  /** The config in force (its filter settings key each part's cached verdict). */
  config: Config;
  /** The acknowledgements of the review (told to the model; their digest keys each part). */
  acks: ReviewAcks;
  /**
   * The team's guidelines for a part's paths (lib/rules/apply.ts), sent with that part; with the
   * files excluded by rule they key each part's cached verdict.
   */
  guidelines?: GuidelineChooser;
  /** Verdict identity pieces for each part's cache key. */
  schemaHash: string;
  templateHash: string;
  /** The state dir for the per-part cache, or `null` to neither read nor write it. */
  state: string | null;
  /** Read cached part verdicts (`--no-cache` still writes fresh ones). */
  useCache: boolean;
  runner: Runner;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Epoch ms by which every part must be over. */
  deadline: number;
  /** One call's own limit, ms. */
  callTimeoutMs: number;
  /** Parts asked at once. */
  jobs: number;
  /** The review's workspace: every part's provider runs in its read-only copy. */
  workspace: ReviewWorkspace;
  proof: ReadOnlyProof<unknown>;
  /** "allow": failed parts are named as not reviewed if another part ran. */
  /**
   * A gate's `on_partial`: given, a failed part leaves the others' verdict standing as partial;
   * absent (a review by hand), a failed part fails the whole review.
   */
  onPartial?: "allow" | "block";
  /**
   * One shard of a split review: the plan's parts (0-based) it asks; the others are another
   * shard's, named so in its coverage. Absent: every part.
   */
  only?: ReadonlySet<number>;
}

/** The outcome of a review in parts: one call outcome, the parts, and the merged provenance. */
export interface PartsOutcome {
  outcome: CallOutcome<unknown>;
  parts: PartRecord[];
  /** Per merged finding, which parts (and providers) reported it. */
  sources: MergedSource[];
  /** Coverage with failed parts named, when some failed and the review stands. */
  coverage: Coverage;
  /** Per part (1-based), the providers that answered it (fresh or cached), in council order. */
  answeredBy: Map<number, string[]>;
  /** A shard's review (`only`): its parts' results, per provider, in part order. */
  shardResults?: ShardPartResult[];
}

/** One part's result for one provider: its call's outcome or its cached verdict. */
export interface PartResult {
  /** The part, 0-based. */
  index: number;
  provider: Pick<PartsProvider, "adapter">;
  outcome?: CallOutcome<unknown>;
  /** The part's verdict from the cache (or, in a merge, a shard's answer). */
  cached?: unknown;
  /** sha256 of the part's diff (lib/review/part_verdict.ts `chunkDigest`). */
  digest: string;
  /** At `review-gate merge`: the shard that was to answer the part (`shard 2 of 4`). */
  shard?: string;
}

/** A part's fresh verdict, to be cached once the review's read-only proof held. */
interface PendingVerdict {
  key: string;
  answer: unknown;
  index: number;
}

/**
 * Review every chunk of `change` in its own session and merge the answers.
 *
 * @returns the merged outcome (status "ok" with the merged answer, or the failing part's status),
 *   the parts' records, finding sources and coverage
 */
export async function reviewInParts(request: PartsRequest): Promise<PartsOutcome> {
  const { change } = request;
  const before = await request.proof.take();
  const results: PartResult[] = [];
  const fresh: PendingVerdict[] = [];
  const asked = change.chunks.flatMap((_, index) =>
    request.only?.has(index) === false ? [] : [index]
  );
  const tasks = asked.flatMap((index) => request.providers.map((p) => ({ index, p })));
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const { index, p } = tasks[next++];
      results.push(await reviewPart(request, index, p, fresh));
    }
  };
  await Promise.all(Array.from({ length: Math.min(request.jobs, tasks.length) }, worker));
  const order = (r: PartResult) =>
    r.index * 8 + request.providers.findIndex((p) => p.adapter === r.provider.adapter);
  results.sort((a, b) => order(a) - order(b));
  const outcome = await combineParts(request, results);
  let changed: string[] = [];
  try {
    changed = request.proof.compare(before, await request.proof.take());
  } catch (error) {
    changed = [`(could not verify: ${error instanceof Error ? error.message : String(error)})`];
  }
  const violation = changed.length > 0
    ? `The reviewer changed the repository (read-only violation): ${
      changed.slice(0, 10).join(", ")
    }`
    : undefined;
  if (request.only) outcome.shardResults = shardResults(results, violation);
  if (violation) {
    Object.assign(outcome.outcome, {
      status: "provider-error",
      answer: undefined,
      message: violation,
    });
  } else if (request.state !== null) {
    // a part's verdict stands only once the proof around its call held (docs/design.md
    // "Read-only proof"): a reviewer that wrote leaves no verdict to reuse
    for (const { key, answer, index } of fresh) {
      const record = { id: `part-${index + 1}`, status: "approved" as const };
      await writeCache(request.state, key, { answer, record }).catch(() => {});
    }
  }
  return outcome;
}

async function reviewPart(
  request: PartsRequest,
  index: number,
  provider: PartsProvider,
  fresh: PendingVerdict[],
): Promise<PartResult> {
  const chunk = request.change.chunks[index];
  const guidelines = request.guidelines?.(chunk.paths);
  const digest = await chunkDigest(request.change, index);
  const key = await partCacheKey(digest, {
    config: request.config,
    guidelines,
    excluded: request.change.excludedByRule,
    schemaHash: request.schemaHash,
    templateHash: request.templateHash,
    provider: await programKey(provider.adapter, provider.bin, request.env),
    model: request.model,
    focus: request.focus,
    variant: request.variant,
    acks: request.acks.digest,
  });
  if (request.state !== null && request.useCache) {
    const hit = await readCache<unknown>(request.state, key);
    if (hit) return { index, provider, cached: hit.answer, digest };
  }
  const remaining = request.deadline - Date.now();
  if (remaining <= 0 || request.signal?.aborted) {
    const status: CallStatus = request.signal?.aborted ? "interrupted" : "timeout";
    const message = status === "timeout"
      ? "the review's shared deadline passed before this part started"
      : "interrupted before this part started";
    return { index, provider, outcome: { status, message, attempts: [] }, digest };
  }
  const { kind, decoder } = request;
  const prompts = await kind.prompts();
  const prompt = prompts.prompt(request.change, {
    variant: request.variant,
    focus: request.focus,
    agentMessage: request.agentMessage,
    acks: request.acks.told,
    part: { index },
    guidelines,
  }, request.kindInput);
  const tree = partView(request.change, index);
  const outcome = await callStructured<unknown>({
    adapter: provider.adapter,
    bin: provider.bin,
    request: {
      prompt,
      schema: kind.schema,
      root: request.repo.root,
      model: request.model,
      maxTurns: request.maxTurns,
    },
    correctivePrompt: (refusal) => prompts.corrective(formatRefusal(refusal)),
    decode: async (input) => (await import("../answer/decoder.ts")).decode(decoder, input, tree),
    runner: request.runner,
    timeoutMs: Math.min(request.callTimeoutMs, remaining),
    signal: request.signal,
    env: request.env,
    workspace: request.workspace,
    missingBinaryMessage: provider.missingBinaryMessage,
  });
  if (outcome.status === "ok") fresh.push({ key, answer: outcome.answer, index });
  return { index, provider, outcome, digest };
}

/**
 * One outcome for the whole review, from its parts' results: the answers merged by the kind, the
 * parts' records, usage and cost summed, and coverage — a failed part fails the review unless
 * `onPartial` is given and another part answered (then it is named as not reviewed); in a shard's
 * review (`only`) the other shards' parts are named as theirs.
 *
 * @param request the change, the providers (a council's in order), how the kind merges, the gate's
 *   `on_partial`, and a shard's parts
 * @param results every result, in part order then provider order
 */
export async function combineParts(
  request: Pick<PartsRequest, "change" | "providers" | "parts" | "onPartial" | "only">,
  results: PartResult[],
): Promise<PartsOutcome> {
  const { change } = request;
  const count = change.chunks.length;
  const council = request.providers.length > 1;
  const attempts: AttemptRun[] = [];
  const parts: PartRecord[] = results.map((r) => {
    const chunk = change.chunks[r.index];
    const status = r.cached ? "ok" : r.outcome!.status;
    for (const a of r.outcome?.attempts ?? []) {
      attempts.push({ ...a, n: attempts.length + 1, part: r.index + 1 });
    }
    return {
      part: r.index + 1,
      status,
      cached: r.cached !== undefined,
      files: chunk.paths.length,
      lines: chunk.lines,
      bytes: chunk.bytes,
      ...(council ? { provider: r.provider.adapter.name } : {}),
      ...(r.outcome?.sessionId ? { sessionId: r.outcome.sessionId } : {}),
      ...(r.outcome?.message ? { message: r.outcome.message } : {}),
    };
  });
  const answeredBy = new Map<number, string[]>();
  const answered: PartAnswer[] = results.flatMap((r) => {
    const answer = r.cached ?? r.outcome?.answer;
    if (!answer) return [];
    const provider = r.provider.adapter.name;
    answeredBy.set(r.index + 1, [...answeredBy.get(r.index + 1) ?? [], provider]);
    return [{ answer, part: r.index + 1, provider }];
  });
  const failed = results.filter((r) => !r.cached && r.outcome!.status !== "ok");
  const outcome: CallOutcome<unknown> = { status: "ok", attempts };
  const fresh = results.flatMap((r) => (r.outcome ? [r.outcome] : []));
  outcome.sessionId = fresh.find((o) => o.sessionId)?.sessionId;
  outcome.model = fresh.find((o) => o.model)?.model;
  const cost = fresh.filter((o) => o.costUsd !== undefined);
  if (cost.length > 0) outcome.costUsd = cost.reduce((n, o) => n + o.costUsd!, 0);
  const usage = sumUsage(fresh);
  if (usage) outcome.usage = usage;
  let coverage = change.coverage;
  const by = council ? (count > 1 ? "both" : "provider") : "part";
  const merged = await request.parts.merge(answered, { count, by });
  const first = failed[0];
  if (first && !(request.onPartial !== undefined && answered.length > 0)) {
    const who = council ? `${first.provider.adapter.name}, ` : "";
    Object.assign(outcome, {
      status: first.outcome!.status,
      message: `${who}part ${first.index + 1} of ${count}: ${
        first.outcome!.message ?? first.outcome!.status
      }`,
      refusal: first.outcome!.refusal,
    });
    return { outcome, parts, sources: [], coverage, answeredBy };
  }
  const left = leftOut(request, { failed, answeredBy });
  if (left.length > 0) coverage = withOmitted(change, left);
  outcome.answer = merged.answer;
  return { outcome, parts, sources: merged.sources, coverage, answeredBy };
}

/** The parts a standing review has no answer for, each with why (for {@linkcode withOmitted}). */
function leftOut(
  request: Pick<PartsRequest, "change" | "only">,
  at: { failed: PartResult[]; answeredBy: Map<number, string[]> },
): Parameters<typeof withOmitted>[1] {
  const { failed, answeredBy } = at;
  // a part a council member did not answer is not reviewed by the council: partial, naming who
  const unanswered = [...new Set(failed.map((f) => f.index))];
  const notBy = (i: number) =>
    failed.filter((f) => f.index === i && answeredBy.has(i + 1)).map((f) =>
      f.provider.adapter.name
    );
  const others = request.only
    ? request.change.chunks.flatMap((_, i) => request.only!.has(i) ? [] : [i])
    : [];
  // a merge's part no shard's result answered was never asked here: "unmerged", not "failed"
  const unmerged = (i: number) =>
    failed.every((f) => f.index !== i || f.outcome!.status === "not-reviewed");
  return [
    ...unanswered.map((index) => ({
      index,
      reason: unmerged(index) ? "unmerged" as const : "failed" as const,
      notBy: notBy(index),
      shard: failed.find((f) => f.index === index)?.shard,
    })),
    ...others.map((index) => ({ index, reason: "shard" as const, notBy: [] })),
  ];
}

/**
 * Coverage with the files of parts the review did not get an answer for named as not reviewed:
 * reason "failed" (its call could not run; `notBy`: the council members that did not answer it),
 * "shard" (another shard's part) or "unmerged" (no shard's result for it could be used).
 */
function withOmitted(
  change: Change,
  left: {
    index: number;
    reason: "failed" | "shard" | "unmerged";
    notBy: string[];
    shard?: string;
  }[],
): Coverage {
  const omitted: OmittedPart[] = [...change.coverage.omitted];
  let lines = 0;
  let bytes = 0;
  for (const { index, reason, notBy: who, shard } of left) {
    const chunk = change.chunks[index];
    lines += chunk.lines;
    bytes += chunk.covered;
    for (const path of chunk.paths) {
      omitted.push({
        path,
        reason,
        lines: 0,
        bytes: 0,
        ...(who.length ? { notBy: who } : {}),
        ...(shard ? { shard } : {}),
      });
    }
    const last = omitted.at(-1)!;
    last.lines = chunk.lines;
    last.bytes = chunk.covered;
  }
  return {
    ...change.coverage,
    status: "partial",
    omitted,
    reviewedLines: change.coverage.reviewedLines - lines,
    omittedLines: change.coverage.omittedLines + lines,
    reviewedBytes: change.coverage.reviewedBytes - bytes,
    omittedBytes: change.coverage.omittedBytes + bytes,
  };
}

/** Most characters of a message a shard result carries (the schema's bound, with room). */
const MESSAGE_CHARS = 4000;

/**
 * A shard's part results for its shard result file: each part's answer, or how its call ended
 * (every one a provider error when the read-only proof around the shard's calls failed: no
 * answer of a reviewer that wrote counts).
 */
function shardResults(results: readonly PartResult[], violation?: string): ShardPartResult[] {
  return results.map((r) => {
    const o = r.outcome;
    const status = violation ? "provider-error" : r.cached !== undefined ? "ok" : o!.status;
    const message = violation ?? o?.message;
    const answer = violation ? undefined : r.cached ?? o?.answer;
    return {
      part: r.index + 1,
      provider: r.provider.adapter.name,
      status: status === "not-reviewed" ? "provider-error" : status,
      cached: r.cached !== undefined,
      digest: r.digest,
      ...(answer !== undefined && status === "ok" ? { answer } : {}),
      ...(message ? { message: message.slice(0, MESSAGE_CHARS) } : {}),
      ...(o?.sessionId ? { sessionId: o.sessionId.slice(0, 256) } : {}),
      ...(o?.model ? { model: o.model.slice(0, 256) } : {}),
      ...(o?.usage ? { usage: o.usage } : {}),
      ...(o?.costUsd !== undefined ? { costUsd: o.costUsd } : {}),
      attempts: Math.min(o?.attempts.length ?? 0, 16),
    };
  });
}

function sumUsage(outcomes: CallOutcome<unknown>[]): CallOutcome["usage"] {
  const used = outcomes.flatMap((o) => (o.usage ? [o.usage] : []));
  if (used.length === 0) return undefined;
  const total: Record<string, number> = {};
  for (const usage of used) {
    for (const [k, v] of Object.entries(usage)) {
      if (typeof v === "number") total[k] = (total[k] ?? 0) + v;
    }
  }
  return total as CallOutcome["usage"];
}
