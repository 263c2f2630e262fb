/**
 * The compliance kind as the decoder sees it (docs/design.md "Decoder", "Review
 * kinds"): its canonical schema, `schemas/compliance.schema.json` (validated by its ajv standalone
 * validator, generated at build time), and a coherence step bound to
 * one plan and one change (lib/kinds/compliance/coherence.ts, loaded when an answer is judged).
 *
 * @module
 */
import complianceSchema from "../../../schemas/compliance.schema.json" with { type: "json" };
import type { CompiledValidator, DecoderKind, JsonSchema, KindCheck } from "../../answer/types.ts";
import type { Change } from "../../git/types.ts";
import type { ComplianceAnswer, PlanItem } from "./types.ts";

/** The canonical compliance schema. */
export const COMPLIANCE_SCHEMA = complianceSchema as JsonSchema;

/**
 * The paths a change touches, both sides of renames and copies.
 *
 * @param change the collected change
 */
export function changedPaths(change: Pick<Change, "files">): Set<string> {
  const paths = new Set<string>();
  for (const file of change.files) {
    paths.add(file.path);
    if (file.oldPath) paths.add(file.oldPath);
  }
  return paths;
}

/**
 * The decoder kind for answers about one plan.
 *
 * @param items the plan's items, in plan order
 * @param change the change under review; without it (`decode`) places only have to be in the tree
 * @returns a kind whose coherence step checks ids, places and the verdict
 */
export function complianceDecoder(
  items: readonly PlanItem[],
  change?: Pick<Change, "files">,
): DecoderKind<ComplianceAnswer> {
  const changed = change ? changedPaths(change) : undefined;
  return {
    name: "compliance",
    schema: COMPLIANCE_SCHEMA,
    // generated from schemas/compliance.schema.json by `deno task gen` (scripts/gen_validators.ts)
    loadValidator: async () =>
      (await import("../../generated/compliance_answer_validator.js")).default as CompiledValidator,
    async check(value, tree): Promise<KindCheck<ComplianceAnswer>> {
      const { checkComplianceCoherence } = await import("./coherence.ts");
      return await checkComplianceCoherence(value as ComplianceAnswer, { items, tree, changed });
    },
  };
}
