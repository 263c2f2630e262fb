/**
 * Renderers of a compliance answer (pure; lib/kinds/definition.ts KindRenderers): the terminal's
 * headline and body, the body of `compliance.md`, and the `--json` envelope's extra fields. The
 * formats add the shared parts (change, provider, coverage warning, run folder). Item texts come
 * from the plan the run recorded (`kindInput`); an item whose text is unknown shows its id only.
 * In `compliance.md` every string the model or the plan wrote goes through
 * lib/base/inert_markdown.ts (README.md "Security model": the model's words stay words).
 *
 * @module
 */
import { formatLocation as place } from "../../base/text.ts";
import { inertMarkdown } from "../../base/inert_markdown.ts";
import type {
  KindMarkdownParts,
  KindRunView,
  KindTerminalContext,
  KindTerminalParts,
  Tone,
} from "../definition.ts";
import {
  type ComplianceAnswer,
  ITEM_STATUSES,
  type ItemAnswer,
  type ItemStatus,
  type RecordedPlan,
} from "./types.ts";

const TONES: Record<ItemStatus, Tone> = {
  done: "good",
  partial: "warn",
  missing: "bad",
  contradicted: "bad",
};

/** Statuses that block with `--fail-on-missing`. */
export const BLOCKING_STATUSES: ReadonlySet<ItemStatus> = new Set(["missing", "contradicted"]);

function recordedPlan(view: KindRunView): RecordedPlan | undefined {
  const input = view.kindInput as RecordedPlan | undefined;
  return input && Array.isArray(input.items) ? input : undefined;
}

function itemText(view: KindRunView, id: string): string {
  return recordedPlan(view)?.items.find((item) => item.id === id)?.text ?? "";
}

/** "3 of 5 items done, 1 partial, 1 missing". */
export function describeCounts(items: readonly ItemAnswer[]): string {
  const counts = new Map<ItemStatus, number>();
  for (const item of items) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  const parts = [
    `${counts.get("done") ?? 0} of ${items.length} item${items.length === 1 ? "" : "s"} done`,
  ];
  for (const status of ITEM_STATUSES.slice(1)) {
    if (counts.get(status)) parts.push(`${counts.get(status)} ${status}`);
  }
  return parts.join(", ");
}

function blockingIds(view: KindRunView, answer: ComplianceAnswer): Set<string> {
  if (!view.blocking) return new Set();
  return new Set(answer.items.filter((i) => BLOCKING_STATUSES.has(i.status)).map((i) => i.id));
}

/** The terminal's headline and body. */
export function complianceTerminal(
  view: KindRunView,
  value: unknown,
  { tone, clean }: KindTerminalContext,
): KindTerminalParts {
  const answer = value as ComplianceAnswer;
  const blocking = blockingIds(view, answer);
  const verdictTone: Tone = answer.verdict === "compliant"
    ? "good"
    : answer.verdict === "deviates"
    ? "bad"
    : "warn";
  const lines: string[] = [];
  const plan = recordedPlan(view);
  if (plan) lines.push(`Plan: ${clean(plan.path)} (${plan.items.length} items)`);
  lines.push("", clean(answer.summary));
  for (const item of answer.items) {
    const label = item.status === "done" ? "done" : item.status.toUpperCase();
    const flag = blocking.has(item.id) ? tone("bad", " BLOCKING") : "";
    lines.push(
      "",
      `${tone(TONES[item.status], `[${label}]`)} ${clean(item.id)}  ${
        clean(itemText(view, item.id))
      }${flag}`,
    );
    for (const p of item.evidence) lines.push(`  ${tone("accent", clean(place(p)))}`);
    lines.push(`  ${clean(item.note)}`);
  }
  if (answer.unplanned_changes.length > 0) {
    lines.push("", `Unplanned changes (${answer.unplanned_changes.length}):`);
    for (const change of answer.unplanned_changes) {
      lines.push(`  ${tone("accent", clean(place(change)))}  ${clean(change.description)}`);
    }
  }
  return {
    headline: tone(verdictTone, `review-gate: plan compliance ${answer.verdict}`) +
      ` — ${describeCounts(answer.items)}` +
      (blocking.size > 0 ? `, ${blocking.size} blocking` : ""),
    body: lines,
  };
}

const line = (text: string) => inertMarkdown(text, "line");
const block = (text: string) => inertMarkdown(text, "block");
const code = (text: string) => inertMarkdown(text, "code");

/** The title, extra facts and body of `compliance.md`. */
export function complianceMarkdown(view: KindRunView, value: unknown): KindMarkdownParts {
  const answer = value as ComplianceAnswer;
  const blocking = blockingIds(view, answer);
  const plan = recordedPlan(view);
  const out: string[] = [
    "## Summary",
    "",
    block(answer.summary),
    "",
    `## Plan items (${describeCounts(answer.items)})`,
    "",
  ];
  for (const item of answer.items) {
    const text = itemText(view, item.id);
    out.push(
      `### ${line(item.id)} — ${item.status}${blocking.has(item.id) ? " (blocking)" : ""}${
        text ? `: ${line(text)}` : ""
      }`,
      "",
    );
    if (item.evidence.length > 0) {
      out.push(item.evidence.map((p) => code(place(p))).join(" · "), "");
    }
    out.push(block(item.note), "");
  }
  out.push(`## Unplanned changes (${answer.unplanned_changes.length})`, "");
  if (answer.unplanned_changes.length === 0) out.push("None.", "");
  for (const change of answer.unplanned_changes) {
    out.push(`- ${code(place(change))}: ${line(change.description)}`);
  }
  if (answer.unplanned_changes.length > 0) out.push("");
  return {
    title: `Plan compliance: ${answer.verdict}`,
    facts: plan
      ? [
        `- Plan: ${code(plan.path)} (${plan.items.length} items, sha256 \`${
          plan.sha256.slice(0, 12)
        }\`)`,
      ]
      : [],
    body: out.join("\n"),
  };
}

/** Extra fields of the `--json` envelope. */
export function complianceJson(view: KindRunView, value: unknown): Record<string, unknown> {
  const answer = value as ComplianceAnswer;
  return {
    plan: recordedPlan(view) ?? null,
    blockingItems: blockingIds(view, answer).size,
  };
}
