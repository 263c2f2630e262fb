/**
 * Where a review's rules come from and whether the repository is trusted (light to import: the
 * gates' fast paths use it for verdict memo keys). In untrusted mode with no trusted tree to read
 * from, nothing the repository wrote is used as policy: its `REVIEW.md` files, `.gitattributes`
 * marks and acknowledgements are not read, and its config may only make the review stricter
 * (lib/rules/untrusted.ts).
 *
 * @module
 */
import { FROM_WORKTREE, type RulesFrom } from "./source.ts";

/** Where a review's rules come from. */
export interface RulesOptions {
  /** Where `.review-gate.json`, `REVIEW.md` and `.gitattributes` are read. */
  from: RulesFrom;
  /** The repository is not trusted (a fork's pull request): see the module doc. */
  untrusted: boolean;
}

/** A local review of your own work: rules from the worktree, trusted. */
export const LOCAL_RULES: RulesOptions = { from: FROM_WORKTREE, untrusted: false };

/** True when the repository's own rule files may not be used (untrusted, no trusted tree). */
export function repositoryRulesIgnored(rules: RulesOptions): boolean {
  return rules.untrusted && rules.from.kind === "worktree";
}
