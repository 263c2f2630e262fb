/**
 * Will Gemini CLI run review-gate's hooks? (for `doctor` and `gate status`): for the user's and
 * the project's `settings.json`, where our entries are and what switches them off —
 * `hooksConfig.enabled: false` or our hook's name in `hooksConfig.disabled` in a settings layer
 * (system, user, project), or a folder Gemini CLI does not trust (folder trust is on by default,
 * and without trust no hook runs, the user's included) — facts in lib/gates/gemini/door.ts. Also
 * the installed AfterAgent `timeout` (milliseconds) against `gates.gemini_stop.timeout_seconds`.
 *
 * @module
 */
import { dirname, join, normalize } from "../../base/path.ts";
import { readTextOrNull } from "../file_actions.ts";
import { parseSettingsText, type Settings } from "../settings_text.ts";
import { GEMINI_HOOK_EVENTS, type GeminiScope } from "./entries.ts";
import { agentScopeHooks, missingProgramDetail, stopTimeoutSeconds } from "../agent_settings.ts";
import { GEMINI_SETTINGS, geminiDir, geminiSettingsPath } from "./install.ts";

/** One of our Gemini CLI hook files and whether Gemini CLI will run it. */
export interface GeminiHookStatus {
  scope: GeminiScope;
  path: string;
  /** `true`: both hooks installed and nothing switches them off. */
  runs: boolean;
  /** One sentence. */
  detail: string;
  /** The installed AfterAgent entry's timeout in seconds (written in ms), when there is one. */
  stopTimeout?: number;
}

type Env = Record<string, string | undefined>;

/** Gemini CLI's system settings file (`GEMINI_CLI_SYSTEM_SETTINGS_PATH` overrides it). */
export function geminiSystemSettingsPath(env: Env): string {
  if (env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (Deno.build.os === "darwin") return "/Library/Application Support/GeminiCli/settings.json";
  if (Deno.build.os === "windows") return "C:\\ProgramData\\gemini-cli\\settings.json";
  return "/etc/gemini-cli/settings.json";
}

/** Gemini CLI's `trustedFolders.json` (`GEMINI_CLI_TRUSTED_FOLDERS_PATH` overrides it). */
export function geminiTrustedFoldersPath(env: Env): string | undefined {
  if (env.GEMINI_CLI_TRUSTED_FOLDERS_PATH) return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH;
  const dir = geminiDir(env);
  return dir && join(dir, "trustedFolders.json");
}

async function readSettings(path: string | undefined): Promise<Settings | null> {
  const text = path ? await readTextOrNull(path) : null;
  if (typeof text !== "string") return null;
  const value = await parseSettingsText(text, path!).catch(() => null);
  return value && typeof value === "object" && !Array.isArray(value) ? value as Settings : null;
}

/**
 * Whether `folder` is trusted by a `trustedFolders.json` value (pure), as Gemini CLI decides it:
 * among the rules whose folder (a `TRUST_PARENT` rule's parent) holds `folder`, the one with the
 * longest path wins; `DO_NOT_TRUST` is false, `TRUST_FOLDER`/`TRUST_PARENT` true, none undefined.
 *
 * @param rules the parsed file (path → trust level)
 * @param folder the resolved folder gemini is started in
 */
export function geminiFolderTrust(rules: unknown, folder: string): boolean | undefined {
  if (!rules || typeof rules !== "object" || Array.isArray(rules)) return undefined;
  let best = -1;
  let level: unknown;
  for (const [path, trust] of Object.entries(rules as Record<string, unknown>)) {
    const root = normalize(trust === "TRUST_PARENT" ? dirname(path) : path).replace(/\/+$/, "");
    const within = folder === root || folder.startsWith(`${root}/`) || root === "";
    if (within && path.length > best) {
      best = path.length;
      level = trust;
    }
  }
  if (level === "DO_NOT_TRUST") return false;
  return level === "TRUST_FOLDER" || level === "TRUST_PARENT" ? true : undefined;
}

/** `hooksConfig` of a layer, when it is an object. */
function hooksConfig(layer: Settings | null): Settings | undefined {
  const value = layer?.hooksConfig;
  return value && typeof value === "object" && !Array.isArray(value)
    ? value as Settings
    : undefined;
}

/**
 * Our Gemini CLI hooks in the user's and the project's settings file.
 *
 * @param options where gemini is started (the repository root) and the environment
 *   (`GEMINI_CLI_HOME`, `HOME`, `GEMINI_CLI_SYSTEM_SETTINGS_PATH`, `GEMINI_CLI_TRUSTED_FOLDERS_PATH`,
 *   `GEMINI_CLI_TRUST_WORKSPACE`)
 * @returns one status per file holding an entry of ours (or that does not parse)
 */
export async function geminiHookStatuses(
  options: { root: string; env: Env },
): Promise<GeminiHookStatus[]> {
  const dir = geminiDir(options.env);
  const layers = {
    system: await readSettings(geminiSystemSettingsPath(options.env)),
    user: await readSettings(dir && join(dir, "settings.json")),
    project: await readSettings(geminiSettingsPath("project", options)),
  };
  const out: GeminiHookStatus[] = [];
  for (const found of await agentScopeHooks(GEMINI_SETTINGS, options)) {
    const { scope, path } = found;
    if ("error" in found) out.push({ scope, path, runs: false, detail: found.error });
    else out.push(await statusOf({ scope, path, entries: found.entries }, options, layers));
  }
  return out;
}

/** The status of one file holding entries of ours. */
async function statusOf(
  at: { scope: GeminiScope; path: string; entries: { event: string; hook: Settings }[] },
  options: { root: string; env: Env },
  layers: Record<"system" | "user" | "project", Settings | null>,
): Promise<GeminiHookStatus> {
  const { scope, path, entries } = at;
  const base = { scope, path, stopTimeout: stopTimeoutSeconds(entries, "AfterAgent", 60) };
  const again = `review-gate install --gemini --scope ${scope}`;
  const missing = await missingProgramDetail(GEMINI_SETTINGS, entries, again);
  if (missing) return { ...base, runs: false, detail: missing };
  const problems: string[] = [];
  if (entries.length < Object.keys(GEMINI_HOOK_EVENTS).length) {
    problems.push("one of the two hooks is missing");
  }
  const ours = entries.map((e) => String(e.hook.name ?? e.hook.command));
  for (const [name, layer] of Object.entries(layers)) {
    const config = hooksConfig(layer);
    if (config?.enabled === false) {
      problems.push(`hooksConfig.enabled is false in the ${name} settings`);
    }
    const off = Array.isArray(config?.disabled) ? config.disabled : [];
    for (const hook of ours.filter((h) => off.includes(h))) {
      problems.push(`"${hook}" is in hooksConfig.disabled of the ${name} settings`);
    }
  }
  problems.push(...await trustProblems(options, [layers.system, layers.user]));
  if (problems.length) {
    return {
      ...base,
      runs: false,
      detail: `installed in "${path}" but Gemini CLI will NOT run it: ${problems.join("; ")}`,
    };
  }
  const where = scope === "project" ? ", when started in this folder" : "";
  return {
    ...base,
    runs: true,
    detail: `installed in "${path}"; Gemini CLI runs it in the TUI and in "gemini -p"${where}${
      redactionNote(layers)
    }`,
  };
}

/** Why Gemini CLI runs no hook in the root (folder trust), if it will not. */
async function trustProblems(
  options: { root: string; env: Env },
  layers: (Settings | null)[],
): Promise<string[]> {
  if (options.env.GEMINI_CLI_TRUST_WORKSPACE === "true") return [];
  const trustOff = layers.some((layer) =>
    ((layer?.security as Settings | undefined)?.folderTrust as Settings | undefined)?.enabled ===
      false
  );
  if (trustOff) return [];
  const path = geminiTrustedFoldersPath(options.env);
  const text = path ? await readTextOrNull(path) : null;
  let rules: unknown = null;
  try {
    const { parse } = await import("jsonc-parser");
    const errors: unknown[] = [];
    rules = typeof text === "string" ? parse(text, errors as never) : null;
    if (errors.length) throw new Error("not JSON");
  } catch {
    return [`${path} is not valid JSON (Gemini CLI refuses to start)`];
  }
  const root = await Deno.realPath(options.root).catch(() => options.root);
  const trusted = geminiFolderTrust(rules, root);
  if (trusted === true) return [];
  const how = trusted === false ? "is marked DO_NOT_TRUST" : "is not trusted";
  return [
    `"${root}" ${how} in ${
      path || "trustedFolders.json"
    } and Gemini CLI runs no hook in an untrusted folder (trust it when gemini asks, or start it with --skip-trust)`,
  ];
}

/** A note when hooks get a redacted environment (a reviewer's key from it is then missing). */
function redactionNote(layers: Record<string, Settings | null>): string {
  const on = Object.values(layers).some((layer) =>
    ((layer?.security as Settings | undefined)?.environmentVariableRedaction as
      | Settings
      | undefined)?.enabled === true
  );
  return on
    ? "; security.environmentVariableRedaction is on: the hooks get no variable named like *KEY*, *TOKEN* or *AUTH*, so a reviewer that needs one from the environment cannot run (the turn is then NOT reviewed) unless it is in its allowed list"
    : "";
}

/**
 * The problem with an installed AfterAgent timeout below the configured one, if any.
 *
 * @param status from {@linkcode geminiHookStatuses}
 * @param configured `gates.gemini_stop.timeout_seconds`
 */
export function geminiTimeoutProblem(status: GeminiHookStatus, configured: number): string | null {
  if (status.stopTimeout === undefined || status.stopTimeout >= configured) return null;
  return `the installed AfterAgent hook's timeout is ${status.stopTimeout} s but gates.gemini_stop.timeout_seconds is ${configured} s: Gemini CLI kills a longer review and lets the turn end unreviewed; run "review-gate install --gemini --scope ${status.scope}" again`;
}
