/**
 * The review's first stage: what it is asked as, fixed before the change is collected — the answer
 * kind's definition (lib/kinds/registry.ts) and its policy under the config, the provider or a
 * council (only a kind reviewed in parts has one), the verdict identity minus the change, and the
 * record fields known now.
 *
 * @module
 */
import { isBundledFake } from "../providers/bundled_fake.ts";
import { getKind } from "../kinds/registry.ts";
import type { KindDefinition, KindParts, Policy } from "../kinds/definition.ts";
import type { Change } from "../git/types.ts";
import {
  AUTO_PROVIDER,
  isProviderName,
  providerMeta,
  type ProviderName,
  type RegisteredMeta,
} from "../providers/registry.ts";
import type { ProviderChoice } from "../providers/choice.ts";
import type { Config } from "../config/config.ts";
import { sha256Hex } from "../base/sha256.ts";
import { type VerdictIdentity, verdictIdentity } from "./identity.ts";
import type { RunBase } from "./open_run.ts";
import type { ReviewDeps, ReviewOptions } from "./types.ts";

/** What a review is asked as. */
export interface Setup {
  started: Date;
  /** The answer kind asked for. */
  kind: KindDefinition;
  /**
   * The provider asked: the only one, or a council's first — what its verdict's key names of it
   * (its folder's `meta.ts`, lib/providers/registry.ts); the ask stages load its adapter.
   */
  provider: RegisteredMeta;
  /** A council's providers (empty: `provider` alone). */
  council: RegisteredMeta[];
  /** The kind's policy under the config. */
  policy: Policy;
  identity: VerdictIdentity;
  /** sha256 of the kind's input identity (compliance: the plan), when it has an input. */
  kindInputHash?: string;
  /** The record fields known before the change is collected. */
  base: RunBase;
  /**
   * True when the review asks a model for any change that has something to show — no whole-change
   * verdict to look up first (`--no-cache`, a council, whose parts are looked up inside the
   * workspace), no caller's `notAsked`, no daily budget that could stop a gate — so the call's
   * setting can be prepared as soon as the listing names a file the rules keep.
   */
  asksAhead: boolean;
}

/** What of the options the set-up reads. */
export type SetupOptions = Pick<
  ReviewOptions,
  | "answerKind"
  | "kindInput"
  | "kind"
  | "focus"
  | "config"
  | "gate"
  | "gateMode"
  | "useCache"
  | "notAsked"
  | "cwd"
  | "shardResults"
>;

/**
 * Set a review up.
 *
 * @throws {import("../base/errors.ts").UsageError} unknown provider
 * @throws {import("../providers/auto.ts").NoProviderError} `provider: "auto"` found none (exit 3)
 */
export async function setUp(
  options: SetupOptions,
  deps: Pick<ReviewDeps, "now" | "env">,
): Promise<Setup> {
  const started = deps.now();
  const kind = await getKind(options.answerKind ?? "review");
  // a council reviews in parts (one call per provider and part); other kinds ask one provider
  const inCouncil = kind.parts !== undefined && options.config.council.length > 1;
  const { config, choice } = await providerOf(options, deps, inCouncil);
  const council = inCouncil ? config.council.map(providerMeta) : [];
  const provider = council[0] ?? providerMeta(config.provider);
  const inputIdentity = kind.inputIdentity(options.kindInput);
  // a run the bundled fake answers says so: its reported cost is play money (`stats`). A merge
  // asks no provider: whether the fake answered is what its shards' files say (shard_merge.ts)
  const fake = !options.shardResults && (await Promise.all(
    (council.length > 0 ? council : [provider]).map((p) => isBundledFake(p, deps.env, options.cwd)),
  )).every(Boolean);
  const base: RunBase = {
    reviewKind: options.kind,
    answerKind: kind.name,
    ...(inputIdentity === undefined ? {} : { kindInput: kind.recordInput(options.kindInput) }),
    ...(options.gate ? { gate: options.gate } : {}),
    ...(options.gateMode === "warn" ? { gateMode: "warn" as const } : {}),
    focus: options.focus,
    provider: provider.name,
    ...(choice && council.length === 0 ? { providerChoice: choice } : {}),
    ...(council.length > 0
      ? { council: { providers: council.map((a) => a.name), policy: config.council_policy } }
      : {}),
    model: config.model,
    ...(fake ? { fakeProvider: true } : {}),
    startedAt: started.toISOString(),
    attempts: [],
    cached: false,
  };
  const cached = options.useCache && config.cache && council.length === 0;
  const budgeted = options.gate !== undefined && config.budget?.usd_per_day !== undefined;
  return {
    started,
    kind,
    provider,
    council,
    kindInputHash: inputIdentity === undefined ? undefined : await sha256Hex(inputIdentity),
    policy: kind.policy(config),
    // a council's config may still say "auto": the identity names the provider that leads it
    identity: await verdictIdentity({ ...config, provider: provider.name }, {
      kind: options.kind,
      focus: options.focus,
      definition: kind,
    }),
    base,
    // a merge asks no model: it has no call's setting to prepare
    asksAhead: !cached && !budgeted && options.notAsked === undefined && !options.shardResults,
  };
}

/**
 * The config with the provider that reviews in place of `"auto"` (lib/providers/auto.ts), and how
 * it was chosen. A council names its own providers: nothing is chosen. A merge asks no model: it
 * takes the provider its shards name when they all name the same one.
 *
 * @throws {import("../providers/auto.ts").NoProviderError} when `auto` finds none (exit 3)
 */
async function providerOf(
  options: SetupOptions,
  deps: Pick<ReviewDeps, "env">,
  inCouncil: boolean,
): Promise<{ config: Config & { provider: ProviderName }; choice?: ProviderChoice }> {
  const { config } = options;
  if (config.provider !== AUTO_PROVIDER || inCouncil) {
    return { config: config as Config & { provider: ProviderName } };
  }
  const named = new Set(options.shardResults?.files.flatMap((s) => s.result?.providers ?? []));
  const [only] = named;
  if (named.size === 1 && isProviderName(only)) {
    return { config: { ...config, provider: only }, choice: { auto: true, skipped: [] } };
  }
  const { resolveProvider } = await import("../providers/auto.ts");
  return await resolveProvider(config, deps.env, options.cwd);
}

/**
 * How the answer kind merges a review in parts, when this one goes in parts: a change planned in
 * more than one chunk, a council, or a review split across CI runners (`split`: a shard, a
 * merge); `undefined` to ask once.
 */
export function partsOf(
  setup: Pick<Setup, "kind" | "council">,
  change: Change,
  split = false,
): KindParts | undefined {
  return change.chunks.length > 1 || setup.council.length > 0 || split
    ? setup.kind.parts
    : undefined;
}
