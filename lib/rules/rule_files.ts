/**
 * The files that hold review-gate's rules in a repository: the config `.review-gate.json` at the
 * root, `REVIEW.md` guidelines in any directory, `.gitattributes` in any directory (its
 * `linguist-generated` and `-diff` marks exclude files), and the `.review-gate/` folder
 * (acknowledgements). A change that edits them is reviewed like any code, and reported: when the
 * rules come from a trusted side (a pull request's base, a turn's baseline, what the remote already
 * has for a push) its edits do not apply to its own review. The Stop gates use
 * {@linkcode isRuleFile} to tell a turn that edits its own
 * reviewer's rules.
 *
 * @module
 */
import { REPO_CONFIG_FILE } from "../config/config.ts";

/** The guidelines file name, at the root and in any directory. */
export const GUIDELINES_FILE = "REVIEW.md";

/** Where rules live, for messages and docs. */
export const RULE_FILES: readonly string[] = [
  REPO_CONFIG_FILE,
  `**/${GUIDELINES_FILE}`,
  "**/.gitattributes",
  ".review-gate/**",
];

/**
 * True when a repo-relative path holds review-gate rules.
 *
 * @example
 * ```ts
 * import { isRuleFile } from "./rule_files.ts";
 * isRuleFile(".review-gate.json"); // true
 * isRuleFile("src/db/REVIEW.md"); // true
 * isRuleFile("src/.review-gate.json"); // false (only the root one is read)
 * ```
 */
export function isRuleFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return path === REPO_CONFIG_FILE || name === GUIDELINES_FILE || name === ".gitattributes" ||
    path.startsWith(".review-gate/");
}

/**
 * The rule files among a change's paths.
 *
 * @param paths changed repo-relative paths (both sides of renames welcome)
 * @returns the rule files, sorted, without duplicates
 */
export function ruleFileEdits(paths: Iterable<string>): string[] {
  return [...new Set([...paths].filter(isRuleFile))].sort();
}
