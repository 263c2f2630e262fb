/**
 * The team's rules in one review (docs/design.md "Team rules"): the path filter collection
 * applies before budgeting, and the guidelines chosen for the collected change, read from where
 * lib/rules/options.ts says. The
 * review pipeline (lib/review/run_review.ts) calls these; the config itself was already loaded from
 * the same side (lib/rules/config_at.ts).
 *
 * In untrusted mode with no trusted tree to read from, nothing the repository wrote reaches the
 * prompt as policy: its `REVIEW.md` files are not read (the config's own `instructions` and
 * filters were already dropped by lib/rules/untrusted.ts).
 *
 * @module
 */
import type { Config } from "../config/config.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { Change, ExcludeByRule } from "../git/types.ts";
import type { ReviewGuidelines } from "../kinds/review/rules_text.ts";
import { excludeByRule } from "./exclude.ts";
import { chooseGuidelines, compilePathInstructions, guidelineCandidates } from "./guidelines.ts";
import { repositoryRulesIgnored, type RulesOptions } from "./options.ts";
import { readRuleFiles } from "./source.ts";

/**
 * The path filter for collection.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param at the config in force and where the rules come from
 */
export function pathFilterFor(
  runner: Runner,
  repo: Repo,
  at: { config: Config; rules: RulesOptions },
): ExcludeByRule {
  const { config, rules } = at;
  return excludeByRule(runner, repo, {
    settings: {
      exclude: config.exclude,
      include: config.include,
      defaultExcludes: config.default_excludes,
    },
    // an untrusted worktree's .gitattributes could hide files: its marks are not read
    from: rules.from,
    skipAttributes: repositoryRulesIgnored(rules),
  });
}

/** Chooses the guidelines for some of a change's paths (a part of a review in parts). */
export type GuidelineChooser = (paths: readonly string[]) => ReviewGuidelines;

/**
 * Read the guideline files that can apply to a collected change, once, and return what chooses
 * among them for any of its paths (lib/rules/guidelines.ts `chooseGuidelines`).
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param at the config in force, where the rules come from, and the change
 * @throws {import("../base/errors.ts").GitError} when a tree cannot be read
 */
export async function guidelineChooser(
  runner: Runner,
  repo: Repo,
  at: { config: Config; rules: RulesOptions; change: Change },
): Promise<GuidelineChooser> {
  const { config, rules, change } = at;
  const files = repositoryRulesIgnored(rules) ? new Map() : await readRuleFiles(
    runner,
    repo,
    rules.from,
    guidelineCandidates(change.files.map((f) => f.path)),
  );
  const pathInstructions = await compilePathInstructions(config.path_instructions);
  return (paths) =>
    chooseGuidelines({
      paths,
      files,
      instructions: config.instructions,
      pathInstructions,
      budgetBytes: config.budgets.guidelines_bytes,
    });
}

/**
 * The guidelines that apply to a collected change.
 *
 * @param runner the subprocess seam
 * @param repo the repository
 * @param at the config in force, where the rules come from, and the change
 * @throws {import("../base/errors.ts").GitError} when a tree cannot be read
 */
export async function guidelinesFor(
  runner: Runner,
  repo: Repo,
  at: { config: Config; rules: RulesOptions; change: Change },
): Promise<ReviewGuidelines> {
  return (await guidelineChooser(runner, repo, at))(at.change.files.map((f) => f.path));
}
