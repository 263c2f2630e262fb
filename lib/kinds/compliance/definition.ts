/**
 * The compliance kind (docs/design.md "Review kinds"; lib/kinds/definition.ts): a change judged
 * against
 * a plan. Chosen with `review --plan PLAN.md`; `--fail-on-missing` makes missing or contradicted
 * items block. The answer is `compliance.json` + `compliance.md`; the run records the plan's
 * path, hash and items. A fully compliant answer is `approved`, anything else `needs-attention`.
 *
 * @module
 */
import type { KindDefinition } from "../definition.ts";
import { COMPLIANCE_SCHEMA, complianceDecoder } from "./kind.ts";
import { complianceCli, FAIL_ON_MISSING } from "./cli.ts";
import { COMPLIANCE_TEMPLATE } from "./template.ts";
import {
  BLOCKING_STATUSES,
  complianceJson,
  complianceMarkdown,
  complianceTerminal,
} from "./render.ts";
import type { ComplianceAnswer, CompliancePlan, RecordedPlan } from "./types.ts";
import { policyOf } from "../review/policy.ts";

export { FAIL_ON_MISSING };

const plan = (input: unknown) => input as CompliancePlan;

/** The compliance kind. */
export const complianceDefinition: KindDefinition = {
  name: "compliance",
  schema: COMPLIANCE_SCHEMA,
  files: { answer: "compliance.json", markdown: "compliance.md" },
  cli: complianceCli,
  render: { terminal: complianceTerminal, markdown: complianceMarkdown, json: complianceJson },
  decoder: (input, change) => complianceDecoder(plan(input).items, change),
  async prompts() {
    const { buildComplianceCorrective, buildCompliancePrompt } = await import("./prompt.ts");
    return {
      prompt: (change, options, input) => buildCompliancePrompt(change, plan(input), options),
      corrective: buildComplianceCorrective,
    };
  },
  templateText: () => COMPLIANCE_TEMPLATE,
  inputIdentity: (input) => plan(input).sha256,
  recordInput(input): RecordedPlan {
    const { path, sha256, items } = plan(input);
    return { path, sha256, items };
  },
  // its blocking ignores the config's review policy; the formats are given it all the same
  policy: policyOf,
  status: (answer) =>
    (answer as ComplianceAnswer).verdict === "compliant" ? "approved" : "needs-attention",
  blocking: (answer, { switches }) =>
    switches.has(FAIL_ON_MISSING) &&
    (answer as ComplianceAnswer).items.some((item) => BLOCKING_STATUSES.has(item.status)),
  blockingCount: (answer, { switches }) =>
    switches.has(FAIL_ON_MISSING)
      ? (answer as ComplianceAnswer).items.filter((item) => BLOCKING_STATUSES.has(item.status))
        .length
      : 0,
  recordCounts(answer) {
    const counts: Record<string, number> = {};
    for (const item of (answer as ComplianceAnswer).items) {
      counts[item.status] = (counts[item.status] ?? 0) + 1;
    }
    return { itemCounts: counts };
  },
};
