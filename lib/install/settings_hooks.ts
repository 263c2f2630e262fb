/**
 * Install and uninstall review-gate's hook groups in an agent's whole `settings.json` whose `hooks`
 * key holds `{<Event>: [{matcher?, hooks: [{type: "command", command, name, timeout}]}]}` — Qwen
 * Code's (lib/install/qwen/install.ts), Gemini CLI's (lib/install/gemini/install.ts) and Codex's
 * `hooks.json` (lib/install/codex/install.ts). The file
 * is the user's whole settings and is edited as text (lib/install/settings_text.ts): their keys,
 * hooks and formatting stay byte for byte, ours go after theirs; the first change keeps the
 * original beside it as `settings.json.review-gate.bak`, and uninstall writes those bytes back when
 * the file minus our entries equals them. Reading which of ours a file holds is here too, for each
 * agent's status module.
 *
 * @module
 */
import { dirname } from "../base/path.ts";
import { isDeepStrictEqual } from "node:util";
import { ConfigError } from "../base/errors.ts";
import {
  type ActionDetail,
  applyActions,
  type FileAction,
  fileMode,
  lstatOrNull,
  readTextOrNull,
  renderActions,
} from "./file_actions.ts";
import {
  editSettingsText,
  isOurHook,
  parseSettingsText,
  sameAsBackup,
  type Settings,
} from "./settings_text.ts";
import { MANAGED_MARKER } from "./git/stub.ts";

/** Suffix of the backup kept beside a settings file on our first change. */
export const BACKUP_SUFFIX = ".review-gate.bak";

/** What one agent's settings file is, for messages and checks. */
export interface SettingsHooksFile {
  /** The agent as messages name it, e.g. "Qwen Code". */
  product: string;
  /** The settings file. */
  path: string;
  /** The events our groups go on (their arrays are checked before an edit). */
  events: readonly string[];
  /** What messages call the file after `product`: "settings" (default), or "hooks" (Codex's). */
  kind?: string;
}

/** What was (or, with `dryRun`, would be) done. */
export interface SettingsHooksReport {
  path: string;
  actions: FileAction[];
  /** Human summary: where, what to do next, the line diff. */
  text: string;
}

/** How an install or uninstall runs. */
export interface SettingsHooksRun {
  dryRun?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
}

/**
 * Read a settings file and check the shape an edit needs.
 *
 * @returns the text (`null` when the file is missing) and the parsed settings (`{}` then)
 * @throws {ConfigError} when it cannot be read, is not JSON(C), is not an object, or `hooks` or one
 *   of our events' arrays has another type (the file is left untouched)
 */
export async function readHooksSettings(
  file: SettingsHooksFile,
): Promise<{ text: string | null; settings: Settings }> {
  const { path } = file;
  const label = `${file.product} ${file.kind ?? "settings"}`;
  const text = await readTextOrNull(path);
  if (text === undefined) throw new ConfigError(`Cannot read ${label} "${path}"`);
  if (text === null) return { text: null, settings: {} };
  const value = await parseSettingsText(text, path);
  const hooks = (value as Settings | null)?.hooks;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(
      `${label} "${path}": the top level is not a JSON object; fix it first`,
    );
  }
  if (
    hooks !== undefined && (typeof hooks !== "object" || hooks === null || Array.isArray(hooks))
  ) {
    throw new ConfigError(`${label} "${path}": "hooks" is not an object; fix it first`);
  }
  for (const event of file.events) {
    const groups = (hooks as Settings | undefined)?.[event];
    if (groups !== undefined && !Array.isArray(groups)) {
      throw new ConfigError(
        `${label} "${path}": "hooks.${event}" is not an array; fix it first`,
      );
    }
  }
  return { text, settings: value as Settings };
}

/**
 * Our hook entries in parsed settings (pure), on the given events.
 *
 * @returns each entry of ours with its event, in file order
 */
export function ourSettingsHooks(
  settings: Settings,
  events: readonly string[],
): { event: string; hook: Settings }[] {
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  return events.flatMap((event) => {
    const groups = hooks[event];
    if (!Array.isArray(groups)) return [];
    return groups.flatMap((group) => {
      const inner = (group as Settings)?.hooks;
      return Array.isArray(inner)
        ? inner.filter(isOurHook).map((hook) => ({ event, hook: hook as Settings }))
        : [];
    });
  });
}

/** The settings with our entries dropped (pure); a group or event left empty goes too. */
function withoutOurs(settings: Settings): Settings {
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  if (!hooks) return settings;
  const out: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      out[event] = groups;
      continue;
    }
    const kept = groups.flatMap((g) => {
      const inner = (g as Settings)?.hooks;
      if (!Array.isArray(inner) || !inner.some(isOurHook)) return [g];
      const rest = inner.filter((h) => !isOurHook(h));
      return rest.length ? [{ ...(g as Settings), hooks: rest }] : [];
    });
    if (kept.length) out[event] = kept;
  }
  const next = { ...settings, hooks: out };
  if (Object.keys(out).length === 0) delete (next as Settings).hooks;
  return next;
}

/**
 * Add (or refresh in place) our groups, one per event, in a settings file.
 *
 * @param file the agent, the file and its events
 * @param entries our group per event (the agent's entries module)
 * @param options `why`: the write's reason; `runNote`: when the agent runs them; dry run, diff
 * @returns the report; `actions` is empty when the file already holds exactly our groups
 * @throws {ConfigError} from {@linkcode readHooksSettings} (the file is left untouched)
 */
export async function installSettingsHooks(
  file: SettingsHooksFile,
  entries: Record<string, Settings>,
  options: SettingsHooksRun & { why: string; runNote: string },
): Promise<SettingsHooksReport> {
  const { path } = file;
  const current = await readHooksSettings(file);
  const text = current.text === null
    ? JSON.stringify(
      { hooks: Object.fromEntries(Object.entries(entries).map(([e, g]) => [e, [g]])) },
      null,
      2,
    ) + "\n"
    : await editSettingsText(current.text, entries, { inPlace: true });
  const actions: FileAction[] = [];
  if (text !== current.text) {
    const mode = current.text === null ? 0o644 : (await fileMode(path, 0o644)) & 0o777;
    if (current.text === null && !(await lstatOrNull(dirname(path)))) {
      actions.push({ op: "mkdir", path: dirname(path) });
    } else if (current.text !== null && !(await lstatOrNull(path + BACKUP_SUFFIX))) {
      actions.push({
        op: "write",
        path: path + BACKUP_SUFFIX,
        text: current.text,
        mode,
        before: null,
        why: `backup of the ${file.kind ?? "settings"} before review-gate changed them`,
      });
    }
    actions.push({ op: "write", path, text, mode, before: current.text, why: options.why });
  }
  const notes = actions.length ? [options.runNote] : ["The hooks are already installed."];
  return await finish(file, actions, { ...options, notes });
}

/**
 * Remove our groups from a settings file, restoring the pre-install bytes when the rest equals the
 * backup, removing the file when review-gate created it and nothing else is left.
 *
 * @param options dry run, diff; `removalNotes`: the report's notes when ours are removed, from the
 *   settings before the removal (default none)
 * @returns the report; `actions` is empty when none of ours were there
 * @throws {ConfigError} when the file is not valid JSON (left untouched)
 */
export async function uninstallSettingsHooks(
  file: SettingsHooksFile,
  options: SettingsHooksRun & { removalNotes?: (settings: Settings) => string[] },
): Promise<SettingsHooksReport> {
  const { path } = file;
  const raw = await readTextOrNull(path);
  if (typeof raw !== "string" || !raw.includes(MANAGED_MARKER)) {
    return await finish(file, [], { ...options, notes: [] }); // nothing of ours: not parsed
  }
  const current = await readHooksSettings(file);
  const rest = withoutOurs(current.settings);
  if (current.text === null || isDeepStrictEqual(rest, current.settings)) {
    return await finish(file, [], { ...options, notes: [] });
  }
  const backupPath = path + BACKUP_SUFFIX;
  const backupText = await readTextOrNull(backupPath);
  const backup = typeof backupText === "string"
    ? await parseSettingsText(backupText, backupPath).catch(() => undefined)
    : undefined;
  const mode = (await fileMode(path, 0o644)) & 0o777;
  const actions: FileAction[] = [];
  const before = current.text;
  if (typeof backupText === "string" && sameAsBackup(backup, rest)) {
    const why = `restore the ${file.kind ?? "settings"} saved before install`;
    actions.push({ op: "write", path, text: backupText, mode, before, why });
    actions.push({ op: "remove", path: backupPath, before: backupText, why: "backup restored" });
  } else if (backupText === null && Object.keys(rest).length === 0) {
    actions.push({ op: "remove", path, before, why: "created by review-gate install" });
  } else {
    const text = await editSettingsText(current.text, null);
    actions.push({ op: "write", path, text, mode, before, why: "remove review-gate's hooks" });
  }
  const notes = options.removalNotes?.(current.settings) ?? [];
  return await finish(file, actions, { ...options, notes });
}

/**
 * Apply `actions` (unless `dryRun`) and describe them: `<product> hooks: <path>`, the notes, one a
 * line, then the rendered actions (lib/install/file_actions.ts). Shared with the installers that
 * write a hooks file of their own (lib/install/copilot/install.ts).
 *
 * @throws whatever applying an action throws (lib/install/file_actions.ts `applyActions`)
 */
export async function finishHooksReport(
  product: string,
  path: string,
  actions: FileAction[],
  options: SettingsHooksRun & { notes: string[] },
): Promise<SettingsHooksReport> {
  if (!options.dryRun) await applyActions(actions);
  const notes = options.notes.length ? `${options.notes.join("\n")}\n` : "";
  const rendered = renderActions(actions, { diff: options.diff });
  return { path, actions, text: `${product} hooks: ${path}\n${notes}${rendered}` };
}

/** {@linkcode finishHooksReport} for a settings file. */
function finish(
  file: SettingsHooksFile,
  actions: FileAction[],
  options: SettingsHooksRun & { notes: string[] },
): Promise<SettingsHooksReport> {
  return finishHooksReport(file.product, file.path, actions, options);
}
