/**
 * Install and uninstall review-gate's Codex hooks (`UserPromptSubmit` → `hook codex-prompt`, `Stop`
 * → `hook codex-stop`) in a Codex `hooks.json`: the user's `$CODEX_HOME/hooks.json` (default
 * `~/.codex`) or the repository's `.codex/hooks.json` (lib/gates/codex/door.ts has the verified
 * contract). Codex trusts each hook by its position (`<file>:<event>:<group>:<handler>`) and a hash
 * over its command and timeout, so our groups go **after** the user's (inserting one before theirs
 * would silently untrust them), a re-install rewrites our group where it stands, and the command
 * and timeout only change when the binary or `gates.codex_stop.timeout_seconds` does. The file is
 * edited as text (lib/install/settings_text.ts): the user's entries and formatting stay byte for
 * byte; the first change keeps the original beside it as `hooks.json.review-gate.bak`, and
 * uninstall writes those bytes back when the file minus our entries equals them. Codex runs the
 * hooks only once the user trusts them: install says how, and `doctor` checks it.
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
import { buildCodexEntries, CODEX_HOOK_EVENTS, type CodexScope } from "./entries.ts";
import { MANAGED_MARKER } from "../git/stub.ts";

/** Suffix of the backup kept beside a hooks file on our first change. */
export const BACKUP_SUFFIX = ".review-gate.bak";

/** Inputs of the Codex installers. */
export interface CodexHookOptions {
  scope: CodexScope;
  /** The repository root (scope `project`). */
  root: string;
  /** `CODEX_HOME` and `HOME` (scope `user`). */
  env: Record<string, string | undefined>;
  /** Command prefix from `selfCommand()` (install only). */
  command?: string;
  /** Words before `command` in the Stop entry (lib/install/self_command.ts `stopScriptPrefix`). */
  stopPrefix?: string;
  /** Stop entry `timeout` in seconds (`gates.codex_stop.timeout_seconds`). */
  stopTimeoutSeconds?: number;
  /** Add the `PostToolUse` hook of `gates.codex_stop.review_while_working`. */
  work?: boolean;
  dryRun?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
}

/** What was (or, with `dryRun`, would be) done. */
export interface CodexHookReport {
  path: string;
  actions: FileAction[];
  /** Human summary: where, what to do next, the line diff. */
  text: string;
}

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

async function readHooksFile(path: string): Promise<{ text: string | null; settings: Settings }> {
  const text = await readTextOrNull(path);
  if (text === undefined) throw new ConfigError(`Cannot read Codex hooks "${path}"`);
  if (text === null) return { text: null, settings: {} };
  const value = await parseSettingsText(text, path);
  const hooks = (value as Settings | null)?.hooks;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(
      `Codex hooks "${path}": the top level is not a JSON object; fix it first`,
    );
  }
  if (
    hooks !== undefined && (typeof hooks !== "object" || hooks === null || Array.isArray(hooks))
  ) {
    throw new ConfigError(`Codex hooks "${path}": "hooks" is not an object; fix it first`);
  }
  for (const event of Object.keys(CODEX_HOOK_EVENTS)) {
    const groups = (hooks as Settings | undefined)?.[event];
    if (groups !== undefined && !Array.isArray(groups)) {
      throw new ConfigError(
        `Codex hooks "${path}": "hooks.${event}" is not an array; fix it first`,
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
  const path = codexHooksPath(options.scope, options);
  const current = await readHooksFile(path);
  const entries = buildCodexEntries(options.command, {
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
        why: "backup of the hooks before review-gate changed them",
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
  const notes = actions.length ? [trustNote(options.scope)] : ["The hooks are already installed."];
  return await finish(path, actions, { dryRun: options.dryRun, diff: options.diff, notes });
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
  const path = codexHooksPath(options.scope, options);
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
      why: "restore the hooks saved before install",
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
    notes: shiftNotes(current.settings),
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

async function finish(
  path: string,
  actions: FileAction[],
  options: { dryRun?: boolean; diff?: ActionDetail; notes: string[] },
): Promise<CodexHookReport> {
  if (!options.dryRun) await applyActions(actions);
  const notes = options.notes.length ? `${options.notes.join("\n")}\n` : "";
  const rendered = renderActions(actions, { diff: options.diff });
  return { path, actions, text: `Codex hooks: ${path}\n${notes}${rendered}` };
}
