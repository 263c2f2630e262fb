/**
 * The words a review's answer and a team's policy share: finding severities, categories and
 * scopes (schemas/review.schema.json) and council policies, which `.review-gate.json` also names
 * (schemas/config.schema.json `fail_on`, `categories`, `council_policy`). Plain data, importing
 * nothing: the config (lib/config/) and the review kind (lib/kinds/review/types.ts, which
 * re-exports them) both read them from here, so the config needs no answer kind.
 *
 * @module
 */

/** Finding severities, most severe first (schemas/review.schema.json). */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
/** One finding severity. */
export type Severity = typeof SEVERITIES[number];

/** Finding categories (schemas/review.schema.json); policy `categories` picks which may block. */
export const CATEGORIES = [
  "bug",
  "security",
  "performance",
  "reliability",
  "maintainability",
  "style",
] as const;
/** One finding category. */
export type Category = typeof CATEGORIES[number];

/**
 * Where a finding comes from (schemas/review.schema.json): `introduced` by the change (it points at
 * changed lines: the decoder checks it), `pre-existing-touched` (there before, in code the change
 * touches) or `outside` (there before, in code the change does not touch). Only `introduced`
 * findings block unless policy `block_on_preexisting` is set.
 */
export const SCOPES = ["introduced", "pre-existing-touched", "outside"] as const;
/** One finding scope. */
export type Scope = typeof SCOPES[number];

/** Council policies (config `council_policy`): which of a council's findings block. */
export const COUNCIL_POLICIES = ["any", "majority", "all"] as const;
/** One council policy. */
export type CouncilPolicy = typeof COUNCIL_POLICIES[number];
