/**
 * End to end: what a hostile tester of `ci --shard i/n` and `merge` found (issue 24), each as the
 * user meets it — a merge of the fake's shards marked as the fake's, junk files that must not
 * outvote a valid set, too many files, an edited status or shard number, a FIFO in the folder, and
 * every format saying "partially reviewed" or "NOT reviewed" when the merge is.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { providerMetas } from "../../lib/providers/registry.ts";
import { runCli } from "../e2e/_cli.ts";
import type { CiSandbox } from "./_ci.ts";
import { FIRST_LINE, merge, shards, withShards } from "./_shard.ts";

/** The aggregator job's environment: no provider program configured (merge asks none). */
function noProviders(env: Record<string, string>): Record<string, string | undefined> {
  return {
    ...env,
    ...Object.fromEntries(providerMetas().map((meta) => [meta.binEnv, undefined])),
  };
}

/** The last line of the ledger (`records.jsonl`) of the request's workspace. */
async function lastRecord(sb: CiSandbox): Promise<Record<string, unknown>> {
  const text = await Deno.readTextFile(join(sb.workspace, ".git/review-gate/records.jsonl"));
  return JSON.parse(text.trim().split("\n").at(-1)!);
}

Deno.test("merge of shards the bundled fake answered is marked as the fake's, its cost as an unsharded run's", async () => {
  await withShards(async (sb, env) => {
    const whole = await runCli(sb, ["ci", "--no-cache"], {
      cwd: sb.workspace,
      scenario: FIRST_LINE,
      env,
    });
    assert.equal(whole.code, 1, whole.stderr);
    const one = await lastRecord(sb);
    assert.equal(one.fake, true, "an unsharded run of the fake is marked so");
    assert.equal(typeof one.costUsd, "number");

    const dir = join(sb.dir, "shards");
    await shards(sb, env, dir, 3, { args: ["--no-cache"] });
    const file = JSON.parse(await Deno.readTextFile(join(dir, "shard-1.json")));
    assert.equal(file.fakeProvider, true, "a shard of the fake says so in its file");
    // the aggregator job has no provider configured: the mark comes from the shards
    const merged = await merge(sb, noProviders(env), [dir]);
    assert.equal(merged.code, 1, merged.stderr);
    const all = await lastRecord(sb);
    assert.equal(all.gate, "ci-merge");
    assert.equal(all.fake, true, "the merged run is the fake's too");
    assert.equal(all.costUsd, one.costUsd, "the same cost, counted the same way");
    const runJson = JSON.parse(
      await Deno.readTextFile(
        join(sb.workspace, ".git/review-gate/runs", String(all.id), "run.json"),
      ),
    );
    assert.equal(runJson.fakeProvider, true);
    const stats = await runCli(sb, ["stats", "--by", "gate", "--json"], { cwd: sb.workspace, env });
    const gates = JSON.parse(stats.stdout).groups as {
      key: string;
      totals: { fakeRuns: number; costReported: number };
    }[];
    const ciMerge = gates.find((g) => g.key === "ci-merge")!;
    assert.deepEqual([ciMerge.totals.fakeRuns, ciMerge.totals.costReported], [1, 0]);
  });
});
