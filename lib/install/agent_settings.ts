/**
 * The scoped `settings.json` of an agent whose hooks the shared settings installer edits
 * (lib/install/settings_hooks.ts) — Qwen Code's (lib/install/qwen/install.ts) and Gemini CLI's
 * (lib/install/gemini/install.ts): where the user's and the project's file are, and installing,
 * uninstalling and reading our entries in them the same way for each agent.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { ConfigError } from "../base/errors.ts";
import { type ActionDetail, readTextOrNull } from "./file_actions.ts";
import { parseSettingsText, type Settings } from "./settings_text.ts";
import { missingProgramPath, missingProgramText } from "./missing_program.ts";
import {
  installSettingsHooks,
  ourSettingsHooks,
  type SettingsHooksFile,
  type SettingsHooksReport,
  uninstallSettingsHooks,
} from "./settings_hooks.ts";

/** Environment variables, as `Deno.env.toObject()` gives them. */
type Env = Record<string, string | undefined>;

/** Which settings file: the user's or the project's. */
export type AgentScope = "user" | "project";

/** One agent's settings files, for paths and messages. */
export interface AgentSettings {
  /** The agent as messages name it, e.g. "Qwen Code". */
  product: string;
  /** The folder below the project root holding `settings.json`, e.g. ".qwen". */
  projectDir: string;
  /** The folder holding the user's `settings.json`, `undefined` when the environment has none. */
  userDir: (env: Env) => string | undefined;
  /** The variables `userDir` reads, as messages name them, e.g. "QWEN_HOME or HOME". */
  homeVars: string;
  /** The events our groups go on. */
  events: readonly string[];
}

/**
 * Inputs of an agent's hook installers (lib/install/qwen/install.ts, lib/install/gemini/install.ts,
 * lib/install/codex/install.ts, lib/install/copilot/install.ts; lib/install/registry.ts calls them
 * all with these).
 */
export interface AgentHookOptions {
  scope: AgentScope;
  /** The repository root, where the agent is started (scope `project`). */
  root: string;
  /** The variables of the agent's home, e.g. `QWEN_HOME` and `HOME` (scope `user`). */
  env: Env;
  /** Command prefix from `selfCommand()` (install only). */
  command?: string;
  /** Words before `command` in the stop entry (lib/install/self_command.ts `stopScriptPrefix`). */
  stopPrefix?: string;
  /**
   * Stop entry timeout in seconds (the gate's `timeout_seconds`; the agent's entries module writes
   * it in the agent's unit).
   */
  stopTimeoutSeconds?: number;
  /** Add the hook of the gate's `review_while_working`. */
  work?: boolean;
  dryRun?: boolean;
  /** How much of each file change to describe (lib/install/file_actions.ts; default: a diff). */
  diff?: ActionDetail;
}

/**
 * The settings file of a scope: `<root>/<projectDir>/settings.json` or `<userDir>/settings.json`.
 *
 * @throws {ConfigError} for scope `user` when `userDir` finds no folder in `env`
 */
export function agentSettingsPath(
  agent: AgentSettings,
  scope: AgentScope,
  where: { root: string; env: Env },
): string {
  if (scope === "project") return join(where.root, agent.projectDir, "settings.json");
  const dir = agent.userDir(where.env);
  if (!dir) {
    throw new ConfigError(
      `Cannot find ${agent.product}'s home: set ${agent.homeVars}, or use --scope project`,
    );
  }
  return join(dir, "settings.json");
}

/** The scope's settings file as the shared installer takes it. */
function settingsFile(agent: AgentSettings, options: AgentHookOptions): SettingsHooksFile {
  const path = agentSettingsPath(agent, options.scope, options);
  return { product: agent.product, path, events: agent.events };
}

/**
 * Add (or refresh in place) our groups, built from `options.command`, in the scope's file.
 *
 * @param build the agent's entries builder (its entries module)
 * @param text `why`: the write's reason; `runNote`: when the agent runs the hooks
 * @returns the report; `actions` is empty when the file already holds exactly ours
 * @throws {ConfigError} when `command` is missing, or from the shared installer (the file is left
 *   untouched)
 */
export async function installAgentHooks(
  agent: AgentSettings,
  options: AgentHookOptions,
  build: (
    command: string,
    opts: { stopTimeoutSeconds?: number; stopPrefix?: string; work?: boolean },
  ) => Record<string, Record<string, unknown>>,
  text: { why: string; runNote: string },
): Promise<SettingsHooksReport> {
  if (!options.command) {
    throw new ConfigError(`Cannot install the ${agent.product} hooks without a command`);
  }
  const entries = build(options.command, {
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    stopPrefix: options.stopPrefix,
    work: options.work,
  });
  return await installSettingsHooks(settingsFile(agent, options), entries, {
    dryRun: options.dryRun,
    diff: options.diff,
    ...text,
  });
}

/**
 * Remove our groups from the scope's file, restoring the pre-install bytes when possible; scope
 * `user` without a home is nothing to remove.
 *
 * @returns the report; `actions` is empty when none of ours were there
 * @throws {ConfigError} when the file is not valid JSON (left untouched)
 */
export async function uninstallAgentHooks(
  agent: AgentSettings,
  options: AgentHookOptions,
): Promise<SettingsHooksReport> {
  if (options.scope === "user" && !agent.userDir(options.env)) {
    return {
      path: "",
      actions: [],
      text: `${agent.product} hooks: no ${agent.homeVars}, nothing to remove\n`,
    };
  }
  return await uninstallSettingsHooks(settingsFile(agent, options), {
    dryRun: options.dryRun,
    diff: options.diff,
  });
}

/** One scope's file holding entries of ours, or one that does not parse (`error`). */
export type AgentScopeHooks =
  & { scope: AgentScope; path: string }
  & ({ entries: { event: string; hook: Settings }[] } | { error: string });

/**
 * Our entries in the user's file (when the environment has a home) and the project's, for the
 * agent's status module; a missing file or one without entries of ours is left out.
 *
 * @returns per file, in scope order `user`, `project`: our entries in file order, or the parse
 *   error's message
 */
export async function agentScopeHooks(
  agent: AgentSettings,
  where: { root: string; env: Env },
): Promise<AgentScopeHooks[]> {
  const out: AgentScopeHooks[] = [];
  for (const scope of ["user", "project"] as AgentScope[]) {
    if (scope === "user" && !agent.userDir(where.env)) continue;
    const path = agentSettingsPath(agent, scope, where);
    const text = await readTextOrNull(path);
    if (typeof text !== "string") continue;
    let settings: Settings;
    try {
      settings = await parseSettingsText(text, path) as Settings;
    } catch (error) {
      out.push({ scope, path, error: (error as Error).message });
      continue;
    }
    const entries = ourSettingsHooks(settings, agent.events);
    if (entries.length) out.push({ scope, path, entries });
  }
  return out;
}

/**
 * The installed stop entry's timeout in seconds: the `timeout` (milliseconds) of our entry on
 * `stopEvent`, `defaultSeconds` when it has none (the agent's own default), `undefined` when it is
 * not a number.
 */
export function stopTimeoutSeconds(
  entries: { event: string; hook: Settings }[],
  stopEvent: string,
  defaultSeconds: number,
): number | undefined {
  const stop = entries.find((e) => e.event === stopEvent)?.hook.timeout;
  return typeof stop === "number" ? stop / 1000 : stop === undefined ? defaultSeconds : undefined;
}

/**
 * Why none of our hooks run when the program our first entry's command starts is gone
 * (lib/install/missing_program.ts), else `null`.
 *
 * @param reinstall the command that writes the entries again, e.g. `review-gate install --qwen`
 */
export async function missingProgramDetail(
  agent: AgentSettings,
  entries: { event: string; hook: Settings }[],
  reinstall: string,
): Promise<string | null> {
  const missing = await missingProgramPath(String(entries[0]?.hook.command ?? ""));
  return missing
    ? missingProgramText(missing, `every ${agent.product} turn's hooks`, reinstall)
    : null;
}
