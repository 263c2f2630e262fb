/**
 * (e) Reviews at scale: generated uncommitted changes of about 1k, 10k, 100k and 1M `git diff`
 * lines (many files), one 100k-line file, and the target's shape — about 1M changed lines
 * (added plus deleted) over 300 files, or with `BENCH_SCALE=100k` 100k changed lines over 30
 * files — each reviewed in parts with the instant fake provider. Per size: `git diff` (the
 * baseline), `review --plan-only` (collection and planning alone) and a whole `review --no-cache`
 * at the default `max_calls` (8). The 100k change is also reviewed with `--max-calls 16`, enough to
 * cover it completely. Every review-gate row is held to peak RSS ≤ 150 MB, and the target shape's
 * `--plan-only` to ≤ 1.5× its `git diff` (T3; bench/targets.ts). The notes give each review's
 * coverage and number of calls, from its `--json` envelope. Repositories are generated in each
 * group's first row's setup, under the bench's temp dir.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, BenchContext, CaseFactory } from "./case_types.ts";
import { type GeneratedRepo, generateRepo, git } from "./gen_repo.ts";
import type { Measurement } from "./measure.ts";

/** Most peak RSS of any review-gate row at any size, MiB (issue 26's target 3). */
export const SCALE_RSS_LIMIT_MB = 150;

/** The target shape's size: `BENCH_SCALE=100k` for a tenth of it (a quicker run). */
export function targetShape(value: string | undefined): { changed: number; files: number } {
  if (value === undefined || value === "" || value === "1M") {
    return { changed: 1_000_000, files: 300 };
  }
  if (value === "100k") return { changed: 100_000, files: 30 };
  throw new Error(`BENCH_SCALE must be 1M or 100k, not "${value}"`);
}

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
  planTarget?: boolean,
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
    rssLimitMb: SCALE_RSS_LIMIT_MB,
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
      describe: () => {
        const r = holder.repo!;
        const files = r.modified + r.added + r.deleted;
        return `${r.diffLines} diff lines, ${(r.diffBytes / 1048576).toFixed(1)} MiB` +
          (r.changedLines === undefined ? "" : `, ${r.changedLines} changed lines`) +
          (files > 0 ? ` over ${files} files` : "");
      },
    },
    {
      group,
      name: "review --plan-only",
      cmd: [...ctx.reviewGate, "review", "--plan-only", "--json"],
      cwd: root,
      env: ctx.env,
      runs,
      rssLimitMb: SCALE_RSS_LIMIT_MB,
      ...(planTarget ? { speedTarget: { id: "T3", floor: "git diff (baseline)", max: 1.5 } } : {}),
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
  return {
    root,
    diffLines,
    diffBytes: diff.length,
    modified: 0,
    added: 1,
    deleted: 0,
    changedLines: lines,
  };
}

/** (e): every size, many files, then one huge file, then the target's shape. */
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
  ...targetCases(ctx),
];

/** The target's shape: ~1M changed lines over 300 files (`BENCH_SCALE=100k`: 100k over 30). */
function targetCases(ctx: BenchContext): BenchCase[] {
  const shape = targetShape(Deno.env.get("BENCH_SCALE"));
  // 70 % modified (a fifth of their lines changed), 30 % added or deleted (all): per file about
  // 0.44 of its lines changed, so each file has about changed / files / 0.44 lines
  const mean = shape.changed / shape.files / 0.44;
  const label = `~${shape.changed >= 1e6 ? "1M" : "100k"} changed lines over ${shape.files} files`;
  return sizeCases(
    ctx,
    label,
    (name) =>
      generateRepo(ctx.tmp, name, {
        targetLines: shape.changed,
        count: "changed",
        minFileLines: Math.round(mean * 0.66),
        maxFileLines: Math.round(mean * 1.45),
        seed: 11,
      }),
    // three paired rounds even at 1M lines: T3 is judged on medians, and one run of a 2-3 s
    // command on a shared 2-core machine swings by half
    3,
    undefined,
    true,
  );
}
