/**
 * `review --plan-only`: collect the change and plan its review exactly as a review would (same
 * target, budgets, `max_calls` and team rules: files excluded by rule, guidelines that would be
 * sent), without a model call, a run folder or the cache.
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import type { Runner } from "../exec/exec.ts";
import type { WorktreeSnapshot } from "../git/live_tree.ts";
import { collectChange, isCleanWorktree } from "../git/collect.ts";
import type { Repo } from "../git/repo.ts";
import type { Change, Target } from "../git/types.ts";
import { guidelinesFor, pathFilterFor } from "../rules/apply.ts";
import { LOCAL_RULES, type RulesOptions } from "../rules/options.ts";
import { buildRulesReport, type RulesReport } from "../rules/report.ts";
import { verdictIdentity } from "./identity.ts";
import { AUTO_PROVIDER, PROVIDER_NAMES } from "../providers/registry.ts";

/**
 * The planned change.
 *
 * @param options the repository, the target (`undefined`: the working tree when dirty), config,
 *   where the rules come from (default: the worktree), and the working tree's snapshot when one
 *   was started already (lib/cli/review_ahead.ts: a review's own, which leaves review-gate's own
 *   outputs out of it as the review does)
 * @returns the collected change with its plan (`chunks`, `coverage`) and what the team's rules do
 *   to it, or `null` when there is nothing to review
 * @throws {import("../base/errors.ts").UsageError} unknown ref or provider
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function planReview(
  options: {
    repo: Repo;
    target?: Target;
    /** Repository-relative pathspecs the change is narrowed to (lib/git/pathspecs.ts). */
    paths?: readonly string[];
    config: Config;
    rules?: RulesOptions;
    rulesNotes?: readonly string[];
    /** The working tree's snapshot, started ahead (used when the target is the working tree). */
    worktree?: Promise<WorktreeSnapshot>;
    /** The environment `provider: "auto"` chooses from (lib/providers/auto.ts). */
    env?: Record<string, string | undefined>;
  },
  runner: Runner,
): Promise<{ change: Change; rules: RulesReport } | null> {
  const { repo, config } = options;
  const rules = options.rules ?? LOCAL_RULES;
  const target = options.target ?? { kind: "worktree" };
  const { budgets } = await verdictIdentity(await planConfig(config, options.env), {
    kind: "review",
  });
  const exclude = pathFilterFor(runner, repo, { config, rules });
  const change = await collectChange(runner, {
    repo,
    target,
    budgets,
    exclude,
    paths: options.paths,
    worktree: target.kind === "worktree" ? options.worktree : undefined,
  });
  if (!options.target && isCleanWorktree(change)) return null;
  const guidelines = change.files.length > 0
    ? await guidelinesFor(runner, repo, { config, rules, change })
    : undefined;
  return {
    change,
    rules: buildRulesReport(rules, { change, guidelines, notes: options.rulesNotes }),
  };
}

/**
 * The config to plan with: `provider: "auto"` as the review would choose (its prompt limit sets the
 * budgets); when it finds none, the first provider's, since a plan asks no model and the review
 * itself says that none was found.
 */
async function planConfig(
  config: Config,
  env: Record<string, string | undefined> = {},
): Promise<Config> {
  if (config.provider !== AUTO_PROVIDER) return config;
  const { NoProviderError, resolveProvider } = await import("../providers/auto.ts");
  try {
    return (await resolveProvider(config, env)).config;
  } catch (error) {
    if (!(error instanceof NoProviderError)) throw error;
    return { ...config, provider: PROVIDER_NAMES[0] };
  }
}
