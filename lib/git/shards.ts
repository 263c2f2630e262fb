/**
 * A review split across CI runners (README "Review across a CI matrix"): which of the review
 * plan's parts shard `i` of `n` reviews. Pure. The plan is computed from the change and the rules
 * alone (lib/git/plan.ts), so every runner has the same parts; they are dealt out by size, never by
 * file name, so each shard gets about the same number of bytes to review: largest part first, each
 * to the shard with the fewest bytes so far, ties to the lower part number and the lower shard
 * number — the same deal on every machine.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";

/** Most shards one review may be split into. */
export const MAX_SHARDS = 256;

/** One shard of a split review: `index` of `count`, both 1-based. */
export interface ShardSpec {
  index: number;
  count: number;
}

/**
 * Read `--shard i/n`.
 *
 * @param text e.g. `"2/4"`
 * @returns the shard
 * @throws {UsageError} unless `1 ≤ i ≤ n ≤` {@linkcode MAX_SHARDS}, both whole numbers
 * @example
 * ```ts
 * import { parseShardSpec } from "./shards.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(parseShardSpec("2/4"), { index: 2, count: 4 });
 * ```
 */
export function parseShardSpec(text: string): ShardSpec {
  const match = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || index < 1 || count < 1 || index > count || count > MAX_SHARDS) {
    throw new UsageError(
      `Invalid --shard "${text}": give i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. --shard 2/4 (the second of four shards)`,
    );
  }
  return { index, count };
}

/**
 * Deal the plan's parts out to `count` shards, balanced by bytes.
 *
 * @param bytes each part's diff bytes, in plan order (part 1 first)
 * @param count how many shards
 * @returns for each shard (index 0 = shard 1), its parts as 0-based plan indices, ascending; a
 *   shard may get none when there are fewer parts than shards
 * @example
 * ```ts
 * import { assignParts } from "./shards.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(assignParts([100, 300, 200, 50], 2), [[1, 3], [0, 2]]);
 * ```
 */
export function assignParts(bytes: readonly number[], count: number): number[][] {
  const shards = Array.from({ length: count }, () => ({ bytes: 0, parts: [] as number[] }));
  const order = bytes.map((_, i) => i).sort((a, b) => bytes[b] - bytes[a] || a - b);
  for (const part of order) {
    let least = 0;
    for (let s = 1; s < count; s++) if (shards[s].bytes < shards[least].bytes) least = s;
    shards[least].bytes += bytes[part];
    shards[least].parts.push(part);
  }
  return shards.map((s) => s.parts.sort((a, b) => a - b));
}

/**
 * Part numbers for people: `parts 1, 3 and 5 of 8`, `part 2 of 8`, `no part`.
 *
 * @param parts 1-based part numbers
 * @param total parts in the plan
 */
export function partsText(parts: readonly number[], total: number): string {
  if (parts.length === 0) return "no part";
  const list = parts.length === 1
    ? `${parts[0]}`
    : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `part${parts.length === 1 ? "" : "s"} ${list} of ${total}`;
}
