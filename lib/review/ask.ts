/**
 * The review's model call, when it is asked once: one structured call to the provider
 * (lib/session/call.ts), decoded as the run's answer kind, inside the read-only proof, in a
 * private read-only copy of the reviewed tree (lib/session/workspace.ts) — the call's setting,
 * prepared ahead or now: only when a model is about to be asked (the call's code, too, is loaded
 * only then: a cache hit never needs it). The answer of a change planned as one part is kept as
 * that part's verdict too ({@linkcode keepAsPart}). A review in parts asks in lib/review/ask_parts.ts.
 *
 * @module
 */
import { formatRefusal } from "../answer/refusal.ts";
import type { DecoderKind } from "../answer/types.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { Change } from "../git/types.ts";
import { getProvider, missingBinaryMessage, resolveBinary } from "../providers/registry.ts";
import type { GuidelineChooser } from "../rules/apply.ts";
import type { SettingAhead } from "./ahead.ts";
import type { Answered } from "./finish.ts";
import { programKey } from "./identity.ts";
import type { Setup } from "./setup.ts";
import type { ReviewDeps, ReviewOptions } from "./types.ts";

/**
 * Ask the provider about the whole change.
 *
 * @param at the repository, the change, the prompt and the call's setting
 * @returns the call's outcome, and its answer when it gave one
 * @throws whatever the setting (the copy, the proof's snapshots) or the call's set-up throws
 */
export async function askOnce(
  setup: Pick<Setup, "kind" | "provider" | "council" | "kindInputHash">,
  options: Pick<ReviewOptions, "config" | "kindInput" | "cwd">,
  deps: Pick<ReviewDeps, "runner" | "env" | "signal" | "onProviderStart">,
  at: { repo: Repo; change: Change; prompt: string; setting: SettingAhead },
): Promise<Answered> {
  const { kind } = setup;
  const adapter = await getProvider(setup.provider.name);
  const { config } = options;
  const decoderKind = kind.decoder(options.kindInput, at.change);
  deps.onProviderStart?.(adapter.name);
  const bin = resolveBinary(adapter, deps.env, options.cwd);
  const setting = at.setting.prepare(at.repo, at.change.toTree ?? at.change.to);
  // the code that keeps the answer as a part's verdict loads while the provider works, not after
  if (keepsAsPart(setup, at.change)) import("./part_verdict.ts").catch(() => {});
  const { callStructured } = await import("../session/call.ts");
  const { corrective } = await kind.prompts();
  const outcome = await setting.use((workspace, proof) =>
    callStructured({
      adapter,
      bin,
      request: {
        prompt: at.prompt,
        schema: kind.schema,
        root: at.repo.root,
        model: config.model,
        maxTurns: config.max_turns,
      },
      correctivePrompt: (refusal) => corrective(formatRefusal(refusal)),
      decode: async (input) =>
        (await import("../answer/decoder.ts")).decode(decoderKind, input, at.change.tree),
      runner: loadingJudge(deps.runner, decoderKind),
      timeoutMs: config.timeout_seconds * 1000,
      signal: deps.signal,
      env: deps.env,
      workspace,
      proof,
      missingBinaryMessage: missingBinaryMessage(adapter, bin),
    })
  );
  return { answer: outcome.answer, outcome };
}

/**
 * Keep the answer of a change planned as one part also as that part's verdict
 * (lib/review/part_verdict.ts `cacheWholeAsPart`): when the change grows to several parts, its
 * unchanged part is not asked again. Only for a kind reviewed in parts, one provider, no kind
 * input (a part's key holds none), an accepted answer. Never throws.
 *
 * @param at the state dir, the change, the guidelines told (whole, and the chooser for the part's
 *   paths), the acknowledgements' digest and what the call answered
 */
export async function keepAsPart(
  setup: Pick<Setup, "kind" | "provider" | "council" | "identity" | "kindInputHash">,
  options: Pick<ReviewOptions, "config" | "kindInput" | "cwd" | "focus" | "kind">,
  deps: Pick<ReviewDeps, "env">,
  at: {
    state: string;
    change: Change;
    guidelines: ReturnType<GuidelineChooser>;
    chooser: GuidelineChooser;
    acks: string;
    answered: Answered;
  },
): Promise<void> {
  const { kind } = setup;
  const adapter = setup.provider;
  const { change, answered } = at;
  if (!keepsAsPart(setup, change) || answered.answer === undefined) return;
  if (answered.outcome?.status !== "ok") return;
  try {
    const { cacheWholeAsPart } = await import("./part_verdict.ts");
    const bin = resolveBinary(adapter, deps.env, options.cwd);
    await cacheWholeAsPart({
      state: at.state,
      change,
      decoder: kind.decoder(options.kindInput, change),
      answer: answered.answer,
      wholeGuidelines: at.guidelines,
      identity: {
        config: options.config,
        guidelines: at.chooser(change.chunks[0].paths),
        excluded: change.excludedByRule,
        schemaHash: setup.identity.schemaHash,
        templateHash: setup.identity.templateHash,
        // as a review in parts keys it (lib/review/parts.ts)
        provider: await programKey(adapter, bin, deps.env),
        model: options.config.model,
        focus: options.focus,
        variant: options.kind,
        acks: at.acks,
      },
    });
  } catch {
    // the whole-change verdict is stored by the run either way
  }
}

/**
 * True when an accepted answer about `change` is kept as its one part's verdict too (see
 * {@linkcode keepAsPart}): a kind reviewed in parts, one provider, no kind input, one part.
 */
function keepsAsPart(
  setup: Pick<Setup, "kind" | "council" | "kindInputHash">,
  change: Change,
): boolean {
  return setup.kind.parts !== undefined && setup.council.length === 0 &&
    setup.kindInputHash === undefined && change.chunks.length === 1;
}

/**
 * `runner` (of the provider calls), which starts loading the answer kind's validator once it has
 * started the first provider: the code the answer is judged with then loads while the provider
 * works, not after it answered. A failure to load is left to the decoder, which loads it again.
 */
export function loadingJudge(runner: Runner, decoderKind: DecoderKind<unknown>): Runner {
  let loading = false;
  return (request) => {
    const child = runner(request);
    if (!loading) {
      loading = true;
      decoderKind.loadValidator?.().catch(() => {});
    }
    return child;
  };
}
