/**
 * Install and uninstall review-gate's Claude Code hooks in a settings file (docs/design.md
 * "Installer"; docs/providers.md "Claude Code hooks": hooks fire from user
 * settings and from `<cwd>/.claude/settings.json` / `settings.local.json`, looked up in Claude's
 * cwd, not the git root).
 *
 * Read (JSONC, as Claude Code reads it: comments and trailing commas) → drop our entries → append
 * ours, editing the text in place so comments and formatting stay (lib/install/claude/
 * settings_text.ts) → atomic write (temp + rename, mode kept). A symlinked
 * settings file (`~/.claude/settings.json -> ~/dotfiles/…`) is edited at its target; the link stays,
 * and the target's mode is kept (and given to the backup). The first change
 * to an existing file keeps a copy of it as `<file>.review-gate.bak`. Uninstall writes the backup's
 * bytes back when the file minus our entries equals it (byte-identical restore), deletes a file we
 * created once nothing is left in it, and otherwise writes the file minus our entries.
 *
 * @module
 */
import { dirname, join } from "../../base/path.ts";
import { isDeepStrictEqual } from "node:util";
import { ConfigError } from "../../base/errors.ts";
import {
  type ActionDetail,
  applyActions,
  type FileAction,
  fileMode,
  lstatOrNull,
  renderActions,
} from "../file_actions.ts";
import {
  buildClaudeEntries,
  checkSettingsShape,
  dropOurHooks,
  hasOurGuard,
  mergeOurHooks,
  renderSettings,
  type Settings,
} from "./settings.ts";
import { editSettingsText, parseSettingsText, sameAsBackup } from "../settings_text.ts";
import { readRegularText } from "../../base/regular_file.ts";
import type { GuardTargets } from "../guard_paths.ts";
import {
  addGuardItems,
  checkGuardShape,
  claudeGuardItems,
  type GuardItem,
  removeGuardItems,
} from "./guard_rules.ts";

/** Which settings file: `local` (default), `project`, `user`. */
export type ClaudeScope = "local" | "project" | "user";

/** Suffix of the backup kept beside a settings file on our first change. */
export const BACKUP_SUFFIX = ".review-gate.bak";

/** Inputs of the Claude installers. */
export interface ClaudeHookOptions {
  scope?: ClaudeScope;
  /** Directory Claude Code is started in (its project dir); `.claude/` goes here. */
  projectDir: string;
  /** `HOME` from the injected environment (scope `user`). */
  home?: string;
  /** Command prefix from `selfCommand()` (install only). */
  command?: string;
  /** Words before `command` in the Stop entry (lib/install/self_command.ts `stopScriptPrefix`). */
  stopPrefix?: string;
  /** Stop entry `timeout`, seconds (config `gates.claude_stop.timeout_seconds`); default 300. */
  stopTimeoutSeconds?: number;
  /**
   * Install the `PreToolUse` guard on Bash (true), remove it (false), or keep it as the file has it
   * (undefined).
   */
  guard?: boolean;
  /**
   * Install the `PostToolUse` hook of the background review (config
   * `gates.claude_stop.review_while_working`); absent or false: none (a stale one is removed).
   */
  work?: boolean;
  /**
   * The paths the guard's sandbox and permission rules protect (lib/install/guard_paths.ts); without
   * them only the `PreToolUse` hook is installed or removed.
   */
  guardTargets?: GuardTargets;
  dryRun?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
}

/** What was (or, with `dryRun`, would be) done. */
export interface ClaudeHookReport {
  /** The settings file. */
  path: string;
  actions: FileAction[];
  /** Human summary with a line diff of the settings file. */
  text: string;
}

/**
 * The settings file of a scope.
 *
 * @throws {ConfigError} for scope `user` without `home`
 */
export function claudeSettingsPath(
  scope: ClaudeScope,
  options: { projectDir: string; home?: string },
): string {
  switch (scope) {
    case "local":
      return join(options.projectDir, ".claude", "settings.local.json");
    case "project":
      return join(options.projectDir, ".claude", "settings.json");
    case "user":
      if (!options.home) {
        throw new ConfigError(
          `Cannot find the user settings: HOME is not set; set HOME or use --scope local`,
        );
      }
      return join(options.home, ".claude", "settings.json");
  }
}

async function readSettings(
  path: string,
): Promise<{ text: string | null; settings: Settings; mode: number; isSymlink: boolean }> {
  const info = await lstatOrNull(path);
  if (!info) return { text: null, settings: {}, mode: 0o644, isSymlink: false };
  let text: string;
  try {
    text = await readRegularText(path);
  } catch (cause) {
    throw new ConfigError(`Cannot read Claude settings "${path}": ${(cause as Error).message}`, {
      cause,
    });
  }
  const value = await parseSettingsText(text, path);
  const problem = checkSettingsShape(value);
  if (problem) {
    throw new ConfigError(
      `Claude settings "${path}" cannot take review-gate's hooks: ${problem}; fix it, then run install again`,
    );
  }
  // The mode of what is edited: a symlink's target (a link's own lstat mode is 0777).
  const mode = (await fileMode(path, 0o644)) & 0o777;
  return { text, settings: value as Settings, mode, isSymlink: info.isSymlink };
}

async function finish(
  path: string,
  actions: FileAction[],
  options: { dryRun?: boolean; diff?: ActionDetail },
): Promise<ClaudeHookReport> {
  if (!options.dryRun) await applyActions(actions);
  return {
    path,
    actions,
    text: `Claude settings: ${path}\n${renderActions(actions, { diff: options.diff })}`,
  };
}

/**
 * Merge our `UserPromptSubmit` and `Stop` entries into the scope's settings file.
 *
 * @returns the report; `actions` is empty when the file already holds exactly our entries
 * @throws {ConfigError} when the file is not valid JSON or has an unusable `hooks` shape (the file
 *   is left untouched), or `command` is missing
 */
export async function installClaudeHooks(options: ClaudeHookOptions): Promise<ClaudeHookReport> {
  if (!options.command) throw new ConfigError("Cannot install the Claude hooks without a command");
  const path = claudeSettingsPath(options.scope ?? "local", options);
  const current = await readSettings(path);
  const guard = options.guard ?? hasOurGuard(current.settings);
  const entries = buildClaudeEntries(options.command, {
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    stopPrefix: options.stopPrefix,
    guard,
    work: options.work,
  });
  const items = options.guardTargets ? claudeGuardItems(options.guardTargets) : [];
  const shape = guard ? checkGuardShape(current.settings, items) : null;
  if (shape) {
    throw new ConfigError(
      `Claude settings "${path}" cannot take review-gate's guard rules: ${shape}; fix it, then run install again`,
    );
  }
  const hooksText = current.text === null
    ? renderSettings(mergeOurHooks(current.settings, entries))
    : isDeepStrictEqual(current.settings, mergeOurHooks(current.settings, entries))
    ? current.text
    : await editSettingsText(current.text, entries);
  const text = guard
    ? await addGuardItems(hooksText, items)
    : await removeGuardItems(hooksText, items, await userBefore(path, current.settings));
  const actions: FileAction[] = [];
  if (current.text !== null && text === current.text) return await finish(path, actions, options);
  if (current.text === null) {
    if (!(await lstatOrNull(dirname(path)))) actions.push({ op: "mkdir", path: dirname(path) });
  } else if (
    !(await lstatOrNull(path + BACKUP_SUFFIX)) && dropOurHooks(current.settings).removed === 0
  ) {
    // (a file holding our hooks but no backup is one install created: nothing of the user's to keep)
    actions.push({
      op: "write",
      path: path + BACKUP_SUFFIX,
      text: current.text,
      mode: current.mode,
      before: null,
      why: "backup of the settings before review-gate changed them",
    });
  }
  actions.push({
    op: "write",
    path,
    text,
    mode: current.mode,
    before: current.text,
    why: (guard && items.length > 0
      ? "add review-gate's UserPromptSubmit, Stop and guard hooks, and the sandbox and permission rules that keep the agent out of review-gate's state"
      : "add review-gate's UserPromptSubmit and Stop hooks") +
      (options.work ? ", and the PostToolUse hook that reviews while the agent works" : ""),
  });
  return await finish(path, actions, options);
}

/**
 * Remove our entries from the scope's settings file, restoring the pre-install bytes when possible.
 *
 * @returns the report; `actions` is empty when none of our entries were there
 * @throws {ConfigError} when the file is not valid JSON (left untouched)
 */
export async function uninstallClaudeHooks(options: ClaudeHookOptions): Promise<ClaudeHookReport> {
  const path = claudeSettingsPath(options.scope ?? "local", options);
  const backupPath = path + BACKUP_SUFFIX;
  const current = await readSettings(path);
  const actions: FileAction[] = [];
  if (current.text === null) return await finish(path, actions, options);
  const { removed } = dropOurHooks(current.settings);
  const backup = await readBackup(backupPath);
  const items: GuardItem[] = options.guardTargets ? claudeGuardItems(options.guardTargets) : [];
  const unhooked = removed > 0 ? await editSettingsText(current.text, null) : current.text;
  const text = await removeGuardItems(unhooked, items, backup?.settings ?? null);
  if (text === current.text) return await finish(path, actions, options);
  const settings = await parseSettingsText(text, path) as Settings;
  if (backup !== null && sameAsBackup(backup.settings, settings)) {
    actions.push({
      op: "write",
      path,
      text: backup.text,
      mode: current.mode,
      before: current.text,
      why: "restore the settings saved before install",
    });
    actions.push({ op: "remove", path: backupPath, before: backup.text, why: "backup restored" });
  } else if (backup === null && Object.keys(settings).length === 0 && !current.isSymlink) {
    actions.push({
      op: "remove",
      path,
      before: current.text,
      why: "created by review-gate install, nothing else in it",
    });
  } else {
    actions.push({
      op: "write",
      path,
      text,
      mode: current.mode,
      before: current.text,
      why: "remove review-gate's hooks and guard rules",
    });
  }
  return await finish(path, actions, options);
}

/**
 * What the user had before review-gate touched the file: the backup's value; with no backup, the
 * file itself unless it holds our hooks (then install created it: `null`).
 */
async function userBefore(path: string, settings: Settings): Promise<unknown> {
  const backup = await readBackup(path + BACKUP_SUFFIX);
  if (backup) return backup.settings;
  return dropOurHooks(settings).removed > 0 ? null : settings;
}

async function readBackup(path: string): Promise<{ text: string; settings: unknown } | null> {
  try {
    const text = await readRegularText(path);
    return { text, settings: await parseSettingsText(text, path) };
  } catch {
    return null;
  }
}
