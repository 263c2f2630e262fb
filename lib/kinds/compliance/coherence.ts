/**
 * Step 3 of the decoder for the compliance kind (docs/design.md "Review kinds"): checks a
 * schema-valid
 * compliance answer against the plan and the change. Every plan item id is answered exactly once
 * and no other id appears; `done`, `partial` and `contradicted` items point at least at one place
 * in the change; every place (evidence and unplanned changes) names a file the change touches
 * (paths normalised as for review findings) with `line_start ≤ line_end ≤` the file's line count
 * (not checked for deleted files); the verdict follows from the statuses (`compliant` = every item
 * done, `deviates` = some item contradicted, else `incomplete`). The accepted answer lists its
 * items in plan order.
 *
 * @module
 */
import type { KindCheck, Refusal, TreeView } from "../../answer/types.ts";
import { resolveFile } from "../review/coherence.ts";
import type { ComplianceAnswer, EvidenceLocation, ItemAnswer, PlanItem } from "./types.ts";

/** Most places one item may cite, and most unplanned changes an answer may list. */
export const MAX_EVIDENCE = 20;
/** Most unplanned changes an answer may list. */
export const MAX_UNPLANNED = 100;

/** What the answer is judged against. */
export interface ComplianceContext {
  /** The plan's items, in plan order. */
  items: readonly PlanItem[];
  /** The reviewed tree. */
  tree: TreeView;
  /**
   * Repo-relative paths the change touches (both sides of renames); absent outside a review
   * (`decode`), where a place only has to be in the tree.
   */
  changed?: ReadonlySet<string>;
}

type Out = { notes: string[]; refusal: Refusal[] };

async function checkLocation(
  place: EvidenceLocation,
  at: string,
  context: ComplianceContext,
  out: Out,
): Promise<void> {
  if (place.line_end < place.line_start) {
    out.refusal.push({
      path: `${at}/line_end`,
      problem: `line_end ${place.line_end} is before line_start ${place.line_start}`,
    });
  }
  const resolved = await resolveFile(place.file, context.tree);
  if (!resolved.ok) {
    out.refusal.push({ path: `${at}/file`, problem: resolved.problem });
    return;
  }
  if (resolved.changes.length > 0) {
    out.notes.push(
      `${at}/file: "${place.file}" → "${resolved.path}" (${resolved.changes.join(", ")})`,
    );
    place.file = resolved.path;
  }
  if (context.changed && !context.changed.has(resolved.path)) {
    out.refusal.push({
      path: `${at}/file`,
      problem: `"${resolved.path}" is not a file this change touches: point at a changed file`,
    });
    return;
  }
  if (context.tree.isDeleted(resolved.path)) return;
  const lines = await context.tree.lineCount(resolved.path);
  if (lines === null) {
    out.refusal.push({
      path: `${at}/file`,
      problem:
        `"${resolved.path}" is not in the reviewed tree: use a path relative to the repository root`,
    });
  } else if (place.line_end > lines) {
    out.refusal.push({
      path: `${at}/line_end`,
      problem: `line_end ${place.line_end} is past the end of "${resolved.path}" (${lines} lines)`,
    });
  }
}

/** Ids: unknown, duplicate and missing ones. */
function checkIds(answer: ComplianceAnswer, items: readonly PlanItem[], out: Out): void {
  const known = new Map(items.map((item) => [item.id, item]));
  const seen = new Map<string, number>();
  for (const [i, item] of answer.items.entries()) {
    const first = seen.get(item.id);
    if (!known.has(item.id)) {
      out.refusal.push({
        path: `/items/${i}/id`,
        problem: `"${item.id}" is not a plan item id: use the ids listed with the plan`,
      });
    } else if (first !== undefined) {
      out.refusal.push({
        path: `/items/${i}/id`,
        problem: `plan item "${item.id}" is answered twice (also /items/${first}): answer it once`,
      });
    } else seen.set(item.id, i);
  }
  for (const item of items) {
    if (seen.has(item.id)) continue;
    const text = item.text.length > 60 ? `${item.text.slice(0, 59)}…` : item.text;
    out.refusal.push({
      path: "/items",
      problem: `plan item "${item.id}" (${JSON.stringify(text)}) has no entry: answer every item`,
    });
  }
}

/** The verdict the statuses call for. */
export function expectedVerdict(items: readonly ItemAnswer[]): ComplianceAnswer["verdict"] {
  if (items.some((i) => i.status === "contradicted")) return "deviates";
  return items.every((i) => i.status === "done") ? "compliant" : "incomplete";
}

function checkVerdict(answer: ComplianceAnswer, out: Out): void {
  const expected = expectedVerdict(answer.items);
  if (answer.verdict === expected) return;
  const why = expected === "deviates"
    ? "an item is contradicted"
    : expected === "compliant"
    ? "every item is done"
    : "some items are not done and none is contradicted";
  out.refusal.push({
    path: "/verdict",
    problem: `"${answer.verdict}" does not match the items: ${why}, so answer "${expected}"`,
  });
}

function checkCounts(answer: ComplianceAnswer, plan: readonly PlanItem[]): Refusal[] {
  const refusal: Refusal[] = [];
  if (answer.items.length > plan.length * 2 + 10) {
    refusal.push({
      path: "/items",
      problem:
        `has ${answer.items.length} entries for a plan of ${plan.length} items: answer each item once`,
    });
  }
  if (answer.unplanned_changes.length > MAX_UNPLANNED) {
    refusal.push({
      path: "/unplanned_changes",
      problem:
        `has ${answer.unplanned_changes.length} entries; at most ${MAX_UNPLANNED}: group them`,
    });
  }
  for (const [i, item] of answer.items.entries()) {
    if (item.evidence.length > MAX_EVIDENCE) {
      refusal.push({
        path: `/items/${i}/evidence`,
        problem: `has ${item.evidence.length} places; at most ${MAX_EVIDENCE}: cite the main ones`,
      });
    }
  }
  return refusal;
}

/**
 * Check a schema-valid compliance answer against the plan and the change.
 *
 * @param answer an answer that passed `schemas/compliance.schema.json` (not modified)
 * @param context the plan's items, the reviewed tree and the changed paths
 * @returns a normalised copy (items in plan order, repo-relative paths), notes and refusals
 */
export async function checkComplianceCoherence(
  answer: ComplianceAnswer,
  context: ComplianceContext,
): Promise<KindCheck<ComplianceAnswer>> {
  const copy = structuredClone(answer);
  const counted = checkCounts(copy, context.items);
  if (counted.length > 0) return { answer: copy, notes: [], refusal: counted };
  const out: Out = { notes: [], refusal: [] };
  checkIds(copy, context.items, out);
  for (const [i, item] of copy.items.entries()) {
    if (item.status !== "missing" && item.evidence.length === 0) {
      out.refusal.push({
        path: `/items/${i}/evidence`,
        problem: `a "${item.status}" item needs at least one place in the change`,
      });
    }
    for (const [j, place] of item.evidence.entries()) {
      await checkLocation(place, `/items/${i}/evidence/${j}`, context, out);
    }
  }
  for (const [i, change] of copy.unplanned_changes.entries()) {
    await checkLocation(change, `/unplanned_changes/${i}`, context, out);
  }
  checkVerdict(copy, out);
  const order = new Map(context.items.map((item, i) => [item.id, i]));
  const sorted = [...copy.items].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  if (out.refusal.length === 0 && sorted.some((item, i) => item !== copy.items[i])) {
    out.notes.push("/items: put in plan order");
    copy.items = sorted;
  }
  return { answer: copy, notes: out.notes, refusal: out.refusal };
}
