/**
 * The compliance prompt (pure): the change's label and coverage (file names fenced as data), the
 * plan's text and its items with their ids — both fenced like the diff, as data — every answer key
 * with its meaning, and the
 * diff. The corrective resume uses the shared corrective template with this kind's keys.
 *
 * @module
 */
import { fillTemplate } from "../../base/template.ts";
import type { Change } from "../../git/types.ts";
import {
  buildCorrectivePrompt,
  describeAnswerKeys,
  describeCoverage,
  describeExcluded,
  pickNonce,
} from "../review/prompt.ts";
import { fenceFileLists } from "../review/rules_text.ts";
import { COMPLIANCE_SCHEMA } from "./kind.ts";
import type { CompliancePlan, PlanItem } from "./types.ts";
import { COMPLIANCE_TEMPLATE } from "./template.ts";

export { COMPLIANCE_TEMPLATE };

/** One line per item: `- "2.1": text (under "Phase 2") (ticked in the plan)`. */
export function describeItems(items: readonly PlanItem[]): string {
  return items.map((item) =>
    `- ${JSON.stringify(item.id)}: ${item.text || "(no text)"}` +
    (item.section ? ` (under ${JSON.stringify(item.section)})` : "") +
    (item.checked ? " (ticked in the plan)" : "")
  ).join("\n");
}

/**
 * Build the first-attempt prompt.
 *
 * @param change the change under review
 * @param plan the parsed plan
 * @param options `focus` (`--focus`), `nonce` (tests)
 * @returns the prompt; plan, items and diff each appear once, fenced by a nonce found in none
 */
export function buildCompliancePrompt(
  change: Change,
  plan: CompliancePlan,
  options: { focus?: string; nonce?: string } = {},
): string {
  const items = describeItems(plan.items);
  const notes = describeCoverage(change) + "\n" + describeExcluded(change);
  const nonce = options.nonce ??
    pickNonce([change.diff, plan.text, items, options.focus ?? "", notes].join("\n"));
  const focus = options.focus?.trim()
    ? `\nThe user asks you to focus on: ${JSON.stringify(options.focus.trim())}\n`
    : "";
  return fillTemplate(COMPLIANCE_TEMPLATE, {
    target: change.label,
    coverage: fenceFileLists(notes, nonce),
    plan: plan.text.trimEnd(),
    items,
    focus,
    answer_keys: describeAnswerKeys(COMPLIANCE_SCHEMA),
    nonce,
    diff: change.diff.endsWith("\n") ? change.diff.slice(0, -1) : change.diff,
  });
}

/**
 * Build the corrective prompt of the one resume.
 *
 * @param refusalText the refusal lines, formatted
 */
export function buildComplianceCorrective(refusalText: string): string {
  return buildCorrectivePrompt(refusalText, COMPLIANCE_SCHEMA);
}
