/**
 * `review-gate eval`, the run (docs/eval.md "The command"): load each provider column's config,
 * build every chosen case's repository in one private temp folder (removed on every exit path,
 * lib/exec/tmpdir.ts), review each case with each column `repeat` times (lib/eval/run_case.ts),
 * at most `jobs` cases at once — a case's own runs one after another, in its one repository — and
 * put the scored runs into the record (lib/eval/report.ts). Before each run it checks the abort
 * signal and `--budget`: once the cost the providers reported reaches the budget, or once
 * interrupted, no further run starts and the record says how many did not run. Progress goes to
 * `onProgress`; nothing here prints.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { InterruptedError } from "../base/errors.ts";
import { join } from "../base/path.ts";
import { compareCodeUnits } from "../base/compare.ts";
import { type Config, type ConfigLayer, loadConfig } from "../config/config.ts";
import { AUTO_PROVIDER } from "../providers/registry.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import type { ReviewDeps } from "../review/run_review.ts";
import { buildCaseRepo } from "./case_repo.ts";
import type { Column } from "./columns.ts";
import { EVAL_RECORD_VERSION, type EvalReport, type RunResult, type Stopped } from "./record.ts";
import { providerResult, type ResolvedColumn } from "./report.ts";
import { type PreparedCase, runCase } from "./run_case.ts";
import type { EvalSuite } from "./types.ts";

/** What to evaluate and how. */
export interface EvalOptions {
  suite: EvalSuite;
  columns: readonly Column[];
  /** Runs of each case per column (`--repeat`), ≥ 1. */
  repeat: number;
  /** Cases reviewed at once (`--jobs`), ≥ 1. */
  jobs: number;
  /** Stop starting runs once the reported cost reaches this many USD (`--budget`). */
  budgetUsd?: number;
  /** The `--cases` globs that chose the suite's cases, for the record. */
  cases?: readonly string[];
  /** Config set by the eval's flags (policy), under each column's. */
  flags: ConfigLayer;
}

/** Where the eval is. */
export interface EvalProgress {
  /** Building the cases' repositories, or reviewing them. */
  phase: "prepare" | "review";
  /** Runs (or cases, while preparing) finished, of `total`. */
  done: number;
  total: number;
  /** The case and column just finished (`ts/off-by-one · claude`). */
  last?: string;
  /** Since the eval started, ms. */
  elapsedMs: number;
  /** Cost reported so far, USD. */
  costUsd: number;
}

/** The I/O of an eval: the review's, and where progress goes. */
export interface EvalDeps extends ReviewDeps {
  onProgress?: (progress: EvalProgress) => void;
}

/** Run `work` on every item, at most `jobs` at once, in order of start. */
async function pool<T>(
  items: readonly T[],
  jobs: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
}

/**
 * A column with no council whose config says `provider: "auto"`, pinned to the provider auto
 * chooses under `env` (lib/providers/auto.ts), so every run of the column asks that one, and the
 * words its label adds ("auto", "auto: claude not found"); any other column as it is.
 *
 * @throws {import("../providers/auto.ts").NoProviderError} when auto finds none (exit 3)
 */
async function pinAuto(
  column: Column,
  config: Config,
  env: Record<string, string | undefined>,
): Promise<{ column: Column; config: Config; auto?: string }> {
  if (config.provider !== AUTO_PROVIDER || config.council.length > 1) return { column, config };
  const { chooseProvider, choiceText } = await import("../providers/auto.ts");
  const { provider, choice } = await chooseProvider(env);
  return {
    column: { ...column, layer: { ...column.layer, provider } },
    config: { ...config, provider },
    auto: choiceText(choice),
  };
}

/**
 * Each column with the provider, model and council its config gives (user config, env, flags).
 * A column the config decides names the provider `auto` chose: `claude (auto)`.
 */
async function resolveColumns(
  options: EvalOptions,
  env: Record<string, string | undefined>,
) {
  const resolved = await Promise.all(options.columns.map(async (asked) => {
    const loaded = await loadConfig({ env, flags: { ...options.flags, ...asked.layer } });
    const { column, config, auto } = await pinAuto(asked, loaded.config, env);
    const council = config.council.length > 1 ? config.council : undefined;
    const named = council
      ? council.join("+")
      : config.model
      ? `${config.provider}:${config.model}`
      : config.provider;
    const label = column.label ?? (auto ? `${named} (${auto})` : named);
    const out: ResolvedColumn = {
      label,
      provider: council?.[0] ?? config.provider,
      ...(config.model !== undefined ? { model: config.model } : {}),
      ...(council ? { council } : {}),
    };
    return { column, resolved: out, config };
  }));
  return { columns: resolved, policy: resolved[0].config };
}

/** Build every case's repository under `tmp`, at most `jobs` at once. */
async function prepareCases(
  options: EvalOptions,
  deps: EvalDeps,
  at: { tmp: string; started: number },
): Promise<PreparedCase[]> {
  const prepared: PreparedCase[] = new Array(options.suite.cases.length);
  let done = 0;
  await pool(options.suite.cases, options.jobs, async (evalCase, i) => {
    if (deps.signal?.aborted) throw new InterruptedError();
    const root = join(at.tmp, String(i + 1));
    await Deno.mkdir(root);
    prepared[i] = { evalCase, repo: await buildCaseRepo(deps.runner, evalCase, root) };
    deps.onProgress?.({
      phase: "prepare",
      done: ++done,
      total: options.suite.cases.length,
      last: evalCase.id,
      elapsedMs: deps.now().getTime() - at.started,
      costUsd: 0,
    });
  });
  return prepared;
}

/** A column as the run needs it. */
interface RunColumn {
  column: Column;
  resolved: ResolvedColumn;
}

/** Review every prepared case with every column, `repeat` times; stop on abort or budget. */
async function reviewCases(
  prepared: readonly PreparedCase[],
  columns: readonly RunColumn[],
  at: { options: EvalOptions; deps: EvalDeps; started: number },
): Promise<{ runs: RunResult[][]; costUsd: number; stopped?: Stopped }> {
  const { options, deps } = at;
  const total = prepared.length * columns.length * options.repeat;
  const runs: RunResult[][] = columns.map(() => []);
  let costUsd = 0;
  let counted = 0;
  let reason: Stopped["reason"] | undefined;
  const stopReason = () =>
    deps.signal?.aborted
      ? "interrupted" as const
      : options.budgetUsd !== undefined && costUsd >= options.budgetUsd
      ? "budget" as const
      : undefined;
  await pool(prepared, options.jobs, async (p) => {
    for (let repeat = 1; repeat <= options.repeat; repeat++) {
      for (const [i, { column, resolved }] of columns.entries()) {
        reason ??= stopReason();
        if (reason) return;
        const run = await runCase(p, { flags: options.flags, column: column.layer, repeat }, deps);
        if (run.status === "interrupted" || deps.signal?.aborted) {
          reason ??= "interrupted"; // stopped before it answered: not a score
          return;
        }
        runs[i].push(run);
        costUsd += run.costUsd ?? 0;
        deps.onProgress?.({
          phase: "review",
          done: ++counted,
          total,
          last: `${p.evalCase.id} · ${resolved.label}`,
          elapsedMs: deps.now().getTime() - at.started,
          costUsd,
        });
      }
    }
  });
  return { runs, costUsd, ...(reason ? { stopped: { reason, notRun: total - counted } } : {}) };
}

/** What a reader of the record should know: oracle notes, what --budget could not count. */
function notesOf(
  prepared: readonly PreparedCase[],
  columns: readonly RunColumn[],
  result: { runs: RunResult[][]; costUsd: number; stopped?: Stopped },
  options: EvalOptions,
): string[] {
  const notes = prepared.flatMap((p) => p.repo.notes);
  if (options.budgetUsd !== undefined) {
    const unpriced = columns.filter((_, i) =>
      result.runs[i].some((r) => r.costUsd === undefined && !r.fake)
    );
    if (result.runs.some((runs) => runs.some((r) => r.fake))) {
      notes.push("the bundled fake's cost is made up: --budget did not count it");
    }
    if (unpriced.length > 0) {
      notes.push(
        `--budget counts the cost providers report: ${
          unpriced.map((c) => c.resolved.label).join(", ")
        } reported none for some runs, which the budget did not count`,
      );
    }
  }
  if (result.stopped?.reason === "budget") {
    notes.push(
      `stopped by --budget ${options.budgetUsd} USD after ${
        result.costUsd.toFixed(4)
      } USD reported: ${result.stopped.notRun} runs did not run, and the scores cover only the runs that did`,
    );
  }
  if (result.stopped?.reason === "interrupted") {
    notes.push(
      `interrupted: ${result.stopped.notRun} runs did not run, and the scores cover only the runs that did`,
    );
  }
  return notes;
}

/** The suite's part of the record. */
function suiteOf(suite: EvalSuite): EvalReport["suite"] {
  const unique = (values: string[]) => [...new Set(values)].sort(compareCodeUnits);
  return {
    path: suite.dir,
    cases: suite.cases.length,
    total: suite.total,
    clean: suite.cases.filter((c) => c.clean).length,
    languages: unique(suite.cases.map((c) => c.language)),
    kinds: unique(suite.cases.map((c) => c.kind)),
  };
}

/**
 * Run an eval.
 *
 * @param options the suite, the columns, repeats, jobs, budget and flags
 * @param deps the review's I/O and a progress callback
 * @returns the record: every run scored, per column, with what stopped the eval early if anything
 * @throws {import("../base/errors.ts").ConfigError} an invalid user config, variable or flag
 * @throws {import("../base/errors.ts").UsageError} a case that does not build (before any model
 *   is asked), or a run's config or usage error (every run would fail alike)
 * @throws {InterruptedError} an abort while the cases were being built
 * @throws {import("../base/errors.ts").StoreError} the temp folder cannot be made
 */
export async function runEval(options: EvalOptions, deps: EvalDeps): Promise<EvalReport> {
  const startedAt = deps.now();
  const started = startedAt.getTime();
  const { columns, policy } = await resolveColumns(options, deps.env);
  const { prepared, result } = await withPrivateTempDir(async (tmp) => {
    const prepared = await prepareCases(options, deps, { tmp, started });
    return { prepared, result: await reviewCases(prepared, columns, { options, deps, started }) };
  }, { prefix: "review-gate-eval-" });
  const finishedAt = deps.now();
  return {
    version: EVAL_RECORD_VERSION,
    tool: { name: "review-gate", version: denoJson.version },
    suite: suiteOf(options.suite),
    settings: {
      repeat: options.repeat,
      jobs: options.jobs,
      ...(options.budgetUsd !== undefined ? { budgetUsd: options.budgetUsd } : {}),
      ...(options.cases?.length ? { cases: [...options.cases] } : {}),
      failOn: policy.fail_on,
      minConfidence: policy.min_confidence,
    },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - started,
    ...(result.stopped ? { stopped: result.stopped } : {}),
    notes: notesOf(prepared, columns, result, options),
    providers: columns.map((c, i) => providerResult(c.resolved, result.runs[i], options.repeat)),
  };
}
