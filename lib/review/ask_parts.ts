/**
 * The review's model calls, when it is asked in parts: the plan's chunks in several calls, or a
 * council (several providers, each asked every part) — lib/review/parts.ts, inside one setting
 * and one shared deadline — merged by the answer kind (lib/kinds/definition.ts `KindParts`).
 *
 * @module
 */
import type { Repo } from "../git/repo.ts";
import type { Change } from "../git/types.ts";
import type { KindParts } from "../kinds/definition.ts";
import { getProvider, missingBinaryMessage, resolveBinary } from "../providers/registry.ts";
import type { GuidelineChooser } from "../rules/apply.ts";
import type { ReviewAcks } from "./acks.ts";
import type { SettingAhead } from "./ahead.ts";
import { loadingJudge } from "./ask.ts";
import type { Answered } from "./finish.ts";
import type { Setup } from "./setup.ts";
import type { ReviewDeps, ReviewOptions } from "./types.ts";

/** What of the options a review in parts reads. */
export type PartsOptions = Pick<
  ReviewOptions,
  | "config"
  | "cwd"
  | "kind"
  | "kindInput"
  | "focus"
  | "agentMessage"
  | "deadline"
  | "useCache"
  | "onPartial"
>;

/**
 * Review the plan's chunks in several calls and merge their answers.
 *
 * @param at the repository, the change, the state dir (the per-part cache), the acknowledgements
 *   and guidelines (told per part), the call's setting, and the kind's parts
 *   (lib/review/setup.ts `partsOf`)
 * @returns the merged answer, the outcome, what the parts add to the record, and a council's
 *   answers
 * @throws whatever the setting (the copy, the proof's snapshots) throws
 */
export async function askInParts(
  setup: Pick<Setup, "kind" | "provider" | "council" | "identity">,
  options: PartsOptions,
  deps: Pick<ReviewDeps, "runner" | "env" | "signal" | "onProviderStart">,
  at: {
    repo: Repo;
    change: Change;
    state: string;
    acks: ReviewAcks;
    guidelines: GuidelineChooser;
    setting: SettingAhead;
    parts: KindParts;
  },
): Promise<Answered> {
  const { config } = options;
  const { council } = setup;
  const adapters = await Promise.all(
    (council.length > 0 ? council : [setup.provider]).map((meta) => getProvider(meta.name)),
  );
  const providers = adapters.map((adapter) => {
    const bin = resolveBinary(adapter, deps.env, options.cwd);
    return { adapter, bin, missingBinaryMessage: missingBinaryMessage(adapter, bin) };
  });
  deps.onProviderStart?.(providers.map((p) => p.adapter.name).join(", "));
  const waves = Math.ceil(at.change.chunks.length * providers.length / config.jobs);
  const callTimeoutMs = config.timeout_seconds * 1000;
  const deadline = Math.min(options.deadline ?? Infinity, Date.now() + callTimeoutMs * waves);
  const setting = at.setting.prepare(at.repo, at.change.toTree ?? at.change.to);
  const decoder = setup.kind.decoder(options.kindInput, at.change);
  const { reviewInParts } = await import("./parts.ts");
  const result = await setting.use((workspace, proof) =>
    reviewInParts({
      change: at.change,
      repo: at.repo,
      providers,
      // a model name is one provider's: a council asks each provider's default model
      model: council.length > 0 ? undefined : config.model,
      maxTurns: config.max_turns,
      kind: setup.kind,
      parts: at.parts,
      kindInput: options.kindInput,
      decoder,
      variant: options.kind,
      focus: options.focus,
      agentMessage: options.agentMessage,
      acks: at.acks,
      guidelines: at.guidelines,
      config,
      schemaHash: setup.identity.schemaHash,
      templateHash: setup.identity.templateHash,
      state: at.state,
      useCache: options.useCache && config.cache,
      runner: loadingJudge(deps.runner, decoder),
      env: deps.env,
      signal: deps.signal,
      deadline,
      callTimeoutMs,
      jobs: config.jobs,
      workspace,
      proof,
      onPartial: options.onPartial,
    })
  );
  const planned = at.change.chunks.length;
  const ok = result.answeredBy.size;
  const coverage = { ...result.coverage, chunks: { planned, reviewed: ok, failed: planned - ok } };
  // A part that could not run, or a council member that did not answer a part, is not in the
  // verdict: never reuse it for the whole change (a cache hit recomputes coverage as complete).
  const everyone = [...result.answeredBy.values()].every((by) => by.length >= providers.length);
  const cacheable = ok === planned && everyone;
  return {
    answer: result.outcome.answer,
    outcome: result.outcome,
    extras: { coverage, parts: result.parts, findingSources: result.sources, cacheable },
    council: council.length > 0
      ? { providers: providers.map((p) => p.adapter.name), answeredBy: result.answeredBy }
      : undefined,
  };
}
