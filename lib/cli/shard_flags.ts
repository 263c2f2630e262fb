/**
 * The flags of a review split across a CI matrix (README "Review across a CI matrix"), shared by
 * `review` and `ci`: `--shard i/n` (review only shard i's parts of the plan) with
 * `--shard-output FILE` (where its shard result goes, for `review-gate merge`), and `ci`'s
 * `--max-calls n` (how many parts the plan may have: every shard and the merge must be given the
 * same). Definitions only; lib/cli/shard_action.ts does the work.
 *
 * @module
 */
import { text } from "./command.ts";

/** `--shard` and `--shard-output`. */
export const SHARD_FLAGS = {
  shard: text(
    "i/n",
    "review only shard i of n of the plan's parts and write them with --shard-output (see merge)",
  ),
  shardOutput: text("file", "with --shard: where the shard's result file goes"),
} as const;

/** `--max-calls` (the plan's parts), for `ci` and `merge`. */
export const MAX_CALLS_FLAG = {
  maxCalls: text("n", "most model calls: a larger change is reviewed in up to n parts"),
} as const;

/** The parsed shard flags. */
export type ShardFlags = { shard?: string; shardOutput?: string };
