/**
 * The review kind as the pipeline, the command line and the formats see it
 * (lib/kinds/definition.ts): the decoder kind of lib/kinds/review/kind.ts, the review prompts,
 * the blocking policy (lib/kinds/review/policy.ts), finding fingerprints, the merge of a review in
 * parts and a council's agreement (lib/kinds/review/merge.ts, council.ts), and `answer.json` +
 * `review.md`. It takes no input and declares no renderers: the formats in lib/formats/ are review
 * renderers. Light to import (the prompt builder, the merge, the council and the fingerprints load
 * when a review needs them), so a gate's fast path and a cache hit hash its schema and template
 * without them.
 *
 * @module
 */
import type { KindDefinition, KindParts } from "../definition.ts";
import { reviewKind } from "./kind.ts";
import type { FindingSource, SourcedAnswer } from "./merge.ts";
import { answerStatus, blockingFindings, findingBlocks, policyOf } from "./policy.ts";
import { promptTemplate } from "./templates.ts";
import type { Finding, ReviewAnswer } from "./types.ts";

/** A review in parts: merged answers, each finding judged per report, a council's agreement. */
const reviewParts: KindParts = {
  merge: async (answers, labels) =>
    (await import("./merge.ts")).mergeAnswers(answers as readonly SourcedAnswer[], labels),
  async settle(answer, { sources, policy, council }) {
    const { agreements, blockingVersion } = await import("./council.ts");
    const merged = sources as readonly FindingSource[];
    const blocks = (f: Finding) => findingBlocks(f, policy);
    // the finding shown is one that blocks, whole, when any report of it does
    const findings = [...(answer as ReviewAnswer).findings];
    merged.forEach((source, i) => {
      const version = blockingVersion(source, blocks);
      if (version && findings[i]) findings[i] = { ...version };
    });
    return {
      answer: { ...(answer as ReviewAnswer), findings },
      ...(council ? { agreements: agreements(merged, council, council.policy, blocks) } : {}),
    };
  },
};

/** The review kind. */
export const reviewDefinition: KindDefinition = {
  name: "review",
  schema: reviewKind.schema,
  files: { answer: "answer.json", markdown: "review.md" },
  findings: {
    fingerprints: async (answer, tree) =>
      (await import("./fingerprint.ts")).fingerprintFindings(
        (answer as ReviewAnswer).findings,
        tree,
      ),
  },
  parts: reviewParts,
  decoder: () => reviewKind,
  async prompts() {
    const { buildCorrectivePrompt, buildReviewPrompt } = await import("./prompt.ts");
    return {
      prompt: (change, options) =>
        buildReviewPrompt(change, {
          kind: options.variant,
          schema: reviewKind.schema,
          focus: options.focus,
          agentMessage: options.agentMessage,
          acks: options.acks,
          guidelines: options.guidelines,
          part: options.part,
        }),
      corrective: (refusalText) => buildCorrectivePrompt(refusalText, reviewKind.schema),
    };
  },
  templateText: promptTemplate,
  inputIdentity: () => undefined,
  recordInput: () => undefined,
  policy: policyOf,
  status: (answer) => answerStatus(answer as ReviewAnswer),
  blocking: (answer, { policy, notes }) =>
    blockingFindings(answer as ReviewAnswer, policy, notes).length > 0,
  blockingCount: (answer, { policy, notes }) =>
    blockingFindings(answer as ReviewAnswer, policy, notes).length,
  recordCounts(answer) {
    const counts: Record<string, number> = {};
    for (const f of (answer as ReviewAnswer).findings) {
      counts[f.severity] = (counts[f.severity] ?? 0) + 1;
    }
    return { findingCounts: counts };
  },
};
