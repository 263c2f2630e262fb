/**
 * The Claude Code rules `install --guard` writes beside the `PreToolUse` guard, so that the agent
 * cannot write review-gate's state nor read the key that authenticates it (lib/install/
 * guard_paths.ts says which paths). Verified against the pinned Claude Code 2.1.332 (its settings
 * schema, and test/contract/claude_sandbox_test.ts):
 * - `permissions.deny`: `Edit(//<path>/**)` refuses its Write and Edit tools there and `Read(//…)`
 *   its Read tool (`//` anchors a rule at the filesystem root; a single `/` would be relative to
 *   the settings file's project). Claude Code merges these into the sandbox's deny lists.
 * - `sandbox.enabled: true` runs every Bash command in its OS sandbox (bubblewrap on Linux,
 *   Seatbelt on macOS); `sandbox.allowUnsandboxedCommands: false` makes it ignore a command's
 *   `dangerouslyDisableSandbox`; `sandbox.filesystem.denyWrite` / `denyRead` name the same paths
 *   (absolute) for the sandbox itself. Without a working sandbox Claude Code warns and runs the
 *   command unconfined (`sandbox.failIfUnavailable` is left to the user): `doctor` says so.
 *
 * Every value is recognised by its exact text (a JSON string cannot carry our marker). Install
 * adds the elements that are missing and sets the two switches; uninstall takes out the elements
 * the pre-install backup did not have and gives the switches back the backup's values (deleting
 * them, and containers left empty, where the backup had none).
 *
 * @module
 */
import type { GuardTargets } from "../guard_paths.ts";
import type { Settings } from "../settings_text.ts";

/** One value the guard puts into the settings: an array element, or a switch. */
export type GuardItem =
  | { kind: "element"; path: readonly string[]; value: string }
  | { kind: "switch"; path: readonly string[]; value: boolean };

/**
 * Claude Code's permission rule for a directory's subtree (or, with `file`, one file), anchored at
 * the filesystem root.
 */
export function pathRule(tool: "Read" | "Edit", path: string, file = false): string {
  return `${tool}(/${path.replace(/\/+$/, "")}${file ? "" : "/**"})`;
}

/**
 * Every item of the guard's rules for the given paths.
 *
 * @param targets from `guardTargets` (absolute, resolved)
 * @returns the items, permission rules first
 */
export function claudeGuardItems(targets: GuardTargets): GuardItem[] {
  const element = (path: string[], value: string): GuardItem => ({
    kind: "element",
    path,
    value,
  });
  const file = (p: string) => targets.files?.includes(p) ?? false;
  return [
    ...targets.writeDenied.map((p) =>
      element(["permissions", "deny"], pathRule("Edit", p, file(p)))
    ),
    ...targets.readDenied.map((p) => element(["permissions", "deny"], pathRule("Read", p))),
    { kind: "switch", path: ["sandbox", "enabled"], value: true },
    { kind: "switch", path: ["sandbox", "allowUnsandboxedCommands"], value: false },
    ...targets.writeDenied.map((p) => element(["sandbox", "filesystem", "denyWrite"], p)),
    ...targets.readDenied.map((p) => element(["sandbox", "filesystem", "denyRead"], p)),
  ];
}

/** The value at `path` in a parsed settings value, or `undefined`. */
export function valueAt(settings: unknown, path: readonly (string | number)[]): unknown {
  let at: unknown = settings;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** True when the settings hold the item (the element in its array, the switch at its value). */
export function hasItem(settings: unknown, item: GuardItem): boolean {
  const at = valueAt(settings, item.path);
  return item.kind === "element" ? Array.isArray(at) && at.includes(item.value) : at === item.value;
}

/**
 * Check that the settings can take the items: every container on their paths is an object (an
 * array at the end for elements).
 *
 * @returns a problem sentence, or `null`
 */
export function checkGuardShape(settings: Settings, items: readonly GuardItem[]): string | null {
  for (const item of items) {
    for (let i = 1; i < item.path.length; i++) {
      const at = valueAt(settings, item.path.slice(0, i));
      if (at !== undefined && (typeof at !== "object" || at === null || Array.isArray(at))) {
        return `"${item.path.slice(0, i).join(".")}" is not an object`;
      }
    }
    const at = valueAt(settings, item.path);
    if (item.kind === "element" && at !== undefined && !Array.isArray(at)) {
      return `"${item.path.join(".")}" is not an array`;
    }
  }
  return null;
}

type Jsonc = typeof import("jsonc-parser");

function formatting(text: string): import("jsonc-parser").FormattingOptions {
  const indent = /\n([ \t]+)["}\]]/.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/**
 * Add the items the settings text lacks: elements at the end of their arrays (arrays and objects
 * created where missing), switches set. Every other byte stays.
 *
 * @param text the settings text (JSONC; must parse)
 * @returns the new text
 */
export async function addGuardItems(text: string, items: readonly GuardItem[]): Promise<string> {
  const { applyEdits, modify, parse }: Jsonc = await import("jsonc-parser");
  const formattingOptions = formatting(text);
  let out = text.trim() === "" ? "{}\n" : text;
  for (const item of items) {
    const value = parse(out, [], { allowTrailingComma: true });
    if (hasItem(value, item)) continue;
    const at = valueAt(value, item.path);
    const edits = item.kind === "switch"
      ? modify(out, [...item.path], item.value, { formattingOptions })
      : Array.isArray(at)
      ? modify(out, [...item.path, at.length], item.value, {
        formattingOptions,
        isArrayInsertion: true,
      })
      : modify(out, [...item.path], [item.value], { formattingOptions });
    out = applyEdits(out, edits);
  }
  return out;
}

/**
 * Take the items out of the settings text, keeping what the user had before install: an element
 * the backup also holds stays; a switch that still has our value gets the backup's value back (or
 * is deleted when the backup had none); a container on an item's path that is left empty is
 * deleted when the backup did not have it.
 *
 * @param text the settings text (JSONC; must parse)
 * @param backup the parsed pre-install settings, or `null` when install created the file
 * @returns the new text
 */
export async function removeGuardItems(
  text: string,
  items: readonly GuardItem[],
  backup: unknown,
): Promise<string> {
  const { applyEdits, modify, parse }: Jsonc = await import("jsonc-parser");
  const formattingOptions = formatting(text);
  let out = text;
  const edit = (path: (string | number)[], value: unknown) => {
    out = applyEdits(out, modify(out, path, value, { formattingOptions }));
  };
  for (const item of items) {
    const value = parse(out, [], { allowTrailingComma: true });
    if (!hasItem(value, item) || hasItem(backup, item)) continue;
    if (item.kind === "switch") edit([...item.path], valueAt(backup, item.path));
    else {edit(
        [...item.path, (valueAt(value, item.path) as unknown[]).indexOf(item.value)],
        undefined,
      );}
    for (let depth = item.path.length; depth > 0; depth--) {
      const path = item.path.slice(0, depth);
      const left = valueAt(parse(out, [], { allowTrailingComma: true }), path);
      const empty = Array.isArray(left)
        ? left.length === 0
        : typeof left === "object" && left !== null && Object.keys(left).length === 0;
      if (!empty || valueAt(backup, path) !== undefined) break;
      edit([...path], undefined);
    }
  }
  return out;
}

/** How far the rules protect the gate's state. */
export type GuardLevel = "sandbox" | "tool-rules" | "none";

/**
 * The effective settings of several scopes, as Claude Code merges them: arrays concatenated, a
 * switch taken from the highest-precedence scope that sets it.
 *
 * @param scopes parsed settings, highest precedence first (local, project, user)
 * @returns the merged value of the guard's keys only
 */
export function mergeScopes(scopes: readonly unknown[]): Settings {
  const deny: unknown[] = [];
  const denyWrite: unknown[] = [];
  const denyRead: unknown[] = [];
  const sandbox: Settings = {};
  for (const scope of [...scopes].reverse()) {
    for (
      const [list, path] of [[deny, ["permissions", "deny"]], [denyWrite, [
        "sandbox",
        "filesystem",
        "denyWrite",
      ]], [denyRead, ["sandbox", "filesystem", "denyRead"]]] as const
    ) {
      const at = valueAt(scope, path);
      if (Array.isArray(at)) list.push(...at);
    }
    for (const key of ["enabled", "allowUnsandboxedCommands"]) {
      const at = valueAt(scope, ["sandbox", key]);
      if (at !== undefined) sandbox[key] = at;
    }
  }
  return {
    permissions: { deny },
    sandbox: { ...sandbox, filesystem: { denyWrite, denyRead } },
  };
}

/**
 * The level the merged settings reach for the given paths.
 *
 * @param merged from {@linkcode mergeScopes}
 * @param items from {@linkcode claudeGuardItems}
 * @param sandboxProblem why the OS sandbox cannot run here, or `null` when it can
 * @returns the level and, below `sandbox`, the first reason in words
 */
export function claudeGuardLevel(
  merged: Settings,
  items: readonly GuardItem[],
  sandboxProblem: string | null,
): { level: GuardLevel; why?: string } {
  const rules = items.filter((i) => i.path[0] === "permissions");
  const missingRule = rules.find((i) => !hasItem(merged, i));
  if (missingRule) {
    return {
      level: "none",
      why: `no rule keeps its file tools out of the state (missing ${
        (missingRule as { value: string }).value
      })`,
    };
  }
  const missing = items.find((i) => i.path[0] === "sandbox" && !hasItem(merged, i));
  if (missing) {
    const why = missing.kind === "switch"
      ? `sandbox.${missing.path[1]} is not ${missing.value}`
      : `${missing.path.join(".")} does not name ${missing.value}`;
    return { level: "tool-rules", why };
  }
  if (sandboxProblem) return { level: "tool-rules", why: sandboxProblem };
  return { level: "sandbox" };
}
