/**
 * The work of `review-gate merge` (lib/cli/merge.ts defines the command and loads this when it
 * runs): read the shard result files (bounded, each checked against schemas/shard.schema.json),
 * review the request as `ci` does with the parts' answers from those files (lib/ci/run_ci.ts
 * `shardResults`, lib/review/shard_merge.ts), say on stderr what each file and shard counted for,
 * then write the formats and exit by `ci`'s policy (lib/cli/ci_action.ts). README "Review across a
 * CI matrix".
 *
 * @module
 */
import { sanitizeLine } from "../formats/sanitize.ts";
import { runCi } from "../ci/run_ci.ts";
import { listShardFiles, readShardFiles } from "../review/shard_file.ts";
import { ciFlagLayer, type CiFlags, writeCiOutputs } from "./ci_action.ts";
import type { CliDeps } from "./deps.ts";
import type { OutputRequest } from "./outputs.ts";

/** `merge`'s parsed flags: `ci`'s but its model call's and its shard's. */
export type MergeFlags = Omit<CiFlags, "timeout" | "noCache" | "shard" | "shardOutput">;

/**
 * Run `merge`.
 *
 * @param paths shard result files or folders holding them, as given
 * @returns the exit code, as `ci`'s
 * @throws {import("../base/errors.ts").UsageError} what `ci` throws (no request found and no
 *   `--base`, an unknown base); too many files is no error: every format says NOT reviewed and why
 */
export async function mergeShards(
  flags: MergeFlags,
  paths: readonly string[],
  requests: OutputRequest[],
  deps: CliDeps,
): Promise<number> {
  const listed = await listShardFiles(paths, deps.cwd);
  const loaded = await readShardFiles(listed.files);
  const ci = await runCi(
    {
      cwd: deps.cwd,
      flags: ciFlagLayer(flags),
      base: flags.base,
      untrusted: flags.untrusted,
      onError: flags.onError,
      onPartial: flags.onPartial,
      useCache: false,
      shardResults: { files: loaded, ...(listed.refused ? { refused: listed.refused } : {}) },
    },
    { runner: deps.runner, env: deps.env, now: deps.now, signal: deps.signal },
  );
  // every note is one line: a shard file's text must never start a line (a workflow command)
  const say = (line: string) => deps.stderr.write(`review-gate merge: ${sanitizeLine(line)}\n`);
  for (const note of ci.notes) say(note);
  say(`${loaded.length} shard result file${loaded.length === 1 ? "" : "s"} read`);
  for (const note of [...listed.notes, ...ci.outcome.sharded?.notes ?? []]) say(note);
  return await writeCiOutputs(ci, { flags, requests, deps });
}
