/**
 * One review of one eval case by one provider column (docs/eval.md "How a case runs"): the case's
 * repository is reviewed as `review --range base..change --no-cache` reviews it — its config loaded
 * the way `review` loads it (lib/rules/config_at.ts: the case's own `.review-gate.json`, the user's
 * config, `REVIEW_GATE_*`, then the eval's flags and the column's provider) and the review run by
 * the review pipeline itself (lib/review/run_review.ts), never a copy of it — then scored against
 * the case's oracle (lib/eval/score.ts).
 *
 * @module
 */
import { ReviewGateError } from "../base/errors.ts";
import type { ConfigLayer } from "../config/config.ts";
import { resolveRepo } from "../git/repo.ts";
import { blockingFindings, policyOf } from "../kinds/review/policy.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { loadRulesConfig } from "../rules/config_at.ts";
import { LOCAL_RULES } from "../rules/options.ts";
import { type ReviewDeps, runReview } from "../review/run_review.ts";
import type { CaseRepo } from "./case_repo.ts";
import type { RunResult } from "./record.ts";
import { scoreFindings } from "./score.ts";
import type { EvalCase } from "./types.ts";

/** A case and its built repository. */
export interface PreparedCase {
  evalCase: EvalCase;
  repo: CaseRepo;
}

/** What every run of an eval shares. */
export interface RunCaseOptions {
  /** Config set by the eval's flags (`--fail-on`, `--min-confidence`). */
  flags: ConfigLayer;
  /** The column's config (provider, model, council), over the flags. */
  column: ConfigLayer;
  /** 1-based repeat. */
  repeat: number;
}

/** The run's fields that say which case it is. */
function caseFields(evalCase: EvalCase, repeat: number) {
  const { id, kind, language, clean } = evalCase;
  return { case: id, kind, language, clean, repeat };
}

/**
 * Review one case and score the answer.
 *
 * @param prepared the case and its repository
 * @param options the eval's flags, the column and the repeat
 * @param deps the review's I/O (runner, environment, clock, abort signal)
 * @returns the scored run; a review that threw is a run of status `error` with its message
 * @throws {ReviewGateError} of exit code 2 (a config or usage error: every run would fail alike)
 */
export async function runCase(
  prepared: PreparedCase,
  options: RunCaseOptions,
  deps: ReviewDeps,
): Promise<RunResult> {
  const { evalCase, repo: built } = prepared;
  const started = performance.now();
  try {
    const repo = await resolveRepo(deps.runner, built.root);
    const { config } = await loadRulesConfig({
      runner: deps.runner,
      repo,
      env: deps.env,
      flags: { ...options.flags, ...options.column },
      ...LOCAL_RULES,
    });
    const outcome = await runReview({
      cwd: built.root,
      repo,
      target: { kind: "range", from: built.base, to: built.head },
      kind: "review",
      config,
      rules: LOCAL_RULES,
      useCache: false,
    }, deps);
    const { record } = outcome;
    const answer = outcome.answer as ReviewAnswer | undefined;
    const blocking = answer ? blockingFindings(answer, policyOf(config), record.findingNotes) : [];
    const scored = scoreFindings(answer?.findings ?? [], {
      defects: evalCase.defects,
      changed: built.changed,
      blocking: new Set(blocking),
    });
    return {
      ...caseFields(evalCase, options.repeat),
      status: record.status,
      blocking: record.blocking,
      partial: record.coverage?.status === "partial",
      ...(record.message !== undefined ? { message: record.message } : {}),
      ...scored,
      ...(record.model !== undefined ? { model: record.model } : {}),
      ...(record.usage?.inputTokens !== undefined ? { inputTokens: record.usage.inputTokens } : {}),
      ...(record.usage?.outputTokens !== undefined
        ? { outputTokens: record.usage.outputTokens }
        : {}),
      // the bundled fake's cost is made up: never summed as spend (lib/providers/bundled_fake.ts)
      ...(record.fakeProvider
        ? { fake: true }
        : record.costUsd !== undefined
        ? { costUsd: record.costUsd }
        : {}),
      reviewMs: record.durationMs,
      wallMs: performance.now() - started,
    };
  } catch (error) {
    if (error instanceof ReviewGateError && error.exitCode === 2) throw error;
    return {
      ...caseFields(evalCase, options.repeat),
      status: "error",
      blocking: false,
      partial: false,
      message: error instanceof Error ? error.message : String(error),
      ...scoreFindings([], {
        defects: evalCase.defects,
        changed: built.changed,
        blocking: new Set(),
      }),
      reviewMs: 0,
      wallMs: performance.now() - started,
    };
  }
}
