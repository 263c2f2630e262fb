/**
 * (i) `review-gate eval`'s own overhead per case (docs/eval.md "How a case runs"): an eval of the
 * shipped suite's nine `ts/` cases with the instant fake Claude, against one `review --no-cache
 * --range` of one such case's repository built by hand (the same review an eval run makes). The
 * note gives, from the eval's own record, its time beyond the reviews it ran — building each case's
 * repository, loading its config, scoring — per case, and the eval's wall time per case beside the
 * single review's.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, CaseFactory } from "./case_types.ts";
import { git } from "./gen_repo.ts";

/** The cases the eval row reviews. */
const CASES = "ts/*";

/** Copy the files of `from` into `to`. */
async function copyInto(from: string, to: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) {
      await Deno.mkdir(join(to, entry.name), { recursive: true });
      await copyInto(join(from, entry.name), join(to, entry.name));
    } else await Deno.writeFile(join(to, entry.name), await Deno.readFile(join(from, entry.name)));
  }
}

/** One case's repository, as eval builds it: the base committed, then the change. */
async function caseRepo(projectRoot: string, root: string): Promise<void> {
  const dir = join(projectRoot, "eval-suite", "ts", "off-by-one");
  await Deno.mkdir(root, { recursive: true });
  await git(root, ["init", "-q", "-b", "main"]);
  await copyInto(join(dir, "base"), root);
  await git(root, ["add", "-A"]);
  await git(root, ["commit", "-q", "-m", "base"]);
  await copyInto(join(dir, "after"), root);
  await git(root, ["commit", "-q", "-a", "-m", "change"]);
}

interface Record {
  durationMs: number;
  providers: { scores: { runs: number; answered: number }; runs: { reviewMs: number }[] }[];
}

/** The (i) rows. */
export const evalCases: CaseFactory = (ctx): BenchCase[] => {
  const group = "(i) eval overhead per case";
  const repo = join(ctx.tmp, "eval-case");
  let built: Promise<void> | undefined;
  const review = { medianMs: 0 };
  return [{
    group,
    name: "review --no-cache --range of one ts/ case (fake claude, 0 ms)",
    baseline: true,
    cmd: [...ctx.reviewGate, "review", "--no-cache", "--range", "HEAD~1..HEAD"],
    cwd: repo,
    env: ctx.env,
    runs: 11,
    setup: () => built ??= caseRepo(ctx.projectRoot, repo),
    verify: (m) => {
      review.medianMs = m.medianMs;
      return Promise.resolve();
    },
  }, {
    group,
    name: `eval --cases "${CASES}" (9 cases, fake claude, 0 ms)`,
    cmd: [...ctx.reviewGate, "eval", "--provider", "claude", "--cases", CASES, "--format", "json"],
    cwd: ctx.tmp,
    env: ctx.env,
    runs: 5,
    verify: (m) => {
      const bad = m.outputs.map((o) => JSON.parse(o) as Record)
        .find((r) => r.providers[0].scores.answered !== 9);
      return bad
        ? Promise.reject(new Error("an eval run did not answer all 9 cases"))
        : Promise.resolve();
    },
    describe: (m) => {
      const records = m.outputs.map((o) => JSON.parse(o) as Record);
      const own = records.map((r) =>
        (r.durationMs - r.providers[0].runs.reduce((sum, run) => sum + run.reviewMs, 0)) / 9
      ).sort((a, b) => a - b);
      return `per case: ${(m.medianMs / 9).toFixed(0)} ms of eval wall time against ${
        review.medianMs.toFixed(0)
      } ms for one review --range as its own process; eval's time beyond the reviews (case repository, config, scoring), from its record: median ${
        own[own.length >> 1].toFixed(0)
      } ms per case`;
    },
  }];
};
