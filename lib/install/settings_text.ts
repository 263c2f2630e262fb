/**
 * An agent's hook settings file as text — Claude Code's `settings*.json` (JSON with comments and
 * trailing commas, which Claude Code reads) and Codex's `hooks.json` — parsed and edited in place
 * with jsonc-parser so every byte outside review-gate's own entries — comments, formatting, key
 * order, the user's hook groups — stays as it was. Both files hold `hooks.<Event>[] = {matcher?,
 * hooks: [{type: "command", command, …}]}`; ours are recognised by the `managed-by: review-gate`
 * comment ending their command. Our entries are removed one by one at their path (a group, event or
 * `hooks` object left empty by that is removed too) and added at the end of each event's array — or,
 * with `inPlace` (Codex, whose hook trust is keyed by position), a group of ours already there is
 * rewritten where it stands. jsonc-parser is loaded only here.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { ConfigError } from "../base/errors.ts";
import { describeJsoncError } from "../base/jsonc_error.ts";
import { MANAGED_MARKER } from "./git/stub.ts";

/** A settings object as parsed from JSON. */
export type Settings = Record<string, unknown>;

/** True for a hook entry of ours (its command carries the `managed-by: review-gate` marker). */
export function isOurHook(hook: unknown): boolean {
  return isRecord(hook) && typeof hook.command === "string" &&
    hook.command.includes(MANAGED_MARKER);
}

/**
 * Whether the settings a backup holds are the ones an uninstall leaves (pure): deep equality, with
 * an empty `hooks` object counted as absent on both sides — removing our last entry removes the
 * `hooks` object it emptied, so a file that had `"hooks": {}` before install still restores.
 *
 * @param backup the backup's parsed settings
 * @param rest the file's settings with our entries removed
 * @returns true when the backup's bytes may be written back
 */
export function sameAsBackup(backup: unknown, rest: unknown): boolean {
  const plain = (value: unknown): unknown => {
    if (!isRecord(value) || !isRecord(value.hooks) || Object.keys(value.hooks).length > 0) {
      return value;
    }
    const { hooks: _empty, ...others } = value;
    return others;
  };
  return isDeepStrictEqual(plain(backup), plain(rest));
}

type Jsonc = typeof import("jsonc-parser");

async function jsonc(): Promise<Jsonc> {
  return await import("jsonc-parser");
}

/**
 * Parse a settings file's text as JSONC.
 *
 * @param text the file's text
 * @param path the file, for the error message
 * @returns the value (any JSON value; the caller checks its shape)
 * @throws {ConfigError} naming the file, line and column of the first syntax error
 */
export async function parseSettingsText(text: string, path: string): Promise<unknown> {
  const { parse } = await jsonc();
  const errors: import("jsonc-parser").ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    throw new ConfigError(
      `Claude settings "${path}" is not valid JSON (${
        describeJsoncError(text, errors[0])
      }): fix it, then run install again`,
    );
  }
  return value;
}

/** Formatting of inserted text, taken from the file: its indent unit and line ending. */
function formattingOf(text: string): import("jsonc-parser").FormattingOptions {
  const indent = /\n([ \t]+)["}\]]/.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

function isRecord(value: unknown): value is Settings {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The index of the group that holds only our entries in `groups`, or -1. */
function ourGroupIndex(groups: unknown): number {
  if (!Array.isArray(groups)) return -1;
  return groups.findIndex((g) =>
    isRecord(g) && Array.isArray(g.hooks) && g.hooks.length > 0 && g.hooks.every(isOurHook)
  );
}

/** Where our first entry is: an array element to cut, or a property to drop (left empty). */
type Ours =
  | { kind: "element"; array: (string | number)[]; index: number }
  | { kind: "property"; path: (string | number)[] };

/** The first of our hook entries in `value`, widened to what removing it would leave empty. */
function firstOurs(value: unknown): Ours | null {
  if (!isRecord(value) || !isRecord(value.hooks)) return null;
  const hooks = value.hooks;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const [gi, group] of groups.entries()) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
      const hi = group.hooks.findIndex(isOurHook);
      if (hi < 0) continue;
      if (group.hooks.length > 1) {
        return { kind: "element", array: ["hooks", event, gi, "hooks"], index: hi };
      }
      if (groups.length > 1) return { kind: "element", array: ["hooks", event], index: gi };
      return {
        kind: "property",
        path: Object.keys(hooks).length > 1 ? ["hooks", event] : ["hooks"],
      };
    }
  }
  return null;
}

/** The whitespace a node's line starts with, or `null` when other text precedes it on its line. */
function lineIndent(text: string, offset: number): string | null {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : null;
}

/**
 * Cut one element out of an array, with the comma that separates it from its neighbour, and
 * nothing else (comments around it stay).
 */
function cutElement(text: string, elements: import("jsonc-parser").Node[], index: number): string {
  const node = elements[index];
  const end = node.offset + node.length;
  if (index > 0) {
    const prevEnd = elements[index - 1].offset + elements[index - 1].length;
    if (/^\s*,\s*$/.test(text.slice(prevEnd, node.offset))) {
      return text.slice(0, prevEnd) + text.slice(end);
    }
  }
  const next = elements[index + 1];
  if (next && /^\s*,\s*$/.test(text.slice(end, next.offset))) {
    return text.slice(0, node.offset) + text.slice(next.offset);
  }
  // A comment between the separators: cut the element and one comma next to it.
  const after = /^\s*,/.exec(text.slice(end));
  return text.slice(0, node.offset) + text.slice(end + (after ? after[0].length : 0));
}

/** Append `value` after the array's last element, on its own line at that element's indent. */
function appendElement(
  text: string,
  last: import("jsonc-parser").Node,
  value: unknown,
  format: import("jsonc-parser").FormattingOptions,
): string {
  const end = last.offset + last.length;
  const indent = lineIndent(text, last.offset);
  const unit = format.insertSpaces ? " ".repeat(format.tabSize ?? 2) : "\t";
  const eol = format.eol ?? "\n";
  const json = indent === null
    ? `, ${JSON.stringify(value)}`
    : `,${eol}${indent}${JSON.stringify(value, null, unit).split("\n").join(eol + indent)}`;
  return text.slice(0, end) + json + text.slice(end);
}

/**
 * Add `"key": value` after the object's last property, on its own line at that property's indent,
 * without touching any other text (jsonc-parser's `modify` re-formats the line before an insertion:
 * a user's one-line `"model": {"name": "x"}` became four lines).
 *
 * @returns the new text, or `null` when the object has no property to follow (the caller uses
 *   `modify`, which then only writes inside the empty braces)
 */
function appendProperty(
  text: string,
  object: import("jsonc-parser").Node,
  property: { key: string; value: unknown },
  format: import("jsonc-parser").FormattingOptions,
): string | null {
  const last = object.type === "object" ? object.children?.at(-1) : undefined;
  if (!last) return null;
  const end = last.offset + last.length;
  const indent = lineIndent(text, last.offset);
  const unit = format.insertSpaces ? " ".repeat(format.tabSize ?? 2) : "\t";
  const eol = format.eol ?? "\n";
  const key = JSON.stringify(property.key);
  const json = indent === null
    ? `, ${key}: ${JSON.stringify(property.value)}`
    : `,${eol}${indent}${key}: ${
      JSON.stringify(property.value, null, unit).split("\n").join(eol + indent)
    }`;
  return text.slice(0, end) + json + text.slice(end);
}

/** Replace one element's text with `value`, rendered at the element's indent. */
function replaceElement(
  text: string,
  node: import("jsonc-parser").Node,
  value: unknown,
  format: import("jsonc-parser").FormattingOptions,
): string {
  const indent = lineIndent(text, node.offset);
  const unit = format.insertSpaces ? " ".repeat(format.tabSize ?? 2) : "\t";
  const json = indent === null
    ? JSON.stringify(value)
    : JSON.stringify(value, null, unit).split("\n").join((format.eol ?? "\n") + indent);
  return text.slice(0, node.offset) + json + text.slice(node.offset + node.length);
}

/**
 * Edit a settings file's text: remove every entry of ours, then (when `groups` is given) add one
 * matcher group per event at the end of that event's array. With `inPlace`, a group of ours that
 * is there already is rewritten where it stands (or left alone when unchanged) and only the other
 * entries of ours are removed. The user's entries, comments and formatting are not rewritten:
 * elements are cut, replaced and appended as text at their exact offsets, and jsonc-parser's
 * `modify` is used only to add or drop a whole property.
 *
 * @param text the current text (JSONC; must parse)
 * @param groups event → our matcher group, or `null` to only remove (uninstall)
 * @param options `inPlace`: keep our groups' positions (Codex)
 * @returns the new text
 */
export async function editSettingsText(
  text: string,
  groups: Record<string, Settings> | null,
  options: { inPlace?: boolean } = {},
): Promise<string> {
  const { applyEdits, findNodeAtLocation, getNodeValue, modify, parse, parseTree } = await jsonc();
  const formattingOptions = formattingOf(text);
  const opts = { allowTrailingComma: true };
  let out = text;
  const kept = new Set<string>(); // events whose group of ours stays where it is
  if (options.inPlace && groups) {
    for (const [event, group] of Object.entries(groups)) {
      const array = findNodeAtLocation(parseTree(out, [], opts)!, ["hooks", event]);
      const index = ourGroupIndex(array ? getNodeValue(array) : undefined);
      if (index < 0) continue;
      const node = array!.children![index];
      if (JSON.stringify(getNodeValue(node)) !== JSON.stringify(group)) {
        out = replaceElement(out, node, group, formattingOptions);
      }
      kept.add(event);
    }
  }
  const skipKept = (value: unknown) => {
    if (kept.size === 0 || !isRecord(value) || !isRecord(value.hooks)) return value;
    const hooks = { ...value.hooks };
    for (const event of kept) hooks[event] = hideOurGroup(hooks[event]);
    return { ...value, hooks };
  };
  for (
    let ours = firstOurs(skipKept(parse(out, [], opts)));
    ours;
    ours = firstOurs(skipKept(parse(out, [], opts)))
  ) {
    if (ours.kind === "property") {
      out = applyEdits(out, modify(out, ours.path, undefined, { formattingOptions }));
    } else {
      const array = findNodeAtLocation(parseTree(out, [], opts)!, ours.array)!;
      out = cutElement(out, array.children ?? [], ours.index);
    }
  }
  // a new event's array (or the `hooks` object itself) after the last property already there
  const addProperty = (text: string, event: string, group: Settings): string | null => {
    const root = parseTree(text, [], opts)!;
    const hooks = findNodeAtLocation(root, ["hooks"]);
    if (hooks) {
      return appendProperty(text, hooks, { key: event, value: [group] }, formattingOptions);
    }
    const value = { [event]: [group] };
    return appendProperty(text, root, { key: "hooks", value }, formattingOptions);
  };
  for (const [event, group] of Object.entries(groups ?? {})) {
    if (kept.has(event)) continue;
    const array = findNodeAtLocation(parseTree(out, [], opts)!, ["hooks", event]);
    const last = array?.type === "array" ? array.children?.at(-1) : undefined;
    out = last
      ? appendElement(out, last, group, formattingOptions)
      : addProperty(out, event, group) ??
        applyEdits(out, modify(out, ["hooks", event], [group], { formattingOptions }));
  }
  return out;
}

/** The array with our (kept) group replaced by a placeholder that holds no entry of ours. */
function hideOurGroup(groups: unknown): unknown {
  const index = ourGroupIndex(groups);
  if (index < 0) return groups;
  const copy = [...(groups as unknown[])];
  copy[index] = { kept: true };
  return copy;
}
