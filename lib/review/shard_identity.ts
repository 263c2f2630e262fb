/**
 * The identity of a split review's plan (README "Review across a CI matrix"): what every shard and
 * `review-gate merge` must agree on for one shard's answers to count in another's review — the
 * plan's id (each part's diff bytes and what was left out, lib/git/collect.ts `planId`) and
 * everything that shapes a part's answer: the team's rules and the guidelines sent (as the verdict
 * cache keys them, lib/rules/report.ts `rulesIdentity`), the acknowledgements told to the model,
 * the answer schema and prompt template, the prompt variant and focus, the providers and the
 * model. The blocking policy (`fail_on`, `min_confidence`…) is not in it: it judges the merged
 * answer, where `merge` applies its own.
 *
 * @module
 */
import { sha256Hex } from "../base/sha256.ts";
import type { Config } from "../config/config.ts";
import type { Change } from "../git/types.ts";
import { rulesIdentity } from "../rules/report.ts";
import type { Prompted } from "./prompt.ts";
import type { Setup } from "./setup.ts";
import type { ReviewOptions } from "./types.ts";

/**
 * The plan identity of a review.
 *
 * @param options the config, prompt variant and focus
 * @param at the set-up (schema, template, providers), the change (its plan) and what the model is
 *   told (guidelines, acknowledgements)
 * @returns sha256 hex
 */
export async function planIdentity(
  options: Pick<ReviewOptions, "kind" | "focus"> & { config: Config },
  at: {
    setup: Pick<Setup, "identity" | "provider" | "council">;
    change: Pick<Change, "planId" | "excludedByRule">;
    prompted: Pick<Prompted, "guidelines" | "acks">;
  },
): Promise<string> {
  const { setup, change, prompted } = at;
  const providers = setup.council.length > 0 ? setup.council : [setup.provider];
  return await sha256Hex(JSON.stringify({
    v: 1,
    plan: change.planId,
    rules: await rulesIdentity(options.config, {
      guidelines: prompted.guidelines,
      excluded: change.excludedByRule,
    }),
    acks: prompted.acks.digest,
    schema: setup.identity.schemaHash,
    template: setup.identity.templateHash,
    variant: options.kind,
    focus: options.focus ?? null,
    providers: providers.map((p) => p.name),
    model: setup.council.length > 0 ? null : options.config.model ?? null,
  }));
}
