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
import {
  type AgentHookOptions,
  type AgentSettings,
  agentSettingsPath,
  installAgentHooks,
  uninstallAgentHooks,
} from "../agent_settings.ts";
import type { SettingsHooksReport } from "../settings_hooks.ts";
import { buildQwenEntries, QWEN_HOOK_EVENTS, type QwenScope } from "./entries.ts";

export { BACKUP_SUFFIX } from "../settings_hooks.ts";

/**
 * Inputs of the Qwen Code installers: `root` is where qwen is started (Qwen Code reads `.qwen/` of
 * its cwd only), `env` holds `QWEN_HOME` and `HOME`, the stop options are
 * `gates.qwen_stop.timeout_seconds` and `gates.qwen_stop.review_while_working` (`PostToolUse`).
 */
export type QwenHookOptions = AgentHookOptions & { scope: QwenScope };

/** What was (or, with `dryRun`, would be) done. */
export type QwenHookReport = SettingsHooksReport;

/** Qwen Code's home: `$QWEN_HOME`, else `$HOME/.qwen`. */
export function qwenHome(env: Record<string, string | undefined>): string | undefined {
  return env.QWEN_HOME || (env.HOME ? join(env.HOME, ".qwen") : undefined);
}

/** Qwen Code's settings files (lib/install/agent_settings.ts). */
export const QWEN_SETTINGS: AgentSettings = {
  product: "Qwen Code",
  projectDir: ".qwen",
  userDir: qwenHome,
  homeVars: "QWEN_HOME or HOME",
  events: Object.keys(QWEN_HOOK_EVENTS),
};

/**
 * The settings file of a scope.
 *
 * @throws {ConfigError} for scope `user` without `QWEN_HOME` or `HOME`
 */
export function qwenSettingsPath(
  scope: QwenScope,
  options: { root: string; env: Record<string, string | undefined> },
): string {
  return agentSettingsPath(QWEN_SETTINGS, scope, options);
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
  return await installAgentHooks(QWEN_SETTINGS, options, buildQwenEntries, {
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
  return await uninstallAgentHooks(QWEN_SETTINGS, options);
}
