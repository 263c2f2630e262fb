/**
 * Install and uninstall review-gate's Qwen Code hooks (`UserPromptSubmit` → `hook qwen-prompt`,
 * `Stop` → `hook qwen-stop`) in a Qwen Code `settings.json`: the user's `$QWEN_HOME/settings.json`
 * (default `~/.qwen`) or the project's `.qwen/settings.json` (lib/gates/qwen/door.ts has the
 * verified contract). The file is the user's whole Qwen Code settings and is edited as text
 * (lib/install/settings_text.ts): the user's keys, hooks and formatting stay byte for byte, ours go
 * after theirs; the first change keeps the original beside it as `settings.json.review-gate.bak`,
 * and uninstall writes those bytes back when the file minus our entries equals them. Qwen Code
 * runs user hooks at once; project hooks only in a trusted folder (`doctor` checks both).
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
  readTextOrNull,
  renderActions,
} from "../file_actions.ts";
import {
  editSettingsText,
  isOurHook,
  parseSettingsText,
  sameAsBackup,
  type Settings,
} from "../settings_text.ts";
import { buildQwenEntries, QWEN_HOOK_EVENTS, type QwenScope } from "./entries.ts";
import { MANAGED_MARKER } from "../git/stub.ts";

/** Suffix of the backup kept beside a hooks file on our first change. */
export const BACKUP_SUFFIX = ".review-gate.bak";

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

async function readHooksFile(path: string): Promise<{ text: string | null; settings: Settings }> {
  const text = await readTextOrNull(path);
  if (text === undefined) throw new ConfigError(`Cannot read Qwen Code settings "${path}"`);
  if (text === null) return { text: null, settings: {} };
  const value = await parseSettingsText(text, path);
  const hooks = (value as Settings | null)?.hooks;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(
      `Qwen Code settings "${path}": the top level is not a JSON object; fix it first`,
    );
  }
  if (
    hooks !== undefined && (typeof hooks !== "object" || hooks === null || Array.isArray(hooks))
  ) {
    throw new ConfigError(`Qwen Code settings "${path}": "hooks" is not an object; fix it first`);
  }
  for (const event of Object.keys(QWEN_HOOK_EVENTS)) {
    const groups = (hooks as Settings | undefined)?.[event];
    if (groups !== undefined && !Array.isArray(groups)) {
      throw new ConfigError(
        `Qwen Code settings "${path}": "hooks.${event}" is not an array; fix it first`,
      );
    }
  }
  return { text, settings: value as Settings };
}

/** The hooks file with our entries dropped (pure). */
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
  const path = qwenSettingsPath(options.scope, options);
  const current = await readHooksFile(path);
  const entries = buildQwenEntries(options.command, {
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    stopPrefix: options.stopPrefix,
    work: options.work,
  });
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
        why: "backup of the settings before review-gate changed them",
      });
    }
    actions.push({
      op: "write",
      path,
      text,
      mode,
      before: current.text,
      why: "add review-gate's UserPromptSubmit and Stop hooks after yours",
    });
  }
  const notes = actions.length ? [runNote(options.scope)] : ["The hooks are already installed."];
  return await finish(path, actions, { dryRun: options.dryRun, diff: options.diff, notes });
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
  const path = qwenSettingsPath(options.scope, options);
  const raw = await readTextOrNull(path);
  if (typeof raw !== "string" || !raw.includes(MANAGED_MARKER)) {
    return await finish(path, [], { dryRun: options.dryRun, diff: options.diff, notes: [] }); // nothing of ours: not parsed
  }
  const current = await readHooksFile(path);
  const rest = withoutOurs(current.settings);
  if (current.text === null || isDeepStrictEqual(rest, current.settings)) {
    return await finish(path, [], { dryRun: options.dryRun, diff: options.diff, notes: [] });
  }
  const backupPath = path + BACKUP_SUFFIX;
  const backupText = await readTextOrNull(backupPath);
  const backup = typeof backupText === "string"
    ? await parseSettingsText(backupText, backupPath).catch(() => undefined)
    : undefined;
  const mode = (await fileMode(path, 0o644)) & 0o777;
  const actions: FileAction[] = [];
  if (typeof backupText === "string" && sameAsBackup(backup, rest)) {
    actions.push({
      op: "write",
      path,
      text: backupText,
      mode,
      before: current.text,
      why: "restore the settings saved before install",
    });
    actions.push({ op: "remove", path: backupPath, before: backupText, why: "backup restored" });
  } else if (backupText === null && Object.keys(rest).length === 0) {
    actions.push({
      op: "remove",
      path,
      before: current.text,
      why: "created by review-gate install",
    });
  } else {
    const text = await editSettingsText(current.text, null);
    actions.push({
      op: "write",
      path,
      text,
      mode,
      before: current.text,
      why: "remove review-gate's hooks",
    });
  }
  return await finish(path, actions, {
    dryRun: options.dryRun,
    diff: options.diff,
    notes: [],
  });
}

async function finish(
  path: string,
  actions: FileAction[],
  options: { dryRun?: boolean; diff?: ActionDetail; notes: string[] },
): Promise<QwenHookReport> {
  if (!options.dryRun) await applyActions(actions);
  const notes = options.notes.length ? `${options.notes.join("\n")}\n` : "";
  const rendered = renderActions(actions, { diff: options.diff });
  return { path, actions, text: `Qwen Code hooks: ${path}\n${notes}${rendered}` };
}
