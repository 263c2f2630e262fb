/**
 * Install and uninstall review-gate's GitHub Copilot CLI hooks: one file of our own,
 * `review-gate.json`, in the user's `$COPILOT_HOME/hooks/` (default `~/.copilot`; Copilot runs
 * those hooks in every folder) or the repository's `.github/hooks/` (run only in a folder Copilot
 * trusts). Copilot loads every `*.json` of those folders, so the user's own hooks files and
 * settings are never opened, let alone edited: uninstall removes our file (and the folder when
 * install created it), leaving everything else byte for byte as it was. A file of that name
 * without our marker is the user's: install refuses to touch it. Facts: lib/gates/copilot/door.ts.
 *
 * @module
 */
import { dirname, join } from "../../base/path.ts";
import { ConfigError } from "../../base/errors.ts";
import { type FileAction, lstatOrNull, readTextOrNull } from "../file_actions.ts";
import { finishHooksReport, type SettingsHooksReport } from "../settings_hooks.ts";
import type { AgentHookOptions } from "../agent_settings.ts";
import { MANAGED_MARKER } from "../git/stub.ts";
import { buildCopilotHooksText, COPILOT_HOOKS_FILE, type CopilotScope } from "./entries.ts";

/**
 * Inputs of the Copilot installers (lib/install/agent_settings.ts): `env` holds `COPILOT_HOME` and
 * `HOME`, the stop options are `gates.copilot_stop.timeout_seconds` (written in seconds) and
 * `gates.copilot_stop.review_while_working` (`PostToolUse`).
 */
export type CopilotHookOptions = AgentHookOptions & { scope: CopilotScope };

/** What was (or, with `dryRun`, would be) done. */
export type CopilotHookReport = SettingsHooksReport;

/** `$COPILOT_HOME`, else `$HOME/.copilot` (`copilot help environment`). */
export function copilotHome(env: Record<string, string | undefined>): string | undefined {
  return env.COPILOT_HOME || (env.HOME ? join(env.HOME, ".copilot") : undefined);
}

/**
 * Our hooks file in a scope.
 *
 * @throws {ConfigError} for scope `user` without `COPILOT_HOME` or `HOME`
 */
export function copilotHooksPath(
  scope: CopilotScope,
  options: { root: string; env: Record<string, string | undefined> },
): string {
  if (scope === "project") return join(options.root, ".github", "hooks", COPILOT_HOOKS_FILE);
  const home = copilotHome(options.env);
  if (!home) {
    throw new ConfigError(
      "Cannot find the Copilot CLI's home: set COPILOT_HOME or HOME, or use --scope project",
    );
  }
  return join(home, "hooks", COPILOT_HOOKS_FILE);
}

/** What the user must know before Copilot runs the hooks of a scope. */
function runNote(scope: CopilotScope): string {
  return scope === "project"
    ? 'Copilot runs a repository\'s .github/hooks/ only in a folder you trust: start "copilot" here and trust the folder when it asks (or run it with COPILOT_ALLOW_ALL=true, which trusts the folder). "review-gate doctor" says whether Copilot will run them.'
    : 'Copilot runs these hooks in every folder, in the TUI and with -p; "review-gate doctor" checks them.';
}

/**
 * Write our hooks file in the scope's hooks folder (or refresh it).
 *
 * @returns the report; `actions` is empty when the file already holds exactly our hooks
 * @throws {ConfigError} when a file of that name is not ours (left untouched), or `command` is
 *   missing
 */
export async function installCopilotHooks(options: CopilotHookOptions): Promise<CopilotHookReport> {
  if (!options.command) {
    throw new ConfigError("Cannot install the Copilot hooks without a command");
  }
  const path = copilotHooksPath(options.scope, options);
  const current = await readTextOrNull(path);
  if (current === undefined) throw new ConfigError(`Cannot read the Copilot hooks "${path}"`);
  if (current !== null && !current.includes(MANAGED_MARKER)) {
    throw new ConfigError(
      `Copilot hooks "${path}" is not review-gate's (no "${MANAGED_MARKER}" in it): rename or remove it first`,
    );
  }
  const text = buildCopilotHooksText(options.command, options);
  const actions: FileAction[] = [];
  if (text !== current) {
    if (!(await lstatOrNull(dirname(path)))) actions.push({ op: "mkdir", path: dirname(path) });
    actions.push({
      op: "write",
      path,
      text,
      mode: 0o644,
      before: current,
      why: "review-gate's UserPromptSubmit and Stop hooks, in a file of their own",
    });
  }
  const notes = actions.length ? [runNote(options.scope)] : ["The hooks are already installed."];
  return await finishHooksReport("Copilot", path, actions, { ...options, notes });
}

/**
 * Remove our hooks file from the scope's hooks folder.
 *
 * @returns the report; `actions` is empty when it was not there
 */
export async function uninstallCopilotHooks(
  options: CopilotHookOptions,
): Promise<CopilotHookReport> {
  if (options.scope === "user" && !copilotHome(options.env)) {
    return {
      path: "",
      actions: [],
      text: "Copilot hooks: no COPILOT_HOME or HOME, nothing to remove\n",
    };
  }
  const path = copilotHooksPath(options.scope, options);
  const current = await readTextOrNull(path);
  const actions: FileAction[] = typeof current === "string" && current.includes(MANAGED_MARKER)
    ? [{ op: "remove", path, before: current, why: "review-gate's own hooks file" }]
    : [];
  return await finishHooksReport("Copilot", path, actions, { ...options, notes: [] });
}
