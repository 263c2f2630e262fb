/**
 * The formats of a review plan (`review --plan-only`): terminal text, JSON and Markdown. A plan
 * calls no model, so each format says in plain words that nothing was reviewed (first rule: no
 * output calls unreviewed code reviewed). The formats made for code scanning and annotations
 * (sarif, rdjson, rdjsonl, github) are refused: with no finding in them a plan would read as a
 * clean review. With `--shard i/n` each format also says what each shard of a review split across a
 * CI matrix will do (lib/git/shards.ts). Pure.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { inertMarkdown } from "../base/inert_markdown.ts";
import { jsonPieces } from "../base/json_pieces.ts";
import { estimateTokens, planText } from "../git/coverage_text.ts";
import type { Change } from "../git/types.ts";
import { assignParts, partsText, type ShardSpec } from "../git/shards.ts";
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
 * @param shard with `--shard i/n`: the shard asked about (every shard's parts are shown)
 * @returns text ending in a newline
 * @throws {UsageError} for another format ({@linkcode checkPlanFormat})
 */
export function renderPlan(planned: Planned, format: string, shard?: ShardSpec): string {
  checkPlanFormat(format);
  if (format === "json") return JSON.stringify(planJson(planned, shard), null, 2) + "\n";
  if (format === "markdown") return planMarkdown(planned, shard);
  return planned
    ? planText(planned.change) + rulesPlanText(planned.rules) + shardsText(planned.change, shard)
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
export function renderPlanPieces(
  planned: Planned,
  format: string,
  shard?: ShardSpec,
): Iterable<string> {
  checkPlanFormat(format);
  if (format !== "json") return [renderPlan(planned, format, shard)];
  return (function* () {
    yield* jsonPieces(planJson(planned, shard));
    yield "\n";
  })();
}

/**
 * The plan for scripts: `reviewed: false` and the note first, then the parts and coverage; with a
 * shard, `shard` (the one asked about) and `shards` (each shard's parts, 1-based, and bytes).
 */
function planJson(planned: Planned, shard?: ShardSpec): Record<string, unknown> {
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
    ...(shard ? { shard, shards: shardsOf(change, shard) } : {}),
    coverage: change.coverage,
    rules: planned.rules,
  };
}

/** Each shard's parts (1-based), changed lines and bytes. */
function shardsOf(change: Change, shard: ShardSpec) {
  return assignParts(change.chunks.map((c) => c.bytes), shard.count).map((parts, i) => ({
    shard: i + 1,
    parts: parts.map((p) => p + 1),
    lines: parts.reduce((n, p) => n + change.chunks[p].lines, 0),
    bytes: parts.reduce((n, p) => n + change.chunks[p].bytes, 0),
  }));
}

/** What each shard will do, one line each, the asked one marked; "" without a shard. */
function shardsText(change: Change, shard?: ShardSpec): string {
  if (!shard) return "";
  const lines = shardsOf(change, shard).map((s) =>
    `  shard ${s.shard} of ${shard.count}: ${
      partsText(s.parts, change.chunks.length)
    } (${s.lines} changed lines, ${s.bytes} bytes)${s.shard === shard.index ? " ← this shard" : ""}`
  );
  return `Split into ${shard.count} shards (balanced by bytes), each run with --shard i/${shard.count}:\n${
    lines.join("\n")
  }\n`;
}

/** The plan as Markdown: a "NOT reviewed" heading, the note, then the terminal text verbatim. */
function planMarkdown(planned: Planned, shard?: ShardSpec): string {
  if (!planned) return "# Review plan: nothing to review\n";
  // a fence holds the text inert; bidi and control characters in paths are shown escaped
  const text = sanitizeForTerminal(
    planText(planned.change) + rulesPlanText(planned.rules) + shardsText(planned.change, shard),
  );
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
