/**
 * One background review of a turn's change as it stands (docs/design.md "Review while working"):
 * the Stop's own review options (lib/gates/turn/review.ts `turnReviewOptions`: same target, rules,
 * kind, config and cache) through the review pipeline's public entry, so it plans the same parts,
 * asks with the same prompt, isolation, read-only proof and decoder, and keys the same verdicts —
 * which the pipeline caches once the review's read-only proof held. Its provider calls go through
 * lib/gates/turn/work_calls.ts (counted, capped, deduplicated, killable by part). Its run is stored
 * and ledgered like any review, under the gate name `<agent>-work`.
 *
 * @module
 */
import type { Config } from "../../config/config.ts";
import type { Runner } from "../../exec/exec.ts";
import type { Repo } from "../../git/repo.ts";
import { type PlannedPart, verdictKey, type WorkCalls } from "./work_calls.ts";
import { partsUsage, type PartUsage, turnReviewOptions } from "./review.ts";

/** What a background review works on. */
export interface RoundRequest {
  repo: Repo;
  config: Config;
  baseline: string;
  /** The worktree's tree now. */
  tree: string;
  /** The change's label, e.g. "this Claude turn's changes". */
  label: string;
  /** The gate the Stop's review runs as (`claude-stop`): the round runs as `claude-work`. */
  gate: string;
  onPartial: "allow" | "block";
  runner: Runner;
  env: Record<string, string | undefined>;
  now: () => Date;
  /** Aborted when the worker stops (the turn ended). */
  signal: AbortSignal;
}

/** The gate name of a turn gate's background reviews: `claude-stop` → `claude-work`. */
export function workGateName(gate: string): string {
  return gate.replace(/-stop$/, "-work");
}

/**
 * The parts the Stop's review would plan for the change `baseline → tree`, without a model call
 * (lib/review/plan_only.ts, with the same options).
 *
 * @returns the planned parts (empty when nothing is to be reviewed)
 * @throws whatever planning throws (git)
 */
export async function planParts(request: Omit<RoundRequest, "signal" | "now">): Promise<
  PlannedPart[]
> {
  const { planReview } = await import("../../review/plan_only.ts");
  const options = turnReviewOptions({ ...request, current: request.tree });
  const planned = await planReview({
    repo: request.repo,
    target: options.target,
    config: request.config,
    rules: options.rules,
    env: request.env,
  }, request.runner);
  const chunks = planned?.change.chunks ?? [];
  return chunks.map((chunk) => ({
    key: verdictKey(chunk.digest ?? "", chunks.length),
    digest: chunk.digest ?? "",
    diff: chunk.diff,
    paths: chunk.paths,
  }));
}

/**
 * Review the change `baseline → tree` once in the background.
 *
 * @param request the change and how to run
 * @param calls the turn's calls (every provider call of the round goes through them)
 * @param parts the round's plan, from {@linkcode planParts}
 * @returns per part, whether the cache already had it and the calls it took; the parts a
 *   background call of this round answered (`answered`, by {@linkcode verdictKey}: their verdicts
 *   are now cached)
 * @throws never: a review that threw answers nothing
 */
export async function reviewRound(
  request: RoundRequest,
  calls: WorkCalls,
  parts: readonly PlannedPart[],
): Promise<{ usage: PartUsage[]; answered: string[] }> {
  try {
    const { runReview } = await import("../../review/run_review.ts");
    const outcome = await runReview({
      ...turnReviewOptions({ ...request, current: request.tree, gate: workGateName(request.gate) }),
      // the round's verdicts stand only part by part: a failed part is not reviewed
      onPartial: "allow",
      // the agent goes on writing the worktree while the call runs: the proof watches what the
      // reviewer could write that the Stop does not review from its own snapshot
      proof: "private",
    }, {
      runner: calls.runner(request.runner, parts),
      env: request.env,
      now: request.now,
      signal: request.signal,
    });
    const usage = partsUsage(outcome) ?? [];
    const ok = outcome.record.status === "approved" || outcome.record.status === "needs-attention";
    const records = outcome.record.parts;
    // a review that failed as a whole (its read-only proof among others) kept no verdict
    const answered = !ok ? [] : usage.filter((u, i) =>
      !u.cached && u.calls > 0 &&
      (records ? records.find((p) => p.part === i + 1)?.status === "ok" : true)
    ).map((u) => verdictKey(u.digest, usage.length));
    return { usage, answered };
  } catch {
    return { usage: [], answered: [] };
  }
}
