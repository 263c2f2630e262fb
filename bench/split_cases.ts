/**
 * (j) A review split across a CI matrix (../README.md "Review across a CI matrix"), on one machine: a
 * ~100k-line change committed on a branch, reviewed as `ci --base main --max-calls 32` with a fake
 * Claude whose every answer takes `BENCH_SPLIT_ANSWER_MS` (default 2000 ms, a slow model's fixed
 * latency). Baseline: one process at the default `jobs` (4). Rows: four `ci --shard i/4` processes
 * side by side (each at `jobs` 4, as four runners would be), then `merge` of their files — the
 * whole wall time, merge included, all on this machine's cores; what one runner of a matrix does
 * (shard 1 of 4 alone) and what the aggregator does (the merge of the four files alone): a
 * matrix's wall time is its slowest shard plus the merge; and, for what it is on one machine, one
 * process with `jobs` raised to 16 in the user's config. Every row must end `approved` with complete coverage and the
 * same number of parts. The repository is generated in the baseline's setup, under the bench's
 * temp dir.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, CaseFactory } from "./case_types.ts";
import { generateRepo, git } from "./gen_repo.ts";
import type { Measurement } from "./measure.ts";

const ANSWER_MS = Deno.env.get("BENCH_SPLIT_ANSWER_MS") ?? "2000";
const SHARDS = 4;
const MAX_CALLS = "32";

/** Coverage and parts of the `--format json` envelope a row printed last. */
function describeJson(m: Measurement): string {
  const text = m.outputs[0].trim();
  const json = JSON.parse(text.slice(text.lastIndexOf("\n{") + 1));
  const c = json.coverage;
  return `${json.status}, coverage ${c?.status}: ${c?.reviewedLines} changed lines in ${
    c?.chunks?.reviewed ?? 1
  }/${c?.chunks?.planned ?? 1} parts`;
}

/** Fail unless the row's review approved the whole change. */
function verifyJson(m: Measurement): Promise<void> {
  const text = m.outputs[0].trim();
  const json = JSON.parse(text.slice(text.lastIndexOf("\n{") + 1));
  if (json.status !== "approved" || json.coverage?.status !== "complete") {
    throw new Error(`expected an approved, complete review: ${json.status}, ${json.message}`);
  }
  return Promise.resolve();
}

/** (j): one process, n shards side by side then merge, one process with more jobs. */
export const splitCases: CaseFactory = (ctx) => {
  const group = "(j) split review, ~100k-line change";
  const root = join(ctx.tmp, "split-100k");
  const env = { ...ctx.env, REVIEW_GATE_FAKE_DELAY_MS: ANSWER_MS };
  const ci = ["ci", "--base", "main", "--max-calls", MAX_CALLS];
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const rg = ctx.reviewGate.map(quote).join(" ");
  const shards = join(ctx.tmp, "split-shards");
  const jobs16 = join(ctx.tmp, "split-xdg-jobs16"); // a user config with "jobs": 16
  const shardNote = { text: "" };
  const script = [
    `rm -rf ${quote(shards)}`,
    `for i in ${Array.from({ length: SHARDS }, (_, i) => i + 1).join(" ")}; do`,
    `  ${rg} ${ci.join(" ")} --no-cache --shard "$i/${SHARDS}" --shard-output ${
      quote(shards)
    }/"$i".json 2>/dev/null &`,
    "done",
    "wait",
    `${rg} merge ${quote(shards)} --base main --max-calls ${MAX_CALLS} --format json 2>/dev/null`,
  ].join("\n");
  const row = (name: string, cmd: string[], extra: Partial<BenchCase> = {}): BenchCase => ({
    group,
    name,
    cmd,
    cwd: root,
    env,
    runs: 1,
    describe: describeJson,
    verify: verifyJson,
    ...extra,
  });
  return [
    row("one process, ci --max-calls 32 (jobs 4)", [
      ...ctx.reviewGate,
      ...ci,
      "--no-cache",
      "--format",
      "json",
    ], {
      baseline: true,
      setup: async () => {
        await generateRepo(ctx.tmp, "split-100k", {
          targetLines: 100_000,
          minFileLines: 20,
          maxFileLines: 1200,
          seed: 7,
        });
        await git(root, ["checkout", "-q", "-b", "feature"]);
        await git(root, ["add", "-A"]);
        await git(root, ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "the change"]);
      },
    }),
    row(`${SHARDS} shards side by side (jobs 4 each), then merge`, ["sh", "-c", script]),
    row("shard 1 of 4 alone (one runner's share)", [
      ...ctx.reviewGate,
      ...ci,
      "--no-cache",
      "--shard",
      `1/${SHARDS}`,
      "--shard-output",
      join(ctx.tmp, "split-one", "1.json"),
    ], {
      describe: () => shardNote.text,
      verify: async () => {
        const result = JSON.parse(await Deno.readTextFile(join(ctx.tmp, "split-one", "1.json")));
        const ok = result.results.filter((r: { status: string }) => r.status === "ok").length;
        if (ok !== result.plan.assigned.length) throw new Error(`shard 1: ${result.status}`);
        shardNote.text = `${ok} of ${result.plan.parts} parts`;
      },
    }),
    row(`merge of the ${SHARDS} results alone (the aggregator's share)`, [
      ...ctx.reviewGate,
      "merge",
      shards,
      "--base",
      "main",
      "--max-calls",
      MAX_CALLS,
      "--format",
      "json",
    ]),
    row("one process, jobs 16 (one machine's answer)", [
      ...ctx.reviewGate,
      ...ci,
      "--no-cache",
      "--format",
      "json",
    ], {
      env: { ...env, XDG_CONFIG_HOME: jobs16 },
      setup: async () => {
        await Deno.mkdir(join(jobs16, "review-gate"), { recursive: true });
        await Deno.writeTextFile(join(jobs16, "review-gate", "config.json"), '{ "jobs": 16 }\n');
      },
    }),
  ];
};
