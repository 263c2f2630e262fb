/**
 * Plan parsing (pure): a markdown plan → items with ids the model answers with. What counts as an
 * item:
 * - with any checklist item (`- [ ] …`, `- [x] …`) in the plan, only checklist items do; other
 *   list items nested under one are folded into its text;
 * - otherwise every top-level list item (`- …`, `* …`, `1. …`, `1) …`) and every numbered item
 *   nested in one; nested bullets are folded into their item's text.
 * A list item that is not an item but has items under it (`- Phase 1` over checklist items) names
 * their section, as does the nearest heading. When the top-level items sit in two or more
 * sections, the plan is phased and ids are `<phase>.<n>` (`2.1` = phase 2, item 1; items before
 * the first phase get phase 0); otherwise ids are `1`, `2`, …. A nested item's id extends its
 * parent's (`3.1`). Fenced code blocks, a leading front-matter block and HTML comments are
 * skipped; continuation lines indented under an item join its text.
 *
 * @module
 */
import type { PlanItem } from "./types.ts";

/** Most items a plan may have. */
export const MAX_PLAN_ITEMS = 200;
/** Longest item text kept, in characters (the plan text itself goes to the model whole). */
export const MAX_ITEM_CHARS = 400;

interface ListNode {
  indent: number;
  numbered: boolean;
  checklist: boolean;
  checked: boolean;
  text: string[];
  heading?: string;
  children: ListNode[];
  parent?: ListNode;
}

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:\s+(.*))?$/;
const CHECKBOX = /^\[([ xX])\](?:\s+|$)(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

function indentOf(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === " ") width++;
    else if (ch === "\t") width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** Lines that carry plan content: code fences, front matter and HTML comments blanked. */
function contentLines(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) lines.fill("", 0, end + 1);
  }
  let fence: string | null = null;
  let comment = false;
  return lines.map((line) => {
    const open = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (open && open[0] === fence[0] && open.length >= fence.length) fence = null;
      return "";
    }
    if (open) {
      fence = open;
      return "";
    }
    if (comment || line.trimStart().startsWith("<!--")) {
      comment = !line.includes("-->");
      return "";
    }
    return line;
  });
}

/** Build the list forest: every list item with its nesting, continuation text and heading. */
function listForest(text: string): ListNode[] {
  const roots: ListNode[] = [];
  let heading: string | undefined;
  let stack: ListNode[] = [];
  for (const line of contentLines(text)) {
    const head = HEADING.exec(line);
    if (head) {
      heading = head[2].trim() || undefined;
      stack = [];
      continue;
    }
    if (line.trim() === "") continue;
    const indent = indentOf(line);
    const item = LIST_ITEM.exec(line);
    if (!item) {
      // continuation of the innermost item it is indented under; otherwise a paragraph ends lists
      while (stack.length > 0 && indent <= stack.at(-1)!.indent) stack.pop();
      if (stack.length > 0) stack.at(-1)!.text.push(line.trim());
      continue;
    }
    while (stack.length > 0 && indent <= stack.at(-1)!.indent) stack.pop();
    const box = CHECKBOX.exec(item[3] ?? "");
    const node: ListNode = {
      indent,
      numbered: /\d/.test(item[2]),
      checklist: box !== null,
      checked: box !== null && box[1] !== " ",
      text: [(box ? box[2] : item[3] ?? "").trim()],
      heading,
      children: [],
      parent: stack.at(-1),
    };
    (node.parent?.children ?? roots).push(node);
    stack.push(node);
  }
  return roots;
}

function joinText(node: ListNode): string {
  return node.text.filter((t) => t !== "").join(" ").replace(/\s+/g, " ").trim();
}

function cut(text: string): string {
  return text.length > MAX_ITEM_CHARS ? text.slice(0, MAX_ITEM_CHARS - 1) + "…" : text;
}

interface Draft {
  item: PlanItem;
  parent?: Draft;
  children: Draft[];
}

/** Walk the forest: items, folded text, section labels. */
function draftItems(roots: ListNode[], checklistMode: boolean): Draft[] {
  const top: Draft[] = [];
  const walk = (node: ListNode, depth: number, owner: Draft | undefined, label?: string) => {
    const qualifies = checklistMode ? node.checklist : depth === 0 || node.numbered;
    if (!qualifies && owner) {
      owner.item.text += `; ${joinText(node)}`;
      for (const child of node.children) walk(child, depth + 1, owner, label);
      return;
    }
    if (!qualifies) {
      const ownLabel = joinText(node) || label;
      for (const child of node.children) walk(child, depth + 1, undefined, ownLabel);
      return;
    }
    const section = owner?.item.section ?? label ?? node.heading;
    const draft: Draft = {
      item: {
        id: "",
        text: joinText(node),
        ...(section ? { section } : {}),
        ...(node.checked ? { checked: true } : {}),
      },
      parent: owner,
      children: [],
    };
    (owner?.children ?? top).push(draft);
    for (const child of node.children) walk(child, depth + 1, draft, label);
  };
  for (const root of roots) walk(root, 0, undefined);
  return top;
}

/** Give ids: phased (`<phase>.<n>`) when top-level items sit in two or more sections. */
function assignIds(top: Draft[]): PlanItem[] {
  const sections = [...new Set(top.map((d) => d.item.section).filter((s) => s !== undefined))];
  const phased = sections.length >= 2;
  const counters = new Map<string, number>();
  const out: PlanItem[] = [];
  const visit = (draft: Draft, id: string) => {
    draft.item.id = id;
    draft.item.text = cut(draft.item.text.replace(/^; /, ""));
    out.push(draft.item);
    draft.children.forEach((child, i) => visit(child, `${id}.${i + 1}`));
  };
  for (const draft of top) {
    const phase = phased ? String(sections.indexOf(draft.item.section!) + 1) : "";
    const n = (counters.get(phase) ?? 0) + 1;
    counters.set(phase, n);
    visit(draft, phased ? `${phase}.${n}` : String(n));
  }
  return out;
}

/**
 * Parse a plan into items, in plan order.
 *
 * @param text the plan's markdown
 * @returns the items with ids (empty when the plan has no list items); items with empty text are
 *   kept (the model still sees the plan text)
 */
export function parsePlan(text: string): PlanItem[] {
  const roots = listForest(text);
  const any = (nodes: ListNode[]): boolean => nodes.some((n) => n.checklist || any(n.children));
  return assignIds(draftItems(roots, any(roots)));
}
