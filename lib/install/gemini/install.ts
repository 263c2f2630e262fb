/**
 * Install and uninstall review-gate's Gemini CLI hooks (`BeforeAgent` → `hook gemini-prompt`,
 * `AfterAgent` → `hook gemini-stop`, and `AfterTool` → `hook gemini-work` with
 * `review_while_working`) in a Gemini CLI `settings.json`: the user's
 * `$GEMINI_CLI_HOME/.gemini/settings.json` (default `~/.gemini`) or the project's
 * `.gemini/settings.json` (lib/gates/gemini/door.ts has the verified contract). The file is the
 * user's whole Gemini CLI settings, edited as text by the shared settings installer
 * (lib/install/settings_hooks.ts): their keys, hooks and formatting stay byte for byte, ours go
 * after theirs, a backup is kept and uninstall restores the original bytes when it can. Gemini CLI
 * runs hooks of either file only in a trusted folder (`doctor` checks it).
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
import { buildGeminiEntries, GEMINI_HOOK_EVENTS, type GeminiScope } from "./entries.ts";

export { BACKUP_SUFFIX } from "../settings_hooks.ts";

/**
 * Inputs of the Gemini CLI installers: `root` is where gemini is started (Gemini CLI reads
 * `.gemini/` of its cwd), `env` holds `GEMINI_CLI_HOME` and `HOME`, the stop options are
 * `gates.gemini_stop.timeout_seconds` (the AfterAgent entry) and
 * `gates.gemini_stop.review_while_working` (`AfterTool`).
 */
export type GeminiHookOptions = AgentHookOptions & { scope: GeminiScope };

/**
 * Gemini CLI's user folder: `$GEMINI_CLI_HOME/.gemini`, else `$HOME/.gemini` (Gemini CLI's
 * `homedir()` prefers `GEMINI_CLI_HOME`).
 */
export function geminiDir(env: Record<string, string | undefined>): string | undefined {
  const home = env.GEMINI_CLI_HOME || env.HOME;
  return home ? join(home, ".gemini") : undefined;
}

/** Gemini CLI's settings files (lib/install/agent_settings.ts). */
export const GEMINI_SETTINGS: AgentSettings = {
  product: "Gemini CLI",
  projectDir: ".gemini",
  userDir: geminiDir,
  homeVars: "GEMINI_CLI_HOME or HOME",
  events: [...Object.keys(GEMINI_HOOK_EVENTS), "AfterTool"],
};

/**
 * The settings file of a scope.
 *
 * @throws {ConfigError} for scope `user` without `GEMINI_CLI_HOME` or `HOME`
 */
export function geminiSettingsPath(
  scope: GeminiScope,
  options: { root: string; env: Record<string, string | undefined> },
): string {
  return agentSettingsPath(GEMINI_SETTINGS, scope, options);
}

/** When Gemini CLI runs the hooks. */
function runNote(scope: GeminiScope): string {
  const where = scope === "project"
    ? "Gemini CLI reads .gemini/settings.json when started in this folder and"
    : "Gemini CLI";
  return `${where} runs these hooks from its next start, headless "gemini -p" included, but only in a trusted folder (security.folderTrust is on by default). "review-gate doctor" says whether Gemini CLI will run them.`;
}

/**
 * Add (or refresh in place) our `BeforeAgent` and `AfterAgent` definitions in the scope's file.
 *
 * @returns the report; `actions` is empty when the file already holds exactly ours
 * @throws {ConfigError} when the file is not valid JSON or has an unusable `hooks` shape (left
 *   untouched), or `command` is missing
 */
export async function installGeminiHooks(options: GeminiHookOptions): Promise<SettingsHooksReport> {
  return await installAgentHooks(GEMINI_SETTINGS, options, buildGeminiEntries, {
    why: "add review-gate's BeforeAgent and AfterAgent hooks after yours",
    runNote: runNote(options.scope),
  });
}

/**
 * Remove our definitions from the scope's settings file, restoring the pre-install bytes when
 * possible.
 *
 * @returns the report; `actions` is empty when none of ours were there
 * @throws {ConfigError} when the file is not valid JSON (left untouched)
 */
export async function uninstallGeminiHooks(
  options: GeminiHookOptions,
): Promise<SettingsHooksReport> {
  return await uninstallAgentHooks(GEMINI_SETTINGS, options);
}
