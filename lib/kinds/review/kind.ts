/**
 * The review kind as the decoder sees it (docs/design.md "Decoder", "Review kinds"): its
 * canonical schema, `schemas/review.schema.json` (validated by its ajv standalone validator,
 * generated at build time), and its coherence step — at most
 * {@linkcode MAX_FINDINGS} findings (checked before the per-finding tree lookups), then
 * lib/kinds/review/coherence.ts. Light to import (the schema is a JSON import; coherence is loaded
 * when an answer is judged), so the gates' fast paths can hash the schema.
 *
 * @module
 */
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import type { CompiledValidator, DecoderKind, JsonSchema, KindCheck } from "../../answer/types.ts";
import type { ReviewAnswer } from "./types.ts";

/** Most findings a review answer may carry (checked after the schema, before coherence). */
export const MAX_FINDINGS = 100;

/** The review kind: `schemas/review.schema.json` plus its coherence checks. */
export const reviewKind: DecoderKind<ReviewAnswer> = {
  name: "review",
  schema: reviewSchema as JsonSchema,
  // generated from schemas/review.schema.json by `deno task gen` (scripts/gen_validators.ts)
  loadValidator: async () =>
    (await import("../../generated/review_answer_validator.js")).default as CompiledValidator,
  async check(value: unknown, tree): Promise<KindCheck<ReviewAnswer>> {
    const answer = value as ReviewAnswer;
    const count = answer.findings.length;
    if (count > MAX_FINDINGS) {
      return {
        answer,
        notes: [],
        refusal: [{
          path: "/findings",
          problem:
            `has ${count} findings; at most ${MAX_FINDINGS} findings: report the most important ones`,
        }],
      };
    }
    const { checkReviewCoherence } = await import("./coherence.ts");
    return await checkReviewCoherence(answer, tree);
  },
};
