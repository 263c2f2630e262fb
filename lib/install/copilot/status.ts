/**
 * Will the GitHub Copilot CLI run review-gate's hooks? (for `doctor` and `gate status`): for the
 * user's `$COPILOT_HOME/hooks/review-gate.json` and the repository's
 * `.github/hooks/review-gate.json`, whether ours is there, whether the program the hooks name
 * exists, the installed Stop `timeout` against `gates.copilot_stop.timeout_seconds`, and what
 * switches the hooks off. Verified with the pinned Copilot CLI 1.0.102 (probe hooks in both
 * folders, `copilot -p` against the loopback mock; lib/gates/copilot/door.ts):
 * - **Folder trust.** A repository's hooks run only in a trusted folder: the folder or one of its
 *   parents listed in `trustedFolders` of `$COPILOT_HOME/config.json` (compared case-sensitively,
 *   a trailing `/` ignored; the same key in `settings.json` is not read), or
 *   `COPILOT_ALLOW_ALL=true` — exactly `true`: `TRUE`, `1` or ` true ` only approve tools — or
 *   `--trust-folder` for one `-p` run (which no file shows). The user's hooks run in every folder.
 * - **`disableAllHooks: true`** (a boolean; the string "true" is ignored) in the repository's
 *   `.github/copilot/settings.json` or `settings.local.json` (the local file's value wins) turns
 *   off every hook, the user's too — once the folder is trusted (untrusted, those files are not
 *   read). In the user's `$COPILOT_HOME/settings.json` it turns off only the hooks written in that
 *   file's own `hooks` key, not the hooks folders; in `config.json` it does nothing.
 * - **`disabledHooks`** in the user's `settings.json` (what `/hooks` writes when you switch one
 *   off) lists content-hash keys of hooks Copilot discovers but does not run; review-gate cannot
 *   compute those keys, so any entry there is reported as a hook that may be ours.
 * - **The hooks' environment.** Copilot starts its hooks without the variables it reads itself
 *   (seen: `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `COPILOT_OFFLINE`, `COPILOT_PROVIDER_*`; other
 *   `*_KEY`/`*_TOKEN` variables pass), so a reviewer that takes its key from one of those cannot
 *   run in the Stop hook: every installed row says so ({@linkcode COPILOT_HOOK_ENV_NOTE}).
 * The settings files are read as JSON with comments (Copilot may reject a file that has them and
 * then ignore its `disableAllHooks`: the doctor then says NOT where Copilot would run them, never
 * the other way round).
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { readTextOrNull } from "../file_actions.ts";
import { parseSettingsText, type Settings } from "../settings_text.ts";
import { MANAGED_MARKER } from "../git/stub.ts";
import { missingProgramPath, missingProgramText } from "../missing_program.ts";
import type { CopilotScope } from "./entries.ts";
import { copilotHome, copilotHooksPath } from "./install.ts";

/** Our Copilot hooks file in one scope and whether Copilot will run it. */
export interface CopilotHookStatus {
  scope: CopilotScope;
  path: string;
  /** `true`: installed, and Copilot runs hooks from there. */
  runs: boolean;
  /** One sentence. */
  detail: string;
  /** The installed Stop entry's `timeout` (seconds), when there is one. */
  stopTimeout?: number;
}

type Env = Record<string, string | undefined>;

/** What a running hook of ours lacks (see the module doc), appended to every running row. */
export const COPILOT_HOOK_ENV_NOTE =
  "; Copilot strips ANTHROPIC_API_KEY, OPENAI_API_KEY and COPILOT_PROVIDER_* (its own variables) from its hooks' environment: a reviewer that needs one of them from there cannot run, and the turn is NOT reviewed";

/** A settings file parsed (JSON with comments), or null when missing, unreadable or not an object. */
async function readSettings(path: string | undefined): Promise<Settings | null> {
  const text = path ? await readTextOrNull(path) : null;
  if (typeof text !== "string") return null;
  const value = await parseSettingsText(text, path!).catch(() => null);
  return value && typeof value === "object" && !Array.isArray(value) ? value as Settings : null;
}

/**
 * Whether Copilot trusts `folder` by a `trustedFolders` list (pure): an entry equal to the folder
 * or to one of its parents, a trailing `/` ignored, compared case-sensitively as Copilot does.
 *
 * @param list the `trustedFolders` value of `$COPILOT_HOME/config.json` (anything)
 * @param folder the resolved folder Copilot is started in
 * @param resolve maps an entry to its real path (symlinks resolved), when it can
 */
export async function copilotFolderTrusted(
  list: unknown,
  folder: string,
  resolve: (entry: string) => Promise<string> = (e) => Deno.realPath(e).catch(() => e),
): Promise<boolean> {
  if (!Array.isArray(list)) return false;
  for (const entry of list) {
    if (typeof entry !== "string" || entry === "") continue;
    const root = (await resolve(entry)).replace(/(.)\/+$/, "$1");
    if (folder === root || folder.startsWith(root.endsWith("/") ? root : `${root}/`)) return true;
  }
  return false;
}

/** What decides, for one repository, whether Copilot runs the hooks of each folder. */
interface CopilotSwitches {
  /** Why the folder is trusted, or null when it is not. */
  trust: string | null;
  /** The repository settings file whose `disableAllHooks: true` is in force, if any. */
  disabledBy: string | null;
  /** The user's settings file when its `disabledHooks` lists any key. */
  disabledHooks: { path: string; count: number } | null;
}

/** Read the files and the environment that switch Copilot's hooks off (see the module doc). */
async function copilotSwitches(options: { root: string; env: Env }): Promise<CopilotSwitches> {
  const home = copilotHome(options.env);
  const root = await Deno.realPath(options.root).catch(() => options.root);
  const config = await readSettings(home && join(home, "config.json"));
  const trust = options.env.COPILOT_ALLOW_ALL === "true"
    ? "COPILOT_ALLOW_ALL=true in this environment trusts the folder"
    : await copilotFolderTrusted(config?.trustedFolders, root)
    ? `this folder is trusted (trustedFolders of ${join(home!, "config.json")})`
    : null;
  let disabledBy: string | null = null;
  for (const name of ["settings.json", "settings.local.json"]) {
    const path = join(options.root, ".github", "copilot", name);
    const value = (await readSettings(path))?.disableAllHooks;
    if (typeof value === "boolean") disabledBy = value ? path : null; // the local file wins
  }
  const userSettings = home && join(home, "settings.json");
  const list = (await readSettings(userSettings))?.disabledHooks;
  const count = Array.isArray(list) ? list.length : 0;
  return {
    trust,
    disabledBy,
    disabledHooks: count > 0 ? { path: userSettings!, count } : null,
  };
}

/** The Stop entry's timeout in our file's text. */
function stopTimeoutOf(text: string): number | undefined {
  try {
    const hooks = (JSON.parse(text) as { hooks?: { Stop?: { hooks?: { timeout?: unknown }[] }[] } })
      .hooks;
    const timeout = hooks?.Stop?.[0]?.hooks?.[0]?.timeout;
    return typeof timeout === "number" ? timeout : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The status of each scope holding our hooks file (none: not installed).
 *
 * @param options the repository root and the environment (`COPILOT_HOME`, `HOME`,
 *   `COPILOT_ALLOW_ALL`)
 */
export async function copilotHookStatuses(
  options: { root: string; env: Env },
): Promise<CopilotHookStatus[]> {
  const out: CopilotHookStatus[] = [];
  let switches: CopilotSwitches | undefined;
  for (const scope of ["user", "project"] as const) {
    let path: string;
    try {
      path = copilotHooksPath(scope, options);
    } catch {
      continue;
    }
    const text = await readTextOrNull(path);
    if (typeof text !== "string" || !text.includes(MANAGED_MARKER)) continue;
    const base = { scope, path, stopTimeout: stopTimeoutOf(text) };
    const missing = await missingProgramPath(text.match(/"command": "([^"]*)"/)?.[1] ?? "");
    if (missing) {
      const again = `review-gate install --copilot${scope === "project" ? " --scope project" : ""}`;
      const detail = missingProgramText(missing, "every Copilot turn", again);
      out.push({ ...base, runs: false, detail });
      continue;
    }
    switches ??= await copilotSwitches(options);
    out.push({ ...base, ...scopeVerdict(scope, path, switches) });
  }
  return out;
}

/** Whether Copilot runs our file of one scope, and the sentence that says why (with the fix). */
function scopeVerdict(
  scope: CopilotScope,
  path: string,
  switches: CopilotSwitches,
): { runs: boolean; detail: string } {
  const { trust, disabledBy, disabledHooks } = switches;
  const problems: string[] = [];
  if (scope === "project" && !trust) {
    problems.push(
      'this folder is not trusted and Copilot runs a repository\'s hooks only in a trusted one (start "copilot" here and trust it when it asks, or run it with COPILOT_ALLOW_ALL=true or --trust-folder)',
    );
  }
  if (disabledBy) {
    const when = trust ? "" : " once you trust this folder";
    problems.push(
      `disableAllHooks is true in ${disabledBy}, which switches every hook off, the user's too${when} (set it to false or remove it)`,
    );
  }
  if (disabledHooks) {
    problems.push(
      `disabledHooks in ${disabledHooks.path} lists ${disabledHooks.count} hook(s) Copilot will not run, by content-hash keys review-gate cannot check, so ours may be one (open /hooks in copilot and switch review-gate's on, or empty the list)`,
    );
  }
  if (problems.length) {
    return {
      runs: false,
      detail: `installed in ${path} but Copilot will NOT run it: ${problems.join("; ")}`,
    };
  }
  if (scope === "user") {
    return {
      runs: true,
      detail:
        `installed; Copilot runs the user's hooks in every folder, in the TUI and headless (-p, piped prompts)${COPILOT_HOOK_ENV_NOTE}`,
    };
  }
  const detail = trust!.startsWith("COPILOT_ALLOW_ALL")
    ? "installed; COPILOT_ALLOW_ALL=true in this environment trusts the folder, so Copilot runs them where it starts with that setting — and without it, it will NOT"
    : `installed; ${trust}, so Copilot runs the repository's hooks, in the TUI and headless`;
  return { runs: true, detail: detail + COPILOT_HOOK_ENV_NOTE };
}

/**
 * The installed Stop timeout is shorter than the configured review timeout: Copilot kills the
 * hook first and the turn ends unreviewed.
 *
 * @returns one sentence, or null when it holds
 */
export function copilotTimeoutProblem(
  status: CopilotHookStatus,
  configured: number,
): string | null {
  if (status.stopTimeout === undefined || status.stopTimeout >= configured) return null;
  return `the installed Stop hook's timeout is ${status.stopTimeout} s but gates.copilot_stop.timeout_seconds is ${configured} s: Copilot kills a longer review and lets the turn end unreviewed; run "review-gate install --copilot${
    status.scope === "project" ? " --scope project" : ""
  }" again`;
}
