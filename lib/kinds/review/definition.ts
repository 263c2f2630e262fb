/**
 * The review kind as the pipeline, the command line and the formats see it
 * (lib/kinds/definition.ts): the decoder kind of lib/kinds/review/kind.ts, the review prompts,
 * the blocking policy, and `answer.json` + `review.md`. It takes no input and declares no
 * renderers: the formats in lib/formats/ are review renderers.
 *
 * @module
 */
import type { KindDefinition } from "../definition.ts";
import { reviewKind } from "./kind.ts";
import { answerStatus, blockingFindings } from "./policy.ts";
import { buildCorrectivePrompt, buildReviewPrompt, promptTemplate } from "./prompt.ts";
import type { ReviewAnswer } from "./types.ts";

/** The review kind. */
export const reviewDefinition: KindDefinition = {
  name: "review",
  schema: reviewKind.schema,
  files: { answer: "answer.json", markdown: "review.md" },
  hasFindings: true,
  reviewsInParts: true,
  decoder: () => reviewKind,
  prompt: (change, options) =>
    buildReviewPrompt(change, {
      kind: options.variant,
      schema: reviewKind.schema,
      focus: options.focus,
      agentMessage: options.agentMessage,
      acks: options.acks,
      guidelines: options.guidelines,
    }),
  corrective: (refusalText) => buildCorrectivePrompt(refusalText, reviewKind.schema),
  templateText: promptTemplate,
  inputIdentity: () => undefined,
  recordInput: () => undefined,
  status: (answer) => answerStatus(answer as ReviewAnswer),
  blocking: (answer, { policy, notes }) =>
    blockingFindings(answer as ReviewAnswer, policy, notes).length > 0,
  recordCounts(answer) {
    const counts: Record<string, number> = {};
    for (const f of (answer as ReviewAnswer).findings) {
      counts[f.severity] = (counts[f.severity] ?? 0) + 1;
    }
    return { findingCounts: counts };
  },
};
