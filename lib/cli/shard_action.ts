/**
 * The work behind `--shard i/n --shard-output FILE` of `review` and `ci` (lib/cli/shard_flags.ts):
 * check the flags, and once the shard's review ended write its shard result file
 * (schemas/shard.schema.json) and say what it reviewed. A shard never gates on its own: it exits 0
 * once its file is written — whatever its parts found, or whether they could run — 130 when it was
 * interrupted, and 3 when the file could not be written (`review-gate merge` then names the shard
 * as missing). README "Review across a CI matrix".
 *
 * @module
 */
import { ExitCode, UsageError } from "../base/errors.ts";
import { sanitizeLine } from "../formats/sanitize.ts";
import { shardResultText } from "../review/shard_file.ts";
import { shardResultOf } from "../review/shard_out.ts";
import { parseShardSpec, partsText, type ShardSpec } from "../git/shards.ts";
import type { ReviewOutcome } from "../review/types.ts";
import type { CliDeps } from "./deps.ts";
import type { OutputFlags } from "./outputs.ts";
import type { ShardFlags } from "./shard_flags.ts";
import { writeOutputText } from "./write_outputs.ts";

/**
 * The shard a command is asked to review, when it is.
 *
 * @param flags the shard flags and the output flags
 * @param at whether the command prints a plan only (`--plan-only`: no `--shard-output` then), and
 *   the other flags it may not be combined with
 * @returns the shard, or `undefined` without `--shard`
 * @throws {UsageError} a malformed `--shard`; `--shard` without `--shard-output` or with a
 *   format; `--shard-output` without `--shard`
 */
export function shardOf(
  flags: ShardFlags & OutputFlags & { json?: boolean },
  at: { planOnly?: boolean; refused?: Record<string, boolean> } = {},
): ShardSpec | undefined {
  if (flags.shard === undefined) {
    if (flags.shardOutput !== undefined) {
      throw new UsageError("--shard-output is where a shard's result goes: give --shard i/n too");
    }
    return undefined;
  }
  const spec = parseShardSpec(flags.shard);
  if (at.planOnly) {
    if (flags.shardOutput !== undefined) {
      throw new UsageError(
        "--plan-only --shard prints what each shard will do: drop --shard-output",
      );
    }
    return spec;
  }
  if (flags.shardOutput === undefined) {
    throw new UsageError(
      `--shard ${flags.shard} reviews part of the plan: give --shard-output FILE for its result (review-gate merge reads every shard's)`,
    );
  }
  if (flags.format?.length || flags.output?.length || flags.json) {
    throw new UsageError(
      "A shard writes its result (--shard-output), not a review: the formats come from review-gate merge",
    );
  }
  for (const [flag, given] of Object.entries(at.refused ?? {})) {
    if (given) throw new UsageError(`--shard cannot be combined with ${flag}`);
  }
  return spec;
}

/**
 * Write a shard's result file and say on stderr what the shard reviewed.
 *
 * @param outcome the shard's review
 * @param at the shard, where its file goes (`--shard-output`, relative to `deps.cwd`), the
 *   providers asked and review-gate's version
 * @returns the exit code: 0 written, 130 interrupted (written too), 3 when it could not be written
 */
export async function writeShardResult(
  outcome: ReviewOutcome<unknown>,
  at: { shard: ShardSpec; output: string; providers: string[]; version: string },
  deps: CliDeps,
): Promise<number> {
  const { shard } = at;
  const result = shardResultOf(outcome, at);
  const failure = await writeOutputText(
    { format: "json", output: at.output },
    await shardResultText(result),
    deps,
  );
  const label = `review-gate: shard ${shard.index} of ${shard.count}`;
  const { record } = outcome;
  const parts = result.plan ? partsText(result.plan.assigned, result.plan.parts) : "no plan";
  const answered = result.results.filter((r) => r.status === "ok").length;
  const ended = `${record.status}${record.message ? `: ${record.message}` : ""}`;
  deps.stderr.write(
    `${label} of ${
      sanitizeLine(record.target.label)
    }: ${parts}; ${answered} of ${result.results.length} answered (${sanitizeLine(ended)})\n`,
  );
  if (failure) {
    deps.stderr.write(
      `${label}: ${sanitizeLine(failure)}: review-gate merge will name this shard missing\n`,
    );
    return ExitCode.couldNotRun;
  }
  deps.stderr.write(
    `${label}: wrote ${
      sanitizeLine(at.output)
    }. A shard does not gate: review-gate merge of every shard's result decides\n`,
  );
  return record.status === "interrupted" ? ExitCode.interrupted : ExitCode.ok;
}
