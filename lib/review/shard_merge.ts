/**
 * `review-gate merge`: the answers of a split review's parts, gathered from its shards' result
 * files (lib/review/shard_file.ts) — README "Review across a CI matrix". The files are untrusted
 * (another runner wrote them; for a fork's pull request, anyone could have): merge takes nothing
 * from them but per-part answers, and only for this review's own plan. It has collected the change
 * and planned it itself, from the trusted rules (lib/ci/run_ci.ts), so the plan, the coverage and
 * which parts exist are its own. A file counts for shard `i` of `n` only when it is a valid shard
 * result of this change (its digest) and this plan (its identity, lib/review/shard_identity.ts),
 * holds exactly the parts this merge deals shard `i` (lib/git/shards.ts) and is the only result
 * of that shard (two copies of the same bytes are one); each of its answers must be for the part's
 * exact diff (the part's digest) and is judged again by the decoder against that part's files, as
 * a provider's answer is. Every part without such an answer is a failed part, named with its shard
 * and why — missing, foreign, duplicated, tampered, or a shard whose own call failed — and the
 * review pipeline judges the rest as it judges any review in parts (lib/review/parts.ts
 * `combineParts`): never "approved" over a part no model saw.
 *
 * @module
 */
import type { DecoderKind } from "../answer/types.ts";
import { formatRefusal } from "../answer/refusal.ts";
import type { Change } from "../git/types.ts";
import type { CallOutcome } from "../session/call.ts";
import type { PartResult, PartsProvider } from "./parts.ts";
import { chunkDigest, partView } from "./part_verdict.ts";
import type { LoadedShard, ShardPartResult, ShardResult } from "./shard_file.ts";
import { assignParts, partsText } from "../git/shards.ts";

/** What the merge is checked against: its own change and plan. */
export interface MergeInput {
  change: Change;
  /** The provider, or a council's providers, in order (the merge's config). */
  providers: Pick<PartsProvider, "adapter">[];
  /** This review's plan identity. */
  identity: string;
  files: readonly LoadedShard[];
  /** The kind's decoder for this change (each answer is judged against its part's files). */
  decoder: DecoderKind<unknown>;
}

/** The parts' results gathered from the files, and what was found. */
export interface FromShards {
  /** One result per part and provider, in part order then provider order. */
  results: PartResult[];
  /** One line per file and per shard: what it counted for, or why not. */
  notes: string[];
  /** When some part has no answer: every shard at fault, its parts, and why (one sentence). */
  problem?: string;
  /**
   * True when a shard whose file counted says the bundled fake answered it: the merged run is then
   * marked as the fake's (its cost made up), as an unsharded run of the fake is.
   */
  fake: boolean;
}

/** A shard's file that may count, checked against the plan. */
interface Usable {
  file: string;
  result: ShardResult;
}

/**
 * Gather the parts' answers of the plan from the shard result files.
 *
 * @param input the change and its plan, the providers, the plan identity, the files read, and the
 *   decoder
 * @returns the results for {@linkcode combineParts}, notes and the problem in one sentence
 */
export async function partsFromShards(input: MergeInput): Promise<FromShards> {
  const { change } = input;
  const total = change.chunks.length;
  const notes: string[] = [];
  const rejected = new Map<string, string>(); // "i/n" → why the file that says it is that shard was not used
  const fits = fitting(input, notes, rejected);
  const count = shardCount(fits, notes);
  const owners = count === undefined ? [] : assignParts(change.chunks.map((c) => c.bytes), count);
  const why = new Map<number, string>(); // shard (1-based) → why none of its answers count
  const usable = new Map<number, Usable>();
  for (let shard = 1; shard <= (count ?? 0); shard++) {
    const mine = fits.filter((f) =>
      f.result.shard.count === count && f.result.shard.index === shard
    );
    const parts = owners[shard - 1].map((i) => i + 1);
    const label = `shard ${shard} of ${count}`;
    const chosen = chooseFile(
      mine,
      parts,
      { label, rejected: rejected.get(`${shard}/${count}`) },
      notes,
    );
    if (typeof chosen === "string") why.set(shard, chosen);
    else usable.set(shard, chosen);
  }
  const results: PartResult[] = [];
  const failed = new Map<number, { parts: number[]; why: string }>(); // by shard (0: none)
  for (let index = 0; index < total; index++) {
    const shard = count === undefined ? 0 : owners.findIndex((o) => o.includes(index)) + 1;
    const label = shard === 0 ? "" : `shard ${shard} of ${count}`;
    const digest = await chunkDigest(change, index);
    for (const provider of input.providers) {
      const use = usable.get(shard);
      const got = use
        ? await fromFile(input, use, { index, name: provider.adapter.name, digest })
        : { reason: shard === 0 ? NONE_FITS : why.get(shard)! };
      if ("reason" in got) {
        const at = failed.get(shard) ?? { parts: [], why: got.reason };
        if (!at.parts.includes(index + 1)) at.parts.push(index + 1);
        failed.set(shard, at);
      }
      results.push({
        index,
        provider,
        digest,
        ...partResult(got, label),
        ...(label ? { shard: label } : {}),
      });
    }
  }
  for (const [shard, use] of usable) {
    notes.push(
      `shard ${shard} of ${count} (${use.file}): ${
        partsText(use.result.plan!.assigned, total)
      }, ${use.result.status}`,
    );
  }
  const problem = [...failed].map(([shard, { parts, why }]) =>
    shard === 0
      ? `${partsText(parts, total)}: ${why}`
      : `shard ${shard} of ${count} (${partsText(parts, total)}): ${why}`
  ).join("; ");
  const fake = [...usable.values()].some((use) => use.result.fakeProvider === true);
  return { results, notes, ...(problem ? { problem } : {}), fake };
}

/** Why a part has no answer when no file fits at all. */
const NONE_FITS = "no shard result belongs to this review";

/** A part's answer, its shard's own failure, or why it has none (`reason`). */
type Got =
  | { cached: unknown }
  | { outcome: CallOutcome<unknown> }
  | { reason: string; outcome?: CallOutcome<unknown> };

/** The {@linkcode PartResult} fields of what a part got: a failure is named with its shard. */
function partResult(got: Got, label: string): Pick<PartResult, "cached" | "outcome"> {
  if ("cached" in got) return { cached: got.cached };
  const named = (message: string) => label ? `${label}: ${message}` : message;
  if (!("reason" in got)) return { outcome: got.outcome };
  const outcome = got.outcome ?? { status: "not-reviewed" as const, attempts: [] };
  return { outcome: { ...outcome, message: named(got.reason) } };
}

/**
 * The files that are valid shard results of this change and plan; the others noted, and those that
 * say which shard they are kept in `rejected` with why.
 */
function fitting(input: MergeInput, notes: string[], rejected: Map<string, string>): Usable[] {
  const out: Usable[] = [];
  const reject = (loaded: LoadedShard, spec: { index: number; count: number }, why: string) => {
    const key = `${spec.index}/${spec.count}`;
    const earlier = rejected.get(key);
    rejected.set(key, `${earlier ? `${earlier}; ` : ""}${loaded.file} was not used: ${why}`);
  };
  for (const loaded of input.files) {
    const { file, result } = loaded;
    if (!result) {
      notes.push(`${file}: ${loaded.problem}; not used`);
      if (loaded.claim) reject(loaded, loaded.claim, loaded.problem!);
      continue;
    }
    const claim = `shard ${result.shard.index} of ${result.shard.count}`;
    const foreign = (why: string) => {
      notes.push(`${file} (${claim}): foreign — ${why}; not used`);
      reject(loaded, result.shard, `foreign — ${why}`);
    };
    if (!result.plan || !result.change) {
      notes.push(
        `${file} (${claim}): that shard planned no review (${result.status}${
          result.message ? `: ${result.message}` : ""
        })`,
      );
      out.push({ file, result });
    } else if (result.change.digest !== input.change.fingerprint) {
      foreign(`a review of another change (${result.change.label})`);
    } else if (result.plan.identity !== input.identity) {
      foreign(
        "this change planned otherwise (other budgets, max_calls, rules, providers, model or review flags than this merge's: give merge the shards' flags)",
      );
    } else if (result.shard.index > result.shard.count) {
      notes.push(`${file}: tampered — it says it is ${claim}; not used`);
    } else {
      out.push({ file, result });
    }
  }
  return out;
}

/**
 * How many shards the review was split into: the count most fitting files give (the smaller on a
 * tie); files of another count are noted as foreign. `undefined` when no file fits.
 */
function shardCount(fits: Usable[], notes: string[]): number | undefined {
  const counts = new Map<number, number>();
  for (const f of fits) {
    counts.set(f.result.shard.count, (counts.get(f.result.shard.count) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  for (const f of fits) {
    if (f.result.shard.count !== best) {
      notes.push(
        `${f.file} (shard ${f.result.shard.index} of ${f.result.shard.count}): foreign — the other results split the review into ${best} shards; not used`,
      );
    }
  }
  return best;
}

/**
 * The one file of a shard that counts, or why none does: missing, planned no review, duplicated
 * (different results for one shard), or not holding exactly the shard's parts.
 */
function chooseFile(
  mine: Usable[],
  parts: number[],
  at: { label: string; rejected?: string },
  notes: string[],
): Usable | string {
  const { label } = at;
  if (mine.length === 0) {
    if (parts.length === 0) notes.push(`${label}: no result, and no part of the plan is its`);
    return at.rejected ?? "no result found (missing)";
  }
  const same = new Set(mine.map((f) => JSON.stringify(f.result))).size === 1;
  if (!same) {
    return `duplicated — ${mine.length} different results (${
      mine.map((f) => f.file).join(", ")
    }); none counts`;
  }
  if (mine.length > 1) {
    notes.push(
      `${label}: the same result given ${mine.length} times (${
        mine.map((f) => f.file).join(", ")
      })`,
    );
  }
  const [one] = mine;
  if (!one.result.plan) {
    return `that shard planned no review (${one.result.status}${
      one.result.message ? `: ${one.result.message}` : ""
    })`;
  }
  const claimed = one.result.plan.assigned;
  if (claimed.length !== parts.length || claimed.some((p, i) => p !== parts[i])) {
    return `tampered — ${one.file} holds ${
      partsText(claimed, one.result.plan.parts)
    }, not the shard's ${partsText(parts, one.result.plan.parts)}`;
  }
  return one;
}

/** What one part of a usable file gives for one provider: an answer, or why not. */
async function fromFile(
  input: MergeInput,
  use: Usable,
  at: { index: number; name: string; digest: string },
): Promise<Got> {
  const part = at.index + 1;
  const entries = use.result.results.filter((r) => r.part === part && r.provider === at.name);
  const of = `part ${part}${input.providers.length > 1 ? ` (${at.name})` : ""}`;
  if (entries.length !== 1) {
    const says = use.result.message ? ` (${use.result.status}: ${use.result.message})` : "";
    return {
      reason: entries.length === 0
        ? `no result for ${of}${says}`
        : `tampered — ${entries.length} results for ${of}`,
    };
  }
  const [entry] = entries;
  if (entry.digest !== at.digest) {
    return { reason: `tampered — its ${of} is not this plan's diff (its digest)` };
  }
  if (entry.status !== "ok") {
    // a shard's interrupted call is a part not reviewed, not an interrupted merge (exit 130)
    const status = entry.status === "interrupted" ? "not-reviewed" : entry.status;
    return {
      reason: `${of}: ${entry.message ?? entry.status}`,
      outcome: { ...usageOf(entry), status, attempts: [] },
    };
  }
  const { decode } = await import("../answer/decoder.ts");
  const view = partView(input.change, at.index);
  const decided = await decode(input.decoder, { value: entry.answer }, view);
  if (!decided.ok) {
    const lines = formatRefusal(decided.refusal.slice(0, 3)).replaceAll("\n", "; ");
    return { reason: `tampered — the decoder refuses its answer for ${of}: ${lines}` };
  }
  if (entry.cached) return { cached: decided.answer };
  return { outcome: { ...usageOf(entry), status: "ok", answer: decided.answer, attempts: [] } };
}

/** The usage, cost, session and model a shard reported for a part. */
function usageOf(entry: ShardPartResult): Omit<CallOutcome<unknown>, "status" | "attempts"> {
  return {
    ...(entry.usage ? { usage: entry.usage } : {}),
    ...(entry.costUsd !== undefined ? { costUsd: entry.costUsd } : {}),
    ...(entry.sessionId ? { sessionId: entry.sessionId } : {}),
    ...(entry.model ? { model: entry.model } : {}),
  };
}
