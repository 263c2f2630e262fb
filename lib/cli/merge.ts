/**
 * `review-gate merge FILE…|DIR`: the aggregator of a review split across a CI matrix (README
 * "Review across a CI matrix"). It reviews the pull or merge request as `ci` does — the same
 * request, the same plan from the base's rules — but asks no model: each part's answer comes from
 * the shard result files the `ci --shard i/n` jobs wrote, then the formats are written and the
 * exit follows `ci`'s policy. This file defines the command; lib/cli/merge_action.ts loads when it
 * runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand } from "./command.ts";
import { outputRequests } from "./outputs.ts";
import { CI_FLAGS } from "./ci.ts";
import type { MergeFlags } from "./merge_action.ts";

const BRIEF =
  "Merge the shard results of a review split across a CI matrix, write the formats, exit as ci";

/** What `merge --help` prints after the description. */
const MERGE_HELP = `
Give it the files "review-gate ci --shard i/n --shard-output FILE" wrote, or a folder holding them
(its *.json files, subfolders too: one per downloaded artifact), and the same review flags the
shards had (--provider, --model, --max-calls, --base, --untrusted). It finds and plans the request
itself, as ci does, and takes from each file only its parts' answers, each judged again by the
decoder: a file of another change or plan (foreign), a second result of one shard that is not
the same bytes (duplicate), a file that fails the schema or its digest (tampered), and a missing
or failed shard leave their parts NOT reviewed, named with the shard. Results of more than one
split of this change and plan (an older run's beside this one's) all count: no finding is dropped.
Files are untrusted: at most 8 MiB each, 64 MiB, 512 files and 8192 folder entries in all (more:
none is read, NOT reviewed); no link in a folder is followed into a folder or out of it. Asks no
model, so it needs no provider or secrets.

Exit codes: as ci's — 0 nothing blocks (or not reviewed with --on-error allow), 1 blocking
findings, 2 usage or config error, 3 not every part reviewed or could not run, 130 interrupted.`;

/** `merge`'s flags: `ci`'s but the model call's own (timeout, cache) and the shard's. */
const { timeout: _t, noCache: _c, shard: _s, shardOutput: _o, ...CI_REST } = CI_FLAGS;
const MERGE_FLAGS = {
  ...CI_REST,
  provider: { ...CI_REST.provider, brief: "the provider the shards asked (merge asks none)" },
  model: { ...CI_REST.model, brief: "the model the shards were given" },
} as const;

/** `merge`. */
export const mergeRoutes: CommandRoutes = {
  merge: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + MERGE_HELP },
    parameters: {
      flags: MERGE_FLAGS,
      aliases: { p: "provider", m: "model" },
      positional: {
        kind: "array",
        minimum: 1,
        parameter: {
          placeholder: "file-or-folder",
          brief: "shard result files, or folders holding them",
          parse: String,
        },
      },
    },
    async func(this: CliContext, flags: MergeFlags, ...paths: string[]) {
      const requests = outputRequests(flags, this.args, {
        format: this.deps.env.GITHUB_ACTIONS === "true" ? "github" : "terminal",
      });
      const { mergeShards } = await import("./merge_action.ts");
      this.setExit(await mergeShards(flags, paths, requests, this.deps));
    },
  }),
};
