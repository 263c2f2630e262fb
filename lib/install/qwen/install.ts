/**
 * Install and uninstall review-gate's Qwen Code hooks (`UserPromptSubmit` → `hook qwen-prompt`,
 * `Stop` → `hook qwen-stop`) in a Qwen Code `settings.json`: the user's `$QWEN_HOME/settings.json`
 * (default `~/.qwen`) or the project's `.qwen/settings.json` (lib/gates/qwen/door.ts has the
 * verified contract). The file is the user's whole Qwen Code settings and is edited as text by
 * the shared settings installer (lib/install/settings_hooks.ts): the user's keys, hooks and
 * formatting stay byte for byte, ours go after theirs, a backup is kept and uninstall restores
 * the original bytes when it can. Qwen Code
 * runs user hooks at once; project hooks only in a trusted folder (`doctor` checks both).
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { ConfigError } from "../../base/errors.ts";
import type { ActionDetail, FileAction } from "../file_actions.ts";
import {
  installSettingsHooks,
  type SettingsHooksFile,
  uninstallSettingsHooks,
} from "../settings_hooks.ts";
import { buildQwenEntries, QWEN_HOOK_EVENTS, type QwenScope } from "./entries.ts";

export { BACKUP_SUFFIX } from "../settings_hooks.ts";

/** Inputs of the Qwen Code installers. */
export interface QwenHookOptions {
  scope: QwenScope;
  /** Where qwen is started (scope `project`): Qwen Code reads `.qwen/` of its cwd only. */
  root: string;
  /** `QWEN_HOME` and `HOME` (scope `user`). */
  env: Record<string, string | undefined>;
  /** Command prefix from `selfCommand()` (install only). */
  command?: string;
  /** Words before `command` in the Stop entry (lib/install/self_command.ts `stopScriptPrefix`). */
  stopPrefix?: string;
  /** Stop entry timeout in seconds (`gates.qwen_stop.timeout_seconds`; written in ms). */
  stopTimeoutSeconds?: number;
  /** Add the `PostToolUse` hook of `gates.qwen_stop.review_while_working`. */
  work?: boolean;
  dryRun?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
}

/** What was (or, with `dryRun`, would be) done. */
export interface QwenHookReport {
  path: string;
  actions: FileAction[];
  /** Human summary: where, what to do next, the line diff. */
  text: string;
}

/** Qwen Code's home: `$QWEN_HOME`, else `$HOME/.qwen`. */
export function qwenHome(env: Record<string, string | undefined>): string | undefined {
  return env.QWEN_HOME || (env.HOME ? join(env.HOME, ".qwen") : undefined);
}

/**
 * The settings file of a scope.
 *
 * @throws {ConfigError} for scope `user` without `QWEN_HOME` or `HOME`
 */
export function qwenSettingsPath(
  scope: QwenScope,
  options: { root: string; env: Record<string, string | undefined> },
): string {
  if (scope === "project") return join(options.root, ".qwen", "settings.json");
  const home = qwenHome(options.env);
  if (!home) {
    throw new ConfigError(
      "Cannot find Qwen Code's home: set QWEN_HOME or HOME, or use --scope project",
    );
  }
  return join(home, "settings.json");
}

/** The scope's settings file as the shared installer takes it (lib/install/settings_hooks.ts). */
function settingsFile(options: QwenHookOptions): SettingsHooksFile {
  const path = qwenSettingsPath(options.scope, options);
  return { product: "Qwen Code", path, events: Object.keys(QWEN_HOOK_EVENTS) };
}

/** When Qwen Code runs the hooks. */
function runNote(scope: QwenScope): string {
  return scope === "project"
    ? 'Qwen Code reads .qwen/settings.json only when started in this folder, and only while the folder is trusted (always, unless security.folderTrust.enabled is set). "review-gate doctor" says whether Qwen Code will run them.'
    : 'Qwen Code runs these hooks from its next start, headless "qwen -p" included. "review-gate doctor" says whether Qwen Code will run them.';
}

/**
 * Add (or refresh in place) our `UserPromptSubmit` and `Stop` groups in the scope's settings file.
 *
 * @returns the report; `actions` is empty when the file already holds exactly our groups
 * @throws {ConfigError} when the file is not valid JSON or has an unusable `hooks` shape (left
 *   untouched), or `command` is missing
 */
export async function installQwenHooks(options: QwenHookOptions): Promise<QwenHookReport> {
  if (!options.command) {
    throw new ConfigError("Cannot install the Qwen Code hooks without a command");
  }
  const entries = buildQwenEntries(options.command, {
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    stopPrefix: options.stopPrefix,
    work: options.work,
  });
  return await installSettingsHooks(settingsFile(options), entries, {
    dryRun: options.dryRun,
    diff: options.diff,
    why: "add review-gate's UserPromptSubmit and Stop hooks after yours",
    runNote: runNote(options.scope),
  });
}

/**
 * Remove our groups from the scope's settings file, restoring the pre-install bytes when possible.
 *
 * @returns the report; `actions` is empty when none of ours were there
 * @throws {ConfigError} when the file is not valid JSON (left untouched)
 */
export async function uninstallQwenHooks(options: QwenHookOptions): Promise<QwenHookReport> {
  if (options.scope === "user" && !qwenHome(options.env)) {
    return {
      path: "",
      actions: [],
      text: "Qwen Code hooks: no QWEN_HOME or HOME, nothing to remove\n",
    };
  }
  return await uninstallSettingsHooks(settingsFile(options), {
    dryRun: options.dryRun,
    diff: options.diff,
  });
}
