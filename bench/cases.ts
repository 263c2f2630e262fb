/**
 * The bench's cases. A case is one command measured N times; cases with the same `group` are
 * compared with that group's `baseline` case (ratios in the table). Cases are built from a
 * {@linkcode BenchContext} because the repositories exist only while the bench runs.
 *
 * To add cases, append a {@linkcode CaseFactory} to {@linkcode EXTENSION_CASES} (bottom of this
 * file): the bench runs them after the built-in ones and prints them in the same table.
 *
 * @module
 */
import { join } from "node:path";
import type { GeneratedRepo } from "./gen_repo.ts";
import { type BenchCase, type CaseFactory, DENO_RUN } from "./case_types.ts";
import { hookCases } from "./hook_cases.ts";
import { scaleCases } from "./scale_cases.ts";
import { realCases } from "./real_cases.ts";
import { workCases } from "./work_cases.ts";
import { npmCases } from "./npm_cases.ts";
import { evalCases } from "./eval_cases.ts";
import { splitCases } from "./split_cases.ts";
import { gitCallsDiffer, oneShotFloorCase } from "./floor_case.ts";
import type { Measurement } from "./measure.ts";

export { DENO_RUN } from "./case_types.ts";
export type { BenchCase, BenchContext, CaseFactory } from "./case_types.ts";

/** `git diff` of the repository's change: the baseline of groups (a) and (b). */
export function gitDiffCase(group: string, repo: GeneratedRepo, runs: number): BenchCase {
  return {
    group,
    name: "git diff (baseline)",
    baseline: true,
    cmd: ["git", "--no-pager", "diff", "--no-color"],
    cwd: repo.root,
    runs,
    describe: () =>
      `${repo.diffLines} diff lines, ${
        (repo.diffBytes / 1024).toFixed(0)
      } KiB; files: ${repo.modified} modified, ` +
      `${repo.added} added (intent-to-add), ${repo.deleted} deleted`,
  };
}

/** Fail unless the last `count` lines of the repository's records.jsonl have `cached === want`. */
async function expectCached(repo: GeneratedRepo, count: number, want: boolean): Promise<void> {
  const text = await Deno.readTextFile(join(repo.root, ".git", "review-gate", "records.jsonl"));
  const last = text.trim().split("\n").slice(-count).map((line) => JSON.parse(line));
  const wrong = last.filter((r) => r.cached !== want || r.status !== "approved");
  if (last.length !== count || wrong.length > 0) {
    throw new Error(
      `Expected ${count} approved runs with cached=${want}, got ${
        JSON.stringify(wrong[0] ?? last)
      }`,
    );
  }
}

/** (a) the whole `review` command on the ~2,000-line change, fresh and from the cache. */
export const reviewCases: CaseFactory = (ctx) => {
  const group = "(a) review, ~2k-line diff";
  const fakeLog = join(ctx.tmp, "review-fake.jsonl");
  const fakeBin = join(ctx.projectRoot, "fixtures", "fake", "bin", "claude");
  const fake = { argv: [] as string[], stdin: "", medianMs: 0 };
  const fresh = oneShotFloorCase(group, ctx, ctx.small, {
    path: "fresh",
    name: "one-shot floor: empty deno run + review's 9 git calls + the fake alone (sh)",
    provider: () => ({ argv: [fakeBin, ...fake.argv], stdin: fake.stdin }),
  });
  const hit = oneShotFloorCase(group, ctx, ctx.small, {
    path: "hit",
    name: "cache-hit floor: empty deno run + the 5 git calls that prove the change (sh)",
  });
  const floors = { fresh: 0, hit: 0 };
  return [
    gitDiffCase(group, ctx.small, 21),
    {
      group,
      name: "the fake claude alone, review's argv and prompt",
      get cmd() {
        return [fakeBin, ...fake.argv];
      },
      get stdin() {
        return fake.stdin;
      },
      cwd: ctx.small.root,
      env: ctx.env,
      runs: 11,
      setup: async () => {
        // One review with the fake's log on gives the exact argv and prompt review sends it.
        const out = await new Deno.Command(ctx.reviewGate[0], {
          args: [...ctx.reviewGate.slice(1), "review", "--no-cache"],
          cwd: ctx.small.root,
          env: { ...ctx.env, REVIEW_GATE_FAKE_LOG: fakeLog },
          stdout: "null",
          stderr: "piped",
        }).output();
        if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
        const last = (await Deno.readTextFile(fakeLog)).trim().split("\n").pop() ?? "{}";
        const invocation = JSON.parse(last);
        fake.argv = invocation.argv;
        fake.stdin = invocation.stdin ?? "";
      },
      verify: (m) => {
        fake.medianMs = m.medianMs;
        if (!m.outputs.every((o) => o.includes('"structured_output"'))) {
          throw new Error(`the fake did not answer: ${m.outputs[0].slice(0, 200)}`);
        }
        return Promise.resolve();
      },
    },
    {
      ...fresh,
      verify: async (m) => {
        await fresh.verify?.(m);
        floors.fresh = m.medianMs;
      },
    },
    {
      group,
      name: "review --no-cache (fake claude, 0 ms)",
      cmd: [...ctx.reviewGate, "review", "--no-cache"],
      cwd: ctx.small.root,
      env: ctx.env,
      runs: 11,
      speedTarget: { id: "T1", floor: fresh.name, max: 1.5 },
      floorCheck: (children) => gitCallsDiffer(fresh.gitCalls, children),
      verify: (m) => expectCached(ctx.small, m.samplesMs.length, false),
      describe: (m) =>
        `our own time (this row − the fake alone): ${
          (m.medianMs - fake.medianMs).toFixed(0)
        } ms, of which ${
          (m.medianMs - floors.fresh).toFixed(0)
        } ms beyond the one-shot floor (this row − the floor row)`,
    },
    {
      ...hit,
      verify: async (m) => {
        await hit.verify?.(m);
        floors.hit = m.medianMs;
      },
    },
    {
      group,
      name: "review, cache hit",
      cmd: [...ctx.reviewGate, "review"],
      cwd: ctx.small.root,
      env: ctx.env,
      runs: 11,
      warmup: 1, // the warm-up run asks the fake and fills the cache
      speedTarget: { id: "T2", floor: hit.name, max: 2 },
      floorCheck: (children) => gitCallsDiffer(hit.gitCalls, children),
      verify: (m) => expectCached(ctx.small, m.samplesMs.length, true),
      describe: (m) =>
        `${(m.medianMs - floors.hit).toFixed(0)} ms beyond the cache-hit floor (this row − the ` +
        `floor row)`,
    },
  ];
};

/** (b) collect + prompt + decode in one subprocess on the ~100,000-line change. */
export const pipelineCases: CaseFactory = (ctx) => {
  const group = "(b) collect+prompt+decode, ~100k-line diff";
  const script = join(ctx.projectRoot, "bench", "pipeline.ts");
  const pipeline = (budgets: "defaults" | "unbounded", label: string): BenchCase => ({
    group,
    name: `pipeline, ${label}`,
    cmd: [
      ...DENO_RUN,
      script,
      ctx.large.root,
      budgets,
    ],
    cwd: ctx.projectRoot,
    env: ctx.env,
    runs: 7,
    describe: (m) => describePipeline(m),
  });
  return [
    gitDiffCase(group, ctx.large, 11),
    pipeline("defaults", "default budgets (64 KiB/file, 400 KB total)"),
    pipeline("unbounded", "budgets 1 GiB (whole diff)"),
  ];
};

function describePipeline(m: Measurement): string {
  const runs = m.outputs.map((o) => JSON.parse(o.trim().split("\n").at(-1)!));
  const mid = (key: string) => {
    const values = runs.map((r) => r[key] as number).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)].toFixed(0);
  };
  const r = runs[0];
  return `coverage ${r.coverage}: ${r.omitted} parts omitted of ${r.files} files ` +
    `(${(r.reviewedBytes / 1024).toFixed(0)} of ${
      ((r.reviewedBytes + r.omittedBytes) / 1024).toFixed(0)
    } KiB of patch in the prompt), ` +
    `prompt ${(r.promptBytes / 1024).toFixed(0)} KiB; in-process median ms: collect ${
      mid("collectMs")
    }, ` +
    `prompt ${mid("promptMs")}, decode ${
      mid("decodeMs")
    } (the rest is Deno start-up and module load)`;
}

/**
 * (d) the review workspace: the private read-only copy of the reviewed tree the provider runs in
 * (made once per review that calls a model) and its fingerprint, against git's own writer
 * (`checkout-index -a --prefix`, which runs filters) on the same tree.
 */
export const treeCopyCases: CaseFactory = (ctx) => {
  const group = "(d) workspace copy of the reviewed tree";
  const dest = join(ctx.tmp, "checkout-index");
  return [{
    group,
    name: "git checkout-index -a (baseline)",
    baseline: true,
    cmd: ["sh", "-c", `rm -rf "${dest}" && git checkout-index -a -f --prefix="${dest}/"`],
    cwd: ctx.large.root,
    env: ctx.env,
    runs: 7,
  }, {
    group,
    name: "tree copy + fingerprint",
    cmd: [...DENO_RUN, join(ctx.projectRoot, "bench", "tree_copy.ts"), ctx.large.root],
    cwd: ctx.projectRoot,
    env: ctx.env,
    runs: 7,
    describe: (m) => {
      const runs = m.outputs.map((o) => JSON.parse(o.trim().split("\n").at(-1)!));
      const mid = (key: string) =>
        runs.map((r) => r[key] as number).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
      return `tree copy: ${runs[0].files} files, ${(runs[0].bytes / 1048576).toFixed(1)} MiB; ` +
        `in-process median ms: copy ${mid("copyMs")}, fingerprint ${mid("fingerprintMs")} ` +
        `(taken twice per model call)`;
    },
  }];
};

/**
 * The other groups, one file each ((c) hooks, (d) here, (e) scale, (f) real histories, (g) review
 * while working, (h) the npm-installed command, (i) eval's own overhead per case, (j) a review
 * split across a CI matrix).
 */
export const EXTENSION_CASES: CaseFactory[] = [
  hookCases,
  treeCopyCases,
  scaleCases,
  realCases,
  workCases,
  npmCases,
  evalCases,
  splitCases,
];

/** Every case factory, in table order. */
export const ALL_CASES: CaseFactory[] = [reviewCases, pipelineCases, ...EXTENSION_CASES];
