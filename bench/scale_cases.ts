/**
 * (e) Reviews at scale: generated uncommitted changes of about 1k, 10k, 100k and 1M changed lines
 * (many files), and one 100k-line file, each reviewed in parts with the instant fake provider. Per
 * size: `git diff` (the baseline), `review --plan-only` (collection and planning alone) and a whole
 * `review --no-cache` at the default `max_calls` (8). The 100k change is also reviewed with
 * `--max-calls 16`, enough to cover it completely. The notes give each review's coverage and
 * number of calls, from its `--json` envelope. Repositories are generated in each group's first
 * row's setup, under the bench's temp dir.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, BenchContext, CaseFactory } from "./case_types.ts";
import { type GeneratedRepo, generateRepo, git } from "./gen_repo.ts";
import type { Measurement } from "./measure.ts";

/** The sizes measured: wanted `git diff` lines and the file sizes that make them. */
const SIZES = [
  { name: "1k", lines: 1_000, min: 20, max: 300, runs: 5 },
  { name: "10k", lines: 10_000, min: 20, max: 600, runs: 3 },
  { name: "100k", lines: 100_000, min: 20, max: 1200, runs: 3 },
  { name: "1M", lines: 1_000_000, min: 50, max: 2000, runs: 1 },
];

/** Coverage and calls of a `review --json` run, for the notes. */
function describeReview(m: Measurement): string {
  const json = JSON.parse(m.outputs[0]);
  const c = json.coverage;
  const parts = c?.chunks ? `${c.chunks.reviewed}/${c.chunks.planned} parts` : "1 call";
  return `${json.status}, coverage ${c?.status}: ${c?.reviewedLines} of ${
    (c?.reviewedLines ?? 0) + (c?.omittedLines ?? 0)
  } changed lines in ${parts}`;
}

/** One size's rows: git diff, plan only, review at the default max_calls (and more calls). */
function sizeCases(
  ctx: BenchContext,
  label: string,
  make: (name: string) => Promise<GeneratedRepo>,
  runs: number,
  extraCalls?: number,
): BenchCase[] {
  const group = `(e) ${label}`;
  const holder: { repo?: GeneratedRepo } = {};
  const name = `scale-${label.replace(/\W+/g, "-").replace(/^-|-$/g, "")}`;
  const root = join(ctx.tmp, name);
  const review = (name: string, args: string[]): BenchCase => ({
    group,
    name,
    cmd: [...ctx.reviewGate, "review", "--no-cache", "--json", ...args],
    cwd: root,
    env: ctx.env,
    runs,
    describe: describeReview,
  });
  const rows: BenchCase[] = [
    {
      group,
      name: "git diff (baseline)",
      baseline: true,
      cmd: ["git", "--no-pager", "diff", "--no-color"],
      cwd: root,
      runs,
      setup: async () => {
        holder.repo = await make(name);
      },
      describe: () =>
        `${holder.repo!.diffLines} diff lines, ${
          (holder.repo!.diffBytes / 1048576).toFixed(1)
        } MiB`,
    },
    {
      group,
      name: "review --plan-only",
      cmd: [...ctx.reviewGate, "review", "--plan-only", "--json"],
      cwd: root,
      env: ctx.env,
      runs,
      describe: (m) => {
        const plan = JSON.parse(m.outputs[0]);
        return `${plan.calls} parts planned, coverage ${plan.coverage.status}`;
      },
    },
    review("review (max_calls 8, jobs 4)", []),
  ];
  if (extraCalls) {
    rows.push(review(`review --max-calls ${extraCalls}`, ["--max-calls", `${extraCalls}`]));
  }
  return rows;
}

/** A repository whose only change is one new file of `lines` lines (intent-to-add). */
async function oneHugeFile(parent: string, name: string, lines: number): Promise<GeneratedRepo> {
  const root = join(parent, name);
  await Deno.mkdir(root, { recursive: true });
  await git(root, ["init", "-q", "-b", "main"]);
  await Deno.writeTextFile(join(root, "README.md"), "bench\n");
  await git(root, ["add", "-A"]);
  await git(root, ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "base"]);
  const body = Array.from({ length: lines }, (_, i) => `export const value${i} = ${i} * 2 + 1;`);
  await Deno.writeTextFile(join(root, "huge.ts"), body.join("\n") + "\n");
  await git(root, ["add", "-N", "huge.ts"]);
  const diff = await git(root, ["--no-pager", "diff", "--no-color"]);
  let diffLines = 0;
  for (const byte of diff) if (byte === 10) diffLines++;
  return { root, diffLines, diffBytes: diff.length, modified: 0, added: 1, deleted: 0 };
}

/** (e): every size, many files, then one huge file. */
export const scaleCases: CaseFactory = (ctx) => [
  ...SIZES.flatMap((size) =>
    sizeCases(
      ctx,
      `~${size.name} changed lines, many files`,
      (name) =>
        generateRepo(ctx.tmp, name, {
          targetLines: size.lines,
          minFileLines: size.min,
          maxFileLines: size.max,
          seed: 7,
        }),
      size.runs,
      size.name === "100k" ? 16 : undefined,
    )
  ),
  ...sizeCases(
    ctx,
    "one 100k-line file",
    (name) => oneHugeFile(ctx.tmp, name, 100_000),
    3,
  ),
];
