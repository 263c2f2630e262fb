/**
 * Install and uninstall review-gate's Claude Code hooks in a settings file (DESIGN.md "Gates" →
 * "Installer"; PROVIDERS.md "Claude Code hooks, as the real CLI runs them": hooks fire from user
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
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ConfigError } from "../../base/errors.ts";
import {
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
import { editSettingsText, parseSettingsText } from "../settings_text.ts";
import { readRegularText } from "../../base/regular_file.ts";

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
  dryRun?: boolean;
  /** Describe each file change as a diff (default), or as one line per file. */
  diff?: boolean;
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
  options: { dryRun?: boolean; diff?: boolean },
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
  const entries = buildClaudeEntries(options.command, {
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    stopPrefix: options.stopPrefix,
    guard: options.guard ?? hasOurGuard(current.settings),
  });
  const merged = mergeOurHooks(current.settings, entries);
  const actions: FileAction[] = [];
  if (current.text !== null && isDeepStrictEqual(current.settings, merged)) {
    return await finish(path, actions, options);
  }
  const text = current.text === null
    ? renderSettings(merged)
    : await editSettingsText(current.text, entries);
  if (current.text === null) {
    if (!(await lstatOrNull(dirname(path)))) actions.push({ op: "mkdir", path: dirname(path) });
  } else if (!(await lstatOrNull(path + BACKUP_SUFFIX))) {
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
    why: "add review-gate's UserPromptSubmit and Stop hooks",
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
  const { settings, removed } = dropOurHooks(current.settings);
  const actions: FileAction[] = [];
  if (removed === 0 || current.text === null) return await finish(path, actions, options);
  const backup = await readBackup(backupPath);
  if (backup !== null && isDeepStrictEqual(backup.settings, settings)) {
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
      text: await editSettingsText(current.text, null),
      mode: current.mode,
      before: current.text,
      why: "remove review-gate's hooks",
    });
  }
  return await finish(path, actions, options);
}

async function readBackup(path: string): Promise<{ text: string; settings: unknown } | null> {
  try {
    const text = await readRegularText(path);
    return { text, settings: await parseSettingsText(text, path) };
  } catch {
    return null;
  }
}
