/**
 * The review's fourth stage: the verdict's cache key — every input the verdict depends on
 * (docs/design.md "Cache identity") — and the cached verdict, when there is one to reuse. A change
 * none of which can be shown is looked up nowhere: it is not reviewed (no cache, no model call,
 * never approved). A council's whole verdict is not cached: its parts are (per provider), so a
 * re-run asks nobody and still knows who agreed on each finding.
 *
 * @module
 */
import { shownNothing } from "../git/collect.ts";
import type { Repo } from "../git/repo.ts";
import type { Change } from "../git/types.ts";
import { resolveBinary } from "../providers/registry.ts";
import { rulesIdentity } from "../rules/report.ts";
import { type CacheEntry, cacheKey, readCache } from "../store/cache.ts";
import { ensureStateDir } from "../store/state.ts";
import { changeEnd, type EarlyEnd } from "./early.ts";
import { programKey } from "./identity.ts";
import type { Prompted } from "./prompt.ts";
import type { Setup } from "./setup.ts";
import type { ReviewDeps, ReviewOptions } from "./types.ts";

/** The verdict's key, and the verdict found under it. */
export interface Looked {
  /** The state directory (lib/store/state.ts). */
  state: string;
  key: string;
  /** The cached verdict, or `null`. */
  hit: CacheEntry<unknown> | null;
  /** True when none of the change can be shown to the model. */
  nothingShown: boolean;
}

/** What of the options the lookup reads. */
export type LookupOptions = Pick<ReviewOptions, "cwd" | "config" | "focus" | "kind" | "useCache">;

/**
 * Key the verdict and look it up. An abort noticed after a miss ends the review as `interrupted`.
 *
 * @throws {import("../base/errors.ts").StoreError} the state dir cannot be created
 */
export async function lookUp(
  options: LookupOptions,
  deps: Pick<ReviewDeps, "env" | "signal">,
  at: {
    setup: Pick<Setup, "identity" | "provider" | "council" | "kindInputHash">;
    repo: Repo;
    change: Change;
    prompted: Pick<Prompted, "guidelines" | "acks">;
  },
): Promise<Looked | { early: EarlyEnd }> {
  const { config } = options;
  const { setup, repo, change } = at;
  const providers = setup.council.length > 0 ? setup.council : [setup.provider];
  const key = await cacheKey({
    rules: await rulesIdentity(config, {
      guidelines: at.prompted.guidelines,
      excluded: change.excludedByRule,
    }),
    fingerprint: change.fingerprint,
    schemaId: setup.identity.schemaHash,
    promptTemplateHash: setup.identity.templateHash,
    provider: (await Promise.all(
      providers.map((a) =>
        programKey(a, resolveBinary(a, deps.env, options.cwd), deps.env, options.cwd)
      ),
    )).join("+"),
    model: config.model,
    focus: options.focus,
    reviewKind: options.kind,
    planId: change.planId,
    acks: at.prompted.acks.digest,
    kindInputHash: setup.kindInputHash,
  });
  const state = await ensureStateDir(repo.commonDir);
  const nothingShown = shownNothing(change);
  const useCache = options.useCache && config.cache && !nothingShown && setup.council.length === 0;
  const hit = useCache ? await readCache<unknown>(state, key) : null;
  if (!hit && deps.signal?.aborted === true) return { early: changeEnd(change, true) };
  return { state, key, hit, nothingShown };
}
