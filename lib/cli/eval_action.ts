/**
 * The work of `review-gate eval` (lib/cli/eval.ts defines the command and loads this when it runs):
 * read the flags, load the suite (every case checked before any model call), run the eval with a
 * progress line on a terminal (lib/eval/run_eval.ts), write each requested format, and pick the
 * exit code: 0 once the eval ran, whatever it measured; 3 when no run got an answer (the scores
 * would measure nothing); 130 interrupted.
 *
 * @module
 */
import { ExitCode, UsageError } from "../base/errors.ts";
import { resolve } from "../base/path.ts";
import type { ConfigLayer } from "../config/config.ts";
import { evalColumns } from "../eval/columns.ts";
import type { EvalFormat } from "../eval/format_names.ts";
import { renderEval } from "../eval/render.ts";
import { runEval } from "../eval/run_eval.ts";
import { loadSuite, SHIPPED_SUITE } from "../eval/suite.ts";
import type { EvalReport } from "../eval/record.ts";
import { choosePaint } from "../formats/style.ts";
import type { Severity } from "../kinds/review/types.ts";
import type { ProviderName } from "../providers/registry.ts";
import type { CliDeps } from "./deps.ts";
import { startEvalProgress } from "./eval_progress.ts";
import { outputRequests } from "./outputs.ts";
import { policyFlagLayer } from "./policy_flags.ts";
import { writeOutputText } from "./write_outputs.ts";

/** `eval`'s parsed flags (lib/cli/eval.ts `EVAL_FLAGS`). */
export type EvalFlags = {
  provider?: ProviderName;
  providers?: string;
  model?: string;
  suite?: string;
  cases?: string;
  jobs?: string;
  repeat?: string;
  format?: readonly EvalFormat[];
  output?: readonly string[];
  budget?: string;
  failOn?: Severity;
  minConfidence?: string;
  timeout?: string;
};

/** A whole number of 1 or more from a flag, or its default. */
function wholeNumber(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`Invalid ${flag} "${value}": give a whole number of 1 or more`);
  }
  return n;
}

/** A positive number from a flag (`--budget`, `--timeout`), or undefined. */
function positive(value: string | undefined, flag: string, unit: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`Invalid ${flag} "${value}": give a number of ${unit} greater than 0`);
  }
  return n;
}

/** The config the flags set under every column: policy and timeout. */
function flagLayer(flags: EvalFlags): ConfigLayer {
  const layer = policyFlagLayer(flags);
  const timeout = positive(flags.timeout, "--timeout", "seconds");
  if (timeout !== undefined) layer.timeout_seconds = timeout;
  return layer;
}

/** The exit code of a finished eval, and what stderr says about it. */
function exitOf(report: EvalReport): { code: number; message?: string } {
  if (report.stopped?.reason === "interrupted") return { code: ExitCode.interrupted };
  const answered = report.providers.reduce((n, p) => n + p.scores.answered, 0);
  if (answered === 0) {
    return {
      code: ExitCode.couldNotRun,
      message:
        "no run of the eval got an answer, so its scores measure nothing: see each run's message above (is the provider installed and logged in?)",
    };
  }
  return { code: ExitCode.ok };
}

/**
 * `eval`: run it and write its outputs.
 *
 * @returns the exit code
 * @throws {UsageError} bad flags, an invalid suite, outputs that could not be written
 */
export async function evalAction(
  flags: EvalFlags,
  at: { deps: CliDeps; args: readonly string[] },
): Promise<number> {
  const { deps } = at;
  const requests = outputRequests(flags, at.args, { format: "terminal" });
  const columns = evalColumns(flags);
  const repeat = wholeNumber(flags.repeat, "--repeat", 1);
  const jobs = wholeNumber(flags.jobs, "--jobs", 1);
  const budgetUsd = positive(flags.budget, "--budget", "USD");
  const globs = (flags.cases ?? "").split(",").map((g) => g.trim()).filter((g) => g !== "");
  const layer = flagLayer(flags);
  const suite = await loadSuite(
    flags.suite === undefined ? SHIPPED_SUITE : resolve(deps.cwd, flags.suite),
    globs,
  );
  const progress = startEvalProgress(deps.stderr, deps.now);
  let report: EvalReport;
  try {
    report = await runEval(
      { suite, columns, repeat, jobs, budgetUsd, cases: globs, flags: layer },
      { ...deps, onProgress: progress.update },
    );
  } finally {
    progress.stop();
  }
  const failures: string[] = [];
  for (const request of requests) {
    const paint = request.output === undefined
      ? choosePaint(deps.stdout.isTerminal, deps.env)
      : undefined;
    const text = await renderEval(request.format as EvalFormat, report, paint);
    const failure = await writeOutputText(request, text, deps);
    if (failure) failures.push(failure);
  }
  if (failures.length > 0) throw new UsageError(failures.join("; "));
  const exit = exitOf(report);
  if (exit.message) deps.stderr.write(`review-gate: ${exit.message}\n`);
  return exit.code;
}
