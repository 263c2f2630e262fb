/**
 * Install and uninstall review-gate's Codex hooks (`UserPromptSubmit` → `hook codex-prompt`, `Stop`
 * → `hook codex-stop`) in a Codex `hooks.json`: the user's `$CODEX_HOME/hooks.json` (default
 * `~/.codex`) or the repository's `.codex/hooks.json` (lib/gates/codex/door.ts has the verified
 * contract). Codex trusts each hook by its position (`<file>:<event>:<group>:<handler>`) and a hash
 * over its command and timeout, so our groups go **after** the user's (inserting one before theirs
 * would silently untrust them), a re-install rewrites our group where it stands, and the command
 * and timeout only change when the binary or `gates.codex_stop.timeout_seconds` does. The file is
 * edited as text by the shared settings installer (lib/install/settings_hooks.ts): the user's
 * entries and formatting stay byte for byte; the first change keeps the original beside it as
 * `hooks.json.review-gate.bak`, and uninstall writes those bytes back when the file minus our
 * entries equals them. Codex runs the hooks only once the user trusts them: install says how, and
 * `doctor` checks it.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { ConfigError } from "../../base/errors.ts";
import {
  installSettingsHooks,
  type SettingsHooksFile,
  type SettingsHooksReport,
  uninstallSettingsHooks,
} from "../settings_hooks.ts";
import type { AgentHookOptions } from "../agent_settings.ts";
import { isOurHook, type Settings } from "../settings_text.ts";
import { buildCodexEntries, CODEX_HOOK_EVENTS, type CodexScope } from "./entries.ts";

export { BACKUP_SUFFIX } from "../settings_hooks.ts";

/**
 * Inputs of the Codex installers (lib/install/agent_settings.ts): `env` holds `CODEX_HOME` and `HOME`,
 * the stop options are `gates.codex_stop.timeout_seconds` (written in seconds) and
 * `gates.codex_stop.review_while_working` (`PostToolUse`).
 */
export type CodexHookOptions = AgentHookOptions & { scope: CodexScope };

/** What was (or, with `dryRun`, would be) done. */
export type CodexHookReport = SettingsHooksReport;

/** `$CODEX_HOME`, else `$HOME/.codex`. */
export function codexHome(env: Record<string, string | undefined>): string | undefined {
  return env.CODEX_HOME || (env.HOME ? join(env.HOME, ".codex") : undefined);
}

/**
 * The hooks file of a scope.
 *
 * @throws {ConfigError} for scope `user` without `CODEX_HOME` or `HOME`
 */
export function codexHooksPath(
  scope: CodexScope,
  options: { root: string; env: Record<string, string | undefined> },
): string {
  if (scope === "project") return join(options.root, ".codex", "hooks.json");
  const home = codexHome(options.env);
  if (!home) {
    throw new ConfigError(
      "Cannot find Codex's home: set CODEX_HOME or HOME, or use --scope project",
    );
  }
  return join(home, "hooks.json");
}

/** The scope's hooks file as the shared installer takes it (lib/install/settings_hooks.ts). */
function hooksFile(options: CodexHookOptions): SettingsHooksFile {
  const path = codexHooksPath(options.scope, options);
  return { product: "Codex", kind: "hooks", path, events: Object.keys(CODEX_HOOK_EVENTS) };
}

/** What the user must do before Codex runs the hooks. */
function trustNote(scope: CodexScope): string {
  const project = scope === "project"
    ? ' The repository must be trusted too (codex asks, or run "codex exec --trust" once), and every teammate trusts the hooks for themselves.'
    : "";
  return `Codex runs these hooks only after you trust them: start "codex" and choose "Trust all and continue" when it asks (or review them with /hooks). Until then "codex exec" skips them without a word; "review-gate doctor" says whether Codex will run them.${project}`;
}

/**
 * Add (or refresh in place) our `UserPromptSubmit` and `Stop` groups in the scope's hooks file.
 *
 * @returns the report; `actions` is empty when the file already holds exactly our groups
 * @throws {ConfigError} when the file is not valid JSON or has an unusable `hooks` shape (left
 *   untouched), or `command` is missing
 */
export async function installCodexHooks(options: CodexHookOptions): Promise<CodexHookReport> {
  if (!options.command) throw new ConfigError("Cannot install the Codex hooks without a command");
  const file = hooksFile(options);
  const entries = buildCodexEntries(options.command, {
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    stopPrefix: options.stopPrefix,
    work: options.work,
  });
  return await installSettingsHooks(file, entries, {
    dryRun: options.dryRun,
    diff: options.diff,
    why: "add review-gate's UserPromptSubmit and Stop hooks after yours",
    runNote: trustNote(options.scope),
  });
}

/**
 * Remove our groups from the scope's hooks file, restoring the pre-install bytes when possible.
 *
 * @returns the report; `actions` is empty when none of ours were there
 * @throws {ConfigError} when the file is not valid JSON (left untouched)
 */
export async function uninstallCodexHooks(options: CodexHookOptions): Promise<CodexHookReport> {
  if (options.scope === "user" && !codexHome(options.env)) {
    return {
      path: "",
      actions: [],
      text: "Codex hooks: no CODEX_HOME or HOME, nothing to remove\n",
    };
  }
  return await uninstallSettingsHooks(hooksFile(options), {
    dryRun: options.dryRun,
    diff: options.diff,
    removalNotes: shiftNotes,
  });
}

/** The user's groups after ours move up one place when ours goes: Codex asks to trust them again. */
function shiftNotes(settings: Settings): string[] {
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  const shifted = Object.keys(CODEX_HOOK_EVENTS).reduce((n, event) => {
    const groups = hooks[event];
    if (!Array.isArray(groups)) return n;
    const ours = groups.findIndex((g) =>
      ((g as Settings)?.hooks as unknown[] | undefined)?.some(isOurHook)
    );
    return ours < 0 ? n : n + groups.length - ours - 1;
  }, 0);
  return shifted
    ? [
      `${shifted} hook group(s) of yours came after review-gate's and move up one place: Codex keys trust by position, so it will ask you to trust them again.`,
    ]
    : [];
}
