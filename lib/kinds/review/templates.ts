/**
 * The review prompt's templates, by prompt variant: what a verdict's identity hashes
 * (lib/review/identity.ts `templateHash`, docs/design.md "Cache identity"). Apart from the prompt
 * builder (lib/kinds/review/prompt.ts), so a cache hit hashes the template without loading the code
 * that fills it (docs/design.md "Performance notes").
 *
 * @module
 */
import reviewTemplate from "../../../prompts/review.txt" with { type: "text" };
import adversarialTemplate from "../../../prompts/adversarial-review.txt" with { type: "text" };

/** Review kinds (one prompt template each). */
export const REVIEW_KINDS = ["review", "adversarial-review"] as const;
/** One review kind. */
export type ReviewKind = typeof REVIEW_KINDS[number];

const TEMPLATES: Record<ReviewKind, string> = {
  "review": reviewTemplate,
  "adversarial-review": adversarialTemplate,
};

/** The template text of a review kind (its hash goes into the cache key). */
export function promptTemplate(kind: ReviewKind): string {
  return TEMPLATES[kind];
}
