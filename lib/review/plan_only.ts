/**
 * `review --plan-only`: collect the change and plan its review exactly as a review would (same
 * target, budgets and `max_calls`), without a model call, a run folder or the cache.
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import type { Runner } from "../exec/exec.ts";
import { collectChange } from "../git/collect.ts";
import type { Repo } from "../git/repo.ts";
import { autoTarget } from "../git/target.ts";
import type { Change, Target } from "../git/types.ts";
import { verdictIdentity } from "./identity.ts";

/**
 * The planned change.
 *
 * @param options the repository, the target (`undefined`: the working tree when dirty) and config
 * @returns the collected change with its plan (`chunks`, `coverage`), or `null` when there is
 *   nothing to review
 * @throws {import("../base/errors.ts").UsageError} unknown ref or provider
 * @throws {import("../base/errors.ts").GitError} when git fails
 */
export async function planReview(
  options: { repo: Repo; target?: Target; config: Config },
  runner: Runner,
): Promise<Change | null> {
  const target = options.target ?? await autoTarget(runner, options.repo);
  if (target === null) return null;
  const { budgets } = await verdictIdentity(options.config, { kind: "review" });
  return await collectChange(runner, { repo: options.repo, target, budgets });
}
