/**
 * What one shard of a split review writes (`--shard-output`, schemas/shard.schema.json): its
 * parts' results from its review's outcome, with the plan's identity, the change's digest and how
 * its own review ended. Pure. README "Review across a CI matrix".
 *
 * @module
 */
import type { Usage } from "../providers/provider.ts";
import type { ShardPartResult, ShardResult } from "./shard_file.ts";
import { assignParts, type ShardSpec } from "../git/shards.ts";
import type { ReviewOutcome } from "./types.ts";

/**
 * The shard result of a shard's review.
 *
 * @param outcome the shard's review (`runReview` with `shard`)
 * @param at which shard it was, the providers asked, and review-gate's version
 * @returns the file's content without its digest (lib/review/shard_file.ts `shardResultText`)
 */
export function shardResultOf(
  outcome: ReviewOutcome<unknown>,
  at: { shard: ShardSpec; providers: string[]; version: string },
): Omit<ShardResult, "digest"> {
  const { record, change, sharded } = outcome;
  const results = sharded?.results ?? [];
  const planned = change && sharded?.identity !== undefined;
  const assigned = change
    ? assignParts(change.chunks.map((c) => c.bytes), at.shard.count)[at.shard.index - 1]
    : [];
  const mine = new Set(results.filter((r) => r.status === "ok").map((r) => r.part));
  const chunks = change?.chunks ?? [];
  const cost = results.filter((r) => r.costUsd !== undefined);
  const usage = sumUsage(results);
  return {
    version: 1,
    kind: "review-gate-shard-result",
    reviewGate: at.version,
    shard: at.shard,
    ...(planned
      ? {
        plan: {
          identity: sharded.identity!,
          id: change.planId,
          parts: chunks.length,
          assigned: assigned.map((i) => i + 1),
        },
        change: {
          digest: change.fingerprint,
          label: change.label.slice(0, 4096),
          from: change.from,
          to: change.to,
        },
      }
      : {}),
    ...(record.fakeProvider ? { fakeProvider: true as const } : {}),
    providers: at.providers,
    status: record.status,
    ...(record.message ? { message: record.message.slice(0, 4000) } : {}),
    runId: record.id,
    coverage: {
      parts: mine.size,
      reviewedLines: [...mine].reduce((n, p) => n + chunks[p - 1].lines, 0),
      reviewedBytes: [...mine].reduce((n, p) => n + chunks[p - 1].covered, 0),
    },
    ...(usage ? { usage } : {}),
    ...(cost.length > 0 ? { costUsd: cost.reduce((n, r) => n + r.costUsd!, 0) } : {}),
    results,
  };
}

function sumUsage(results: readonly ShardPartResult[]): Usage | undefined {
  const used = results.flatMap((r) => r.usage ? [r.usage] : []);
  if (used.length === 0) return undefined;
  const total: Record<string, number> = {};
  for (const usage of used) {
    for (const [k, v] of Object.entries(usage)) {
      if (typeof v === "number") total[k] = (total[k] ?? 0) + v;
    }
  }
  return total as Usage;
}
