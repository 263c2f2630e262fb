/**
 * The formats of a review plan (`review --plan-only`): terminal text, JSON and Markdown. A plan
 * calls no model, so each format says in plain words that nothing was reviewed (first rule: no
 * output calls unreviewed code reviewed). The formats made for code scanning and annotations
 * (sarif, rdjson, rdjsonl, github) are refused: with no finding in them a plan would read as a
 * clean review. Pure.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { inertMarkdown } from "../base/inert_markdown.ts";
import { jsonPieces } from "../base/json_pieces.ts";
import { estimateTokens, planText } from "../git/coverage_text.ts";
import type { Change } from "../git/types.ts";
import type { RulesReport } from "../rules/report.ts";
import { sanitizeForTerminal } from "./sanitize.ts";

/** A planned change and its rules, or `null` when there is nothing to review. */
export type Planned = { change: Change; rules: RulesReport } | null;

/** The formats a plan can be shown in. */
export const PLAN_FORMATS = ["terminal", "json", "markdown"] as const;

/** The sentence every plan format carries. */
export const PLAN_NOTE =
  "NOT reviewed: this is a plan only; no model was called. Run review without --plan-only to review the change.";

/**
 * Refuse a format a plan cannot be shown in.
 *
 * @param format a format name
 * @throws {UsageError} for sarif, rdjson, rdjsonl and github, naming the formats a plan has
 */
export function checkPlanFormat(format: string): void {
  if ((PLAN_FORMATS as readonly string[]).includes(format)) return;
  throw new UsageError(
    `--plan-only prints a plan, not a review: the ${format} format would show it as a review with no findings; use ${
      PLAN_FORMATS.join(", ")
    }`,
  );
}

/**
 * A plan in one format.
 *
 * @param planned the plan ({@linkcode Planned})
 * @param format one of {@linkcode PLAN_FORMATS}
 * @returns text ending in a newline
 * @throws {UsageError} for another format ({@linkcode checkPlanFormat})
 */
export function renderPlan(planned: Planned, format: string): string {
  checkPlanFormat(format);
  if (format === "json") return JSON.stringify(planJson(planned), null, 2) + "\n";
  if (format === "markdown") return planMarkdown(planned);
  return planned
    ? planText(planned.change) + rulesPlanText(planned.rules)
    : "review-gate: nothing to review\n";
}

/**
 * A plan in one format, its text in pieces (joined, {@linkcode renderPlan}'s): the json plan of a
 * 1M-line change names ~100,000 omitted hunks (~12 MB), handed over piece by piece
 * (lib/base/json_pieces.ts), never one string; every other format is one piece.
 *
 * @param planned the plan ({@linkcode Planned})
 * @param format one of {@linkcode PLAN_FORMATS}
 * @returns the pieces, final newline included
 * @throws {UsageError} for another format ({@linkcode checkPlanFormat})
 */
export function renderPlanPieces(planned: Planned, format: string): Iterable<string> {
  checkPlanFormat(format);
  if (format !== "json") return [renderPlan(planned, format)];
  return (function* () {
    yield* jsonPieces(planJson(planned));
    yield "\n";
  })();
}

/** The plan for scripts: `reviewed: false` and the note first, then the parts and coverage. */
function planJson(planned: Planned): Record<string, unknown> {
  const head = { reviewed: false, note: PLAN_NOTE };
  if (!planned) {
    return { ...head, target: null, calls: 0, parts: [], coverage: null, rules: null };
  }
  const { change } = planned;
  return {
    ...head,
    target: change.label,
    calls: change.chunks.length,
    parts: change.chunks.map((c, i) => ({
      part: i + 1,
      files: c.paths,
      lines: c.lines,
      bytes: c.bytes,
      estimatedTokens: estimateTokens(c.bytes),
    })),
    coverage: change.coverage,
    rules: planned.rules,
  };
}

/** The plan as Markdown: a "NOT reviewed" heading, the note, then the terminal text verbatim. */
function planMarkdown(planned: Planned): string {
  if (!planned) return "# Review plan: nothing to review\n";
  // a fence holds the text inert; bidi and control characters in paths are shown escaped
  const text = sanitizeForTerminal(planText(planned.change) + rulesPlanText(planned.rules));
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return [
    "# Review plan: NOT reviewed",
    "",
    `- Change: ${inertMarkdown(planned.change.label, "line")}`,
    "",
    `> ${PLAN_NOTE}`,
    "",
    fence,
    text.trimEnd(),
    fence,
    "",
  ].join("\n");
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** The team's rules in the plan: guidelines that would be sent, files excluded by rule, notes. */
function rulesPlanText(rules: RulesReport): string {
  const out: string[] = [];
  const from = rules.from === "worktree" ? "" : ` (rules read from ${rules.from})`;
  if (rules.guidelines.length === 0) out.push(`Guidelines${from}: none applies`);
  else out.push(`Guidelines${from}:`);
  for (const g of rules.guidelines) {
    out.push(
      `  ${JSON.stringify(g.source)} (applies to ${g.appliesTo}; ${g.bytes} B${
        g.cut ? `; cut: ${g.cut}` : ""
      })`,
    );
  }
  for (const g of rules.guidelinesLeftOut) {
    out.push(`  left out: ${JSON.stringify(g.source)} (${g.reason})`);
  }
  if (rules.excluded.length > 0) {
    out.push("Excluded by rule (never sent, not counted against the budget):");
    for (const e of rules.excluded) out.push(`  ${JSON.stringify(e.path)} (${e.rule})`);
  }
  if (rules.editedRuleFiles.length > 0) {
    out.push(`This change edits review rules: ${rules.editedRuleFiles.join(", ")}`);
  }
  for (const note of rules.notes) out.push(note);
  return sanitizeForTerminal(out.join("\n") + "\n");
}
