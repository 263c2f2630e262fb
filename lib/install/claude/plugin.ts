/**
 * Is review-gate's Claude Code plugin installed and enabled for a project? A plugin Stop hook and a
 * settings Stop hook run in parallel and are never merged (README "Claude Code plugin"), so
 * `install --claude` refuses while the plugin gates the project. Claude Code 2.1.332 keeps what
 * decides it in files (checked against the real CLI; `claude plugin list --json` says the same but
 * takes about 2 s):
 * - `<cfg>/plugins/installed_plugins.json` (`<cfg>` = `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`):
 *   `{"version": 2, "plugins": {"<name>@<marketplace>": [{scope, projectPath?, …}]}}`, one element
 *   per installation; `user` applies everywhere, `project`/`local` where `projectPath` is the
 *   project directory;
 * - `enabledPlugins["<id>"]` in `<cfg>/settings.json`, `<project>/.claude/settings.json` and
 *   `<project>/.claude/settings.local.json`, later files overriding earlier ones — read as JSONC,
 *   like Claude Code reads them (comments and trailing commas allowed).
 * The plugin is ours when its name is `review-gate`, whatever marketplace it came from. Plugins
 * loaded for one session only (`--plugin-dir`, `CLAUDE_CODE_PLUGIN_DIRS`) leave no trace here;
 * the runtime claim of the Stop gate (lib/gates/claude/claim.ts) covers them. Unreadable or
 * malformed files count as "not there": this check never stops an install on its own failure.
 *
 * @module
 */
import { join, resolve } from "../../base/path.ts";
import { UsageError } from "../../base/errors.ts";
import { parseSettingsText } from "../settings_text.ts";
import { readRegularText } from "../../base/regular_file.ts";

/** The plugin's name in `.claude-plugin/plugin.json`. */
export const PLUGIN_NAME = "review-gate";

/** Settings scopes, lowest precedence first (later ones override `enabledPlugins`). */
const SCOPES = ["user", "project", "local"] as const;
/** A settings scope of Claude Code. */
export type PluginScope = typeof SCOPES[number];

/** An installation of our plugin that is enabled for the project. */
export interface EnabledPlugin {
  /** Plugin id, `review-gate@<marketplace>`. */
  id: string;
  /** Scope of the installation (`installed_plugins.json`). */
  installScope: PluginScope;
  /** The settings scope whose `enabledPlugins` entry enables it (the one to disable). */
  enabledIn: PluginScope;
}

/** Where Claude Code keeps its configuration. */
export interface ClaudeDirs {
  /** The project directory Claude Code is started in (its `.claude/` is read). */
  projectDir: string;
  env: Record<string, string | undefined>;
}

/** A file read as Claude Code reads its settings: JSON with comments and trailing commas. */
async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    const value = await parseSettingsText(await readRegularText(path), path);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}

async function samePath(a: string, b: string): Promise<boolean> {
  const real = (p: string) => Deno.realPath(p).catch(() => resolve(p));
  return (await real(a)) === (await real(b));
}

/** `<cfg>`: `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`; null without either. */
export function claudeConfigDir(env: Record<string, string | undefined>): string | null {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return env.HOME ? join(env.HOME, ".claude") : null;
}

/** Installations of our plugin that apply to the project: id → the scopes installed in. */
async function installedForProject(
  cfg: string,
  projectDir: string,
): Promise<Map<string, PluginScope>> {
  const found = new Map<string, PluginScope>();
  const data = await readJson(join(cfg, "plugins", "installed_plugins.json"));
  const plugins = data?.plugins;
  if (typeof plugins !== "object" || plugins === null) return found;
  for (const [id, installs] of Object.entries(plugins)) {
    if (!id.startsWith(`${PLUGIN_NAME}@`) || !Array.isArray(installs)) continue;
    for (const install of installs) {
      const scope = install?.scope;
      if (!SCOPES.includes(scope)) continue;
      const applies = scope === "user" ||
        (typeof install.projectPath === "string" &&
          await samePath(install.projectPath, projectDir));
      if (applies && !found.has(id)) found.set(id, scope);
    }
  }
  return found;
}

/**
 * Find an installation of review-gate's plugin that is enabled for the project.
 *
 * @param dirs the project directory and the environment (`CLAUDE_CONFIG_DIR`, `HOME`)
 * @returns the first enabled installation, or `null` (none, or the files cannot be read)
 */
export async function findEnabledPlugin(dirs: ClaudeDirs): Promise<EnabledPlugin | null> {
  const cfg = claudeConfigDir(dirs.env);
  if (cfg === null) return null;
  const installed = await installedForProject(cfg, dirs.projectDir);
  if (installed.size === 0) return null;
  const settingsFiles: Record<PluginScope, string> = {
    user: join(cfg, "settings.json"),
    project: join(dirs.projectDir, ".claude", "settings.json"),
    local: join(dirs.projectDir, ".claude", "settings.local.json"),
  };
  const enabled = new Map<string, { on: boolean; scope: PluginScope }>();
  for (const scope of SCOPES) {
    const plugins = (await readJson(settingsFiles[scope]))?.enabledPlugins;
    if (typeof plugins !== "object" || plugins === null) continue;
    for (const [id, on] of Object.entries(plugins)) {
      if (typeof on === "boolean") enabled.set(id, { on, scope });
    }
  }
  for (const [id, installScope] of installed) {
    const state = enabled.get(id);
    if (state?.on) return { id, installScope, enabledIn: state.scope };
  }
  return null;
}

/**
 * Refuse a settings install of the Claude hooks while our plugin gates the project.
 *
 * @param dirs the project directory and the environment
 * @throws {UsageError} (exit 2) naming the plugin and how to disable it
 */
export async function ensureNoEnabledPlugin(dirs: ClaudeDirs): Promise<void> {
  const plugin = await findEnabledPlugin(dirs);
  if (plugin === null) return;
  throw new UsageError(
    `The review-gate Claude Code plugin is enabled for this project ("${plugin.id}", ` +
      `${plugin.enabledIn} settings): its hooks already gate Claude Code here, and hooks in ` +
      `settings as well would review every stop twice. Use the plugin (and ` +
      `"review-gate install --git" for the pre-push hook alone), or disable it first: ` +
      `claude plugin disable ${plugin.id} --scope ${plugin.enabledIn}`,
  );
}
