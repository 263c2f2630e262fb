/**
 * `review-gate merge`: the answers of a split review's parts, gathered from its shards' result
 * files (lib/review/shard_file.ts) — README "Review across a CI matrix". The files are untrusted
 * (another runner wrote them; for a fork's pull request, anyone could have): merge takes nothing
 * from them but per-part answers, and only for this review's own plan. It has collected the change
 * and planned it itself, from the trusted rules (lib/ci/run_ci.ts), so the plan, the coverage and
 * which parts exist are its own. How many shards `n` the review was split into is decided by the
 * files of this change and plan alone, so no junk outvotes a valid set. A file counts for shard
 * `i` of `n` only when it is a valid shard result of this change (its digest) and this plan (its
 * identity, lib/review/shard_identity.ts), holds exactly the parts this merge deals shard `i`
 * (lib/git/shards.ts) and is the only result of that shard (two copies of the same bytes are one);
 * each of its answers must be for the part's
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
import { sanitizeLine } from "../formats/sanitize.ts";
import type { Change } from "../git/types.ts";
import type { CallOutcome } from "../session/call.ts";
import type { PartResult, PartsProvider } from "./parts.ts";
import { chunkDigest, partView } from "./part_verdict.ts";
import type { LoadedShard, ShardPartResult, ShardResult } from "./shard_file.ts";
import { assignParts, partsText, type ShardSpec } from "../git/shards.ts";

/** What the merge is checked against: its own change and plan. */
export interface MergeInput {
  change: Change;
  /** The provider, or a council's providers, in order (the merge's config). */
  providers: Pick<PartsProvider, "adapter">[];
  /** This review's plan identity. */
  identity: string;
  files: readonly LoadedShard[];
  /** Why no file was read at all (lib/review/shard_file.ts `listShardFiles`). */
  refused?: string;
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
  /** sha256 of its text: two files of one shard count once only when they are the same bytes. */
  textHash: string;
  result: ShardResult;
}

/** A file set aside: the shard it says it is (when it says), and why it is not used. */
interface SetAside {
  file: string;
  claim?: ShardSpec;
  why: string;
}

/** One split of the review into shards: its deal of the parts, and each shard's file or why not. */
interface Split {
  count: number;
  /** Per shard (0-based), the parts (0-based) dealt to it. */
  owners: number[][];
  usable: Map<number, Usable>;
  /** Shard (1-based) → why none of its answers count. */
  why: Map<number, string>;
}

/** One part's result for one provider, and why it has no answer (when it has none). */
interface Gathered {
  result: PartResult;
  /** The shard at fault (0: none known) and why, when the part has no answer from it. */
  failed?: { shard: number; count?: number; why: string };
}

/**
 * Gather the parts' answers of the plan from the shard result files. When the files hold more than
 * one set of this change and plan (an older split into 4 beside the current one into 3), every set
 * counts: each part gets the answers of every set (the kind's merge deduplicates their findings,
 * so no set's finding is dropped), and a part fails only when no set answered it.
 *
 * @param input the change and its plan, the providers, the plan identity, the files read, and the
 *   decoder
 * @returns the results for {@linkcode combineParts}, notes and the problem in one sentence
 */
export async function partsFromShards(input: MergeInput): Promise<FromShards> {
  const { change } = input;
  const total = change.chunks.length;
  const notes: string[] = [];
  const aside: SetAside[] = [];
  const fits = fitting(input, notes, aside);
  const counts = shardCounts(fits, notes, aside);
  const placed = (a: SetAside) =>
    a.claim !== undefined && counts.includes(a.claim.count) && a.claim.index <= a.claim.count;
  const unplaced = setAsideText(aside.filter((a) => !placed(a)));
  const splits = counts.map((count) => splitOf(change, { count, fits, aside, unplaced }, notes));
  const none = input.refused ?? `${NONE_FITS}${unplaced}`;
  const gathered: Gathered[] = [];
  for (const split of splits.length > 0 ? splits : [undefined]) {
    gathered.push(...await gather(input, split, none));
  }
  const kept = answeredElsewhere(gathered, input.providers);
  for (const { count, usable } of splits) {
    for (const [shard, use] of usable) {
      notes.push(
        `shard ${shard} of ${count} (${use.file}): ${
          partsText(use.result.plan!.assigned, total)
        }, ${use.result.status}`,
      );
    }
  }
  if (splits.length > 1) {
    const complete = splits.filter((x) => x.usable.size === x.count).length;
    notes.push(
      `${splits.length} sets of shard results of this change and plan (split into ${
        counts.join(" and ")
      } shards, ${complete} complete): the answers of every one count, so no finding of any is dropped; a part is not reviewed only when none answered it`,
    );
  }
  const problem = problemText(kept, total);
  const fake = splits.some((s) => [...s.usable.values()].some((u) => u.result.fakeProvider));
  return { results: kept.map((g) => g.result), notes, ...(problem ? { problem } : {}), fake };
}

/** The shards of one split: each one's file that counts, or why none does. */
function splitOf(
  change: Change,
  at: { count: number; fits: Usable[]; aside: SetAside[]; unplaced: string },
  notes: string[],
): Split {
  const { count } = at;
  const owners = assignParts(change.chunks.map((c) => c.bytes), count);
  const why = new Map<number, string>();
  const usable = new Map<number, Usable>();
  for (let shard = 1; shard <= count; shard++) {
    const mine = at.fits.filter((f) =>
      f.result.shard.count === count && f.result.shard.index === shard
    );
    const parts = owners[shard - 1].map((i) => i + 1);
    const rejected = at.aside.filter((a) => a.claim?.count === count && a.claim.index === shard)
      .map((a) => `${a.file} was not used: ${a.why}`).join("; ");
    const label = `shard ${shard} of ${count}`;
    const chosen = chooseFile(mine, parts, { label, rejected, unplaced: at.unplaced }, notes);
    if (typeof chosen === "string") why.set(shard, chosen);
    else usable.set(shard, chosen);
  }
  return { count, owners, usable, why };
}

/**
 * The results to merge, in part order then provider order (a split's before the next's): a part's
 * failure from one split is dropped when another split answered that part for that provider.
 */
function answeredElsewhere(
  gathered: readonly Gathered[],
  providers: readonly Pick<PartsProvider, "adapter">[],
): Gathered[] {
  const key = (g: Gathered) => `${g.result.index} ${g.result.provider.adapter.name}`;
  const answered = new Set(gathered.filter((g) => !g.failed).map(key));
  const order = (g: Gathered) =>
    g.result.index * 8 + providers.findIndex((p) => p.adapter === g.result.provider.adapter);
  return gathered.filter((g) => !g.failed || !answered.has(key(g)))
    .map((g, at) => ({ g, at }))
    .sort((x, y) => order(x.g) - order(y.g) || x.at - y.at)
    .map(({ g }) => g);
}

/** The parts without an answer, by the shard at fault, in one line (empty when none). */
function problemText(kept: readonly Gathered[], total: number): string {
  const failed = new Map<string, { shard: number; count?: number; parts: number[]; why: string }>();
  for (const { result, failed: f } of kept) {
    if (!f) continue;
    const key = `${f.shard} ${f.count}`;
    const seen = failed.get(key) ?? { ...f, parts: [] };
    if (!seen.parts.includes(result.index + 1)) seen.parts.push(result.index + 1);
    failed.set(key, seen);
  }
  return sanitizeLine(
    [...failed.values()].map(({ shard, count, parts, why }) =>
      shard === 0
        ? `${partsText(parts, total)}: ${why}`
        : `shard ${shard} of ${count} (${partsText(parts, total)}): ${why}`
    ).join("; "),
  );
}

/** Each part's result per provider from its shard's file in one split (or none known). */
async function gather(
  input: MergeInput,
  split: Split | undefined,
  none: string,
): Promise<Gathered[]> {
  const { change } = input;
  const out: Gathered[] = [];
  for (let index = 0; index < change.chunks.length; index++) {
    const shard = split === undefined ? 0 : split.owners.findIndex((o) => o.includes(index)) + 1;
    const label = shard === 0 ? "" : `shard ${shard} of ${split!.count}`;
    const digest = await chunkDigest(change, index);
    for (const provider of input.providers) {
      const use = split?.usable.get(shard);
      const got = use
        ? await fromFile(input, use, { index, name: provider.adapter.name, digest })
        : { reason: shard === 0 ? none : split!.why.get(shard)! };
      const result: PartResult = {
        index,
        provider,
        digest,
        ...partResult(got, label),
        ...(label ? { shard: label } : {}),
      };
      const failed = "reason" in got
        ? { shard, ...(split ? { count: split.count } : {}), why: got.reason }
        : undefined;
      out.push({ result, ...(failed ? { failed } : {}) });
    }
  }
  return out;
}

/**
 * The files set aside that name no shard of this split, for a missing shard's reason: one of them
 * may be its file, edited or of another split (`; set aside: a.json (tampered), b.json (foreign)`).
 */
function setAsideText(aside: readonly SetAside[]): string {
  if (aside.length === 0) return "";
  const named = aside.slice(0, 5).map((a) => `${a.file} (${kindOf(a.why)})`);
  const more = aside.length > 5 ? ` and ${aside.length - 5} more` : "";
  return `; set aside, and may have been its file: ${named.join(", ")}${more}`;
}

/** The first words of why a file was set aside: `tampered`, `foreign`, `not JSON`… */
function kindOf(why: string): string {
  return why.split(/:| —| \(/, 1)[0];
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
  // a reason quotes the files (a message, a label, a file name): one line, wherever it is shown
  const named = (message: string) => sanitizeLine(label ? `${label}: ${message}` : message);
  if (!("reason" in got)) return { outcome: got.outcome };
  const outcome = got.outcome ?? { status: "not-reviewed" as const, attempts: [] };
  return { outcome: { ...outcome, message: named(got.reason) } };
}

/**
 * The files that are valid shard results of this change and plan (or say their shard planned no
 * review); the others noted and set aside with why.
 */
function fitting(input: MergeInput, notes: string[], aside: SetAside[]): Usable[] {
  const out: Usable[] = [];
  for (const loaded of input.files) {
    const { file, result } = loaded;
    if (!result) {
      notes.push(`${file}: ${loaded.problem}; not used`);
      aside.push({ file, ...(loaded.claim ? { claim: loaded.claim } : {}), why: loaded.problem! });
      continue;
    }
    const claim = `shard ${result.shard.index} of ${result.shard.count}`;
    const foreign = (why: string) => {
      notes.push(`${file} (${claim}): foreign — ${why}; not used`);
      aside.push({ file, claim: result.shard, why: `foreign — ${why}` });
    };
    if (!result.plan || !result.change) {
      notes.push(
        `${file} (${claim}): that shard planned no review (${result.status}${
          result.message ? `: ${result.message}` : ""
        })`,
      );
      out.push({ file, textHash: loaded.textHash!, result });
    } else if (result.change.digest !== input.change.fingerprint) {
      foreign(
        `a review of another change: ${changeText(result.change)}, where this merge reviews ${
          changeText({ ...input.change, digest: input.change.fingerprint })
        }`,
      );
    } else if (result.plan.identity !== input.identity) {
      foreign(
        "this change planned otherwise (other budgets, max_calls, rules, providers, model or review flags than this merge's: give merge the shards' flags)",
      );
    } else {
      out.push({ file, textHash: loaded.textHash!, result });
    }
  }
  return out;
}

/** A change as a foreign file's note names it: `main...HEAD, 1a2b3c4d5e6f..7a8b9c0d1e2f, digest 0f1e2d3c4b5a`. */
function changeText(change: { label: string; from: string; to: string; digest: string }): string {
  const short = (id: string) => /^[0-9a-f]{40,64}$/.test(id) ? id.slice(0, 12) : id;
  return `${change.label}, ${short(change.from)}..${short(change.to)}, digest ${
    change.digest.slice(0, 12)
  }`;
}

/**
 * How many shards the review was split into, decided by the files of this plan alone (a file that
 * planned no review, or of another change or plan, has no say): every split some shard of which
 * gave such a file, in shard-count order — an older split beside the current one counts too, so
 * no valid answer of this plan is dropped. Only when no file planned a review do those that did
 * not decide: the split most of whose shards gave one, then the fewer shards (every part then
 * fails anyway). The files of another split are noted and set aside as foreign. Empty when no file
 * fits.
 */
function shardCounts(fits: Usable[], notes: string[], aside: SetAside[]): number[] {
  const planned = fits.filter((f) => f.result.plan);
  let counts: number[];
  if (planned.length > 0) {
    counts = [...new Set(planned.map((f) => f.result.shard.count))].sort((a, b) => a - b);
  } else {
    const present = new Map<number, Set<number>>(); // count → the shards of it that gave a file
    for (const { result: { shard } } of fits) {
      present.set(shard.count, (present.get(shard.count) ?? new Set()).add(shard.index));
    }
    const ranked = [...present].sort(([a, x], [b, y]) => y.size - x.size || a - b);
    counts = ranked.slice(0, 1).map(([count]) => count);
  }
  const into = counts.join(" and ");
  for (const f of fits) {
    if (counts.includes(f.result.shard.count)) continue;
    const why =
      `of a split into ${f.result.shard.count} shards, where this review's results split it into ${into}`;
    notes.push(
      `${f.file} (shard ${f.result.shard.index} of ${f.result.shard.count}): foreign — ${why}; not used`,
    );
    aside.push({ file: f.file, claim: f.result.shard, why: `foreign — ${why}` });
  }
  return counts;
}

/**
 * The one file of a shard that counts, or why none does: missing (with the files set aside that
 * may have been its own), planned no review, duplicated (results of other bytes for one shard), or
 * not holding exactly the shard's parts. A file saying its shard planned no review does not stand
 * against one holding this plan's result of the shard: it is set aside, noted.
 */
function chooseFile(
  mine: Usable[],
  parts: number[],
  at: { label: string; rejected: string; unplaced: string },
  notes: string[],
): Usable | string {
  const { label } = at;
  if (mine.length === 0) {
    if (parts.length === 0) notes.push(`${label}: no result, and no part of the plan is its`);
    return at.rejected || `no result found (missing)${at.unplaced}`;
  }
  const planned = mine.filter((f) => f.result.plan);
  const candidates = planned.length > 0 ? planned : mine;
  for (const f of mine.filter((f) => !candidates.includes(f))) {
    notes.push(
      `${f.file} (${label}): set aside — it planned no review, and ${
        planned.map((p) => p.file).join(", ")
      } hold${planned.length === 1 ? "s" : ""} this plan's result of the shard`,
    );
  }
  if (new Set(candidates.map((f) => f.textHash)).size > 1) {
    return `duplicated — ${candidates.length} different results (${
      candidates.map((f) => f.file).join(", ")
    }); none counts`;
  }
  if (candidates.length > 1) {
    notes.push(
      `${label}: the same result given ${candidates.length} times (${
        candidates.map((f) => f.file).join(", ")
      })`,
    );
  }
  const [one] = candidates;
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
