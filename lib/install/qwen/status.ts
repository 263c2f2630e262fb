/**
 * Will Qwen Code run review-gate's hooks? (for `doctor` and `gate status`): for the user's and the
 * project's `settings.json`, where our entries are and what switches them off — `disableAllHooks`
 * in a settings layer (user, project, system), or, for the project's file, a folder Qwen Code does
 * not trust (`security.folderTrust.enabled` with no `trustedFolders.json` rule trusting it) —
 * facts in lib/gates/qwen/door.ts. Both scopes run in headless `qwen -p` as in the TUI; `--bare`
 * turns every hook off, which no file shows. Also the installed Stop `timeout` (milliseconds)
 * against `gates.qwen_stop.timeout_seconds`.
 *
 * @module
 */
import { dirname, join, normalize } from "../../base/path.ts";
import { readTextOrNull } from "../file_actions.ts";
import { parseSettingsText, type Settings } from "../settings_text.ts";
import { QWEN_HOOK_EVENTS, type QwenScope } from "./entries.ts";
import { agentScopeHooks, missingProgramDetail, stopTimeoutSeconds } from "../agent_settings.ts";
import { QWEN_SETTINGS, qwenHome, qwenSettingsPath } from "./install.ts";

/** One of our Qwen Code hook files and whether Qwen Code will run it. */
export interface QwenHookStatus {
  scope: QwenScope;
  path: string;
  /** `true`: both hooks installed and nothing switches them off. */
  runs: boolean;
  /** One sentence. */
  detail: string;
  /** The installed Stop entry's timeout in seconds (written in ms), when there is one. */
  stopTimeout?: number;
}

/** Qwen Code's system settings file (`QWEN_CODE_SYSTEM_SETTINGS_PATH` overrides it). */
export function qwenSystemSettingsPath(env: Record<string, string | undefined>): string {
  if (env.QWEN_CODE_SYSTEM_SETTINGS_PATH) return env.QWEN_CODE_SYSTEM_SETTINGS_PATH;
  if (Deno.build.os === "darwin") return "/Library/Application Support/QwenCode/settings.json";
  if (Deno.build.os === "windows") return "C:\\ProgramData\\qwen-code\\settings.json";
  return "/etc/qwen-code/settings.json";
}

async function readSettings(path: string): Promise<Settings | null> {
  const text = await readTextOrNull(path);
  if (typeof text !== "string") return null;
  const value = await parseSettingsText(text, path).catch(() => null);
  return value && typeof value === "object" && !Array.isArray(value) ? value as Settings : null;
}

/**
 * Whether `folder` is trusted by a `trustedFolders.json` value (pure): a `TRUST_FOLDER` rule on it
 * or an ancestor, or a `TRUST_PARENT` rule on a child of an ancestor (Qwen Code's
 * `isPathTrusted`).
 *
 * @param rules the parsed file (path → trust level)
 * @param folder the resolved folder qwen is started in
 */
export function qwenFolderTrusted(rules: unknown, folder: string): boolean {
  if (!rules || typeof rules !== "object") return false;
  const within = (root: string) => {
    const r = normalize(root).replace(/\/+$/, "");
    return folder === r || folder.startsWith(`${r}/`);
  };
  return Object.entries(rules as Record<string, unknown>).some(([path, level]) =>
    (level === "TRUST_FOLDER" && within(path)) ||
    (level === "TRUST_PARENT" && within(dirname(path)))
  );
}

/**
 * Our Qwen Code hooks in the user's and the project's settings file.
 *
 * @param options where qwen is started (the repository root) and the environment (`QWEN_HOME`,
 *   `HOME`, `QWEN_CODE_SYSTEM_SETTINGS_PATH`, `QWEN_CODE_TRUSTED_FOLDERS_PATH`)
 * @returns one status per file holding an entry of ours (or that does not parse)
 */
export async function qwenHookStatuses(
  options: { root: string; env: Record<string, string | undefined> },
): Promise<QwenHookStatus[]> {
  const home = qwenHome(options.env);
  const system = await readSettings(qwenSystemSettingsPath(options.env));
  const user = home ? await readSettings(join(home, "settings.json")) : null;
  const project = await readSettings(qwenSettingsPath("project", options));
  const out: QwenHookStatus[] = [];
  for (const found of await agentScopeHooks(QWEN_SETTINGS, options)) {
    const { scope, path } = found;
    if ("error" in found) {
      out.push({ scope, path, runs: false, detail: found.error });
      continue;
    }
    const { entries } = found;
    const base = { scope, path, stopTimeout: stopTimeoutSeconds(entries, "Stop", 60) };
    const again = `review-gate install --qwen --scope ${scope}`;
    const missing = await missingProgramDetail(QWEN_SETTINGS, entries, again);
    if (missing) {
      out.push({ ...base, runs: false, detail: missing });
      continue;
    }
    const problems: string[] = [];
    if (entries.length < Object.keys(QWEN_HOOK_EVENTS).length) {
      problems.push("one of the two hooks is missing");
    }
    for (
      const [name, layer] of [["system", system], ["user", user], ["project", project]] as const
    ) {
      if (layer?.disableAllHooks === true) {
        problems.push(`disableAllHooks is true in the ${name} settings`);
      }
    }
    if (scope === "project") problems.push(...await projectTrustProblems(options, [system, user]));
    out.push(
      problems.length
        ? {
          ...base,
          runs: false,
          detail: `installed in "${path}" but Qwen Code will NOT run it: ${problems.join("; ")}`,
        }
        : {
          ...base,
          runs: true,
          detail:
            `installed in "${path}"; Qwen Code runs it in the TUI and in "qwen -p" (not with --bare)${
              scope === "project" ? ", when started in this folder" : ""
            }`,
        },
    );
  }
  return out;
}

/** Why Qwen Code will not read the project's settings (folder trust), if it will not. */
async function projectTrustProblems(
  options: { root: string; env: Record<string, string | undefined> },
  layers: (Settings | null)[],
): Promise<string[]> {
  const trustOn = layers.some((layer) =>
    ((layer?.security as Settings | undefined)?.folderTrust as Settings | undefined)?.enabled ===
      true
  );
  if (!trustOn) return [];
  const home = qwenHome(options.env);
  const path = options.env.QWEN_CODE_TRUSTED_FOLDERS_PATH ||
    (home ? join(home, "trustedFolders.json") : "");
  const text = path ? await readTextOrNull(path) : null;
  let rules: unknown = null;
  try {
    rules = typeof text === "string" ? JSON.parse(text) : null;
  } catch {
    return [`${path} is not valid JSON (Qwen Code refuses to start)`];
  }
  const root = await Deno.realPath(options.root).catch(() => options.root);
  return qwenFolderTrusted(rules, root) ? [] : [
    `security.folderTrust.enabled is set and "${root}" is not trusted in ${
      path || "trustedFolders.json"
    }, so .qwen/settings.json is not read (trust the folder when qwen asks)`,
  ];
}

/**
 * The problem with an installed Stop timeout below the configured one, if any.
 *
 * @param status from {@linkcode qwenHookStatuses}
 * @param configured `gates.qwen_stop.timeout_seconds`
 */
export function qwenTimeoutProblem(status: QwenHookStatus, configured: number): string | null {
  if (status.stopTimeout === undefined || status.stopTimeout >= configured) return null;
  return `the installed Stop hook's timeout is ${status.stopTimeout} s but gates.qwen_stop.timeout_seconds is ${configured} s: Qwen Code kills a longer review and lets the turn end unreviewed; run "review-gate install --qwen --scope ${status.scope}" again`;
}
