/**
 * The review's third stage: what the model is told — the team's guidelines that apply and the
 * acknowledgements (kinds with findings only: they are review policy, so other kinds neither hear
 * nor key them), and the prompt of the whole change, built only when asked for (a review in parts
 * builds one per part).
 *
 * @module
 */
import type { KindDefinition } from "../kinds/definition.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { Change } from "../git/types.ts";
import { type GuidelineChooser, guidelineChooser } from "../rules/apply.ts";
import type { RulesOptions } from "../rules/options.ts";
import { buildRulesReport, type RulesReport } from "../rules/report.ts";
import { type ReviewAcks, reviewAcks } from "./acks.ts";
import type { ReviewOptions } from "./types.ts";

/** What the model is told. */
export interface Prompted {
  /** The team's guidelines for any of the change's paths (a part's, in a review in parts). */
  chooser: GuidelineChooser;
  /** Those for the whole change. */
  guidelines: ReturnType<GuidelineChooser>;
  acks: ReviewAcks;
  /** The first attempt's prompt of the whole change (the kind's prompt builder loaded for it). */
  prompt(): Promise<string>;
  /** The rules report of the change, with the guidelines sent and left out. */
  rules: RulesReport;
}

/** The acknowledgements of a kind whose answers have no findings: none, and none in its key. */
const NO_ACKS: ReviewAcks = { active: [], told: [], digest: "none" };

/** What of the options the prompt reads. */
export type PromptOptions = Pick<
  ReviewOptions,
  "config" | "kind" | "focus" | "agentMessage" | "kindInput" | "acks" | "rulesNotes"
>;

/**
 * Prepare what the model is told about a collected change.
 *
 * @param options the config, prompt variant, focus, agent message, kind input, given
 *   acknowledgements and rules notes
 * @param at the answer kind, the runner (reading guideline and acks files), the repository and
 *   change, where the rules come from, and when the review started (which acknowledgements hold)
 * @throws {import("../base/errors.ts").ConfigError} for an invalid acks file
 * @throws {import("../base/errors.ts").GitError} when a tree the guidelines are read from cannot be read
 */
export async function preparePrompt(
  options: PromptOptions,
  at: {
    kind: KindDefinition;
    runner: Runner;
    repo: Repo;
    change: Change;
    rules: RulesOptions;
    started: Date;
  },
): Promise<Prompted> {
  const { kind, runner, repo, change, rules } = at;
  const chooser: GuidelineChooser = kind.findings
    ? await guidelineChooser(runner, repo, { config: options.config, rules, change })
    : () => ({ applied: [], leftOut: [] });
  const guidelines = chooser(change.files.map((f) => f.path));
  const report = buildRulesReport(rules, { change, guidelines, notes: options.rulesNotes });
  const acks = kind.findings
    ? await reviewAcks(options.acks, { runner, root: repo.root, change, now: at.started })
    : NO_ACKS;
  const prompt = async () =>
    (await kind.prompts()).prompt(change, {
      variant: options.kind,
      focus: options.focus,
      agentMessage: options.agentMessage,
      acks: acks.told,
      guidelines,
    }, options.kindInput);
  return { chooser, guidelines, acks, prompt, rules: report };
}
