/**
 * Will the GitHub Copilot CLI run review-gate's hooks? (for `doctor` and `gate status`): for the
 * user's `$COPILOT_HOME/hooks/review-gate.json` and the repository's
 * `.github/hooks/review-gate.json`, whether ours is there, whether Copilot runs that folder's hooks
 * (the user's always, in the TUI and with `-p`; a repository's only when the folder is trusted:
 * listed in `trustedFolders` of `$COPILOT_HOME/config.json`, or `COPILOT_ALLOW_ALL=true` where
 * Copilot starts), whether the program the hooks name exists, and the installed Stop `timeout`
 * against `gates.copilot_stop.timeout_seconds`. Facts: lib/gates/copilot/door.ts.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { readTextOrNull } from "../file_actions.ts";
import { parseSettingsText } from "../settings_text.ts";
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

/** The folders `$COPILOT_HOME/config.json` trusts (resolved; unreadable entries left out). */
async function trustedFolders(env: Record<string, string | undefined>): Promise<string[]> {
  const home = copilotHome(env);
  if (!home) return [];
  const path = join(home, "config.json");
  const text = await readTextOrNull(path);
  if (typeof text !== "string") return [];
  const value = await parseSettingsText(text, path).catch(() => null) as
    | { trustedFolders?: unknown }
    | null;
  const list = Array.isArray(value?.trustedFolders) ? value.trustedFolders : [];
  const out: string[] = [];
  for (const entry of list) {
    if (typeof entry !== "string") continue;
    out.push(await Deno.realPath(entry).catch(() => entry));
  }
  return out;
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
  options: { root: string; env: Record<string, string | undefined> },
): Promise<CopilotHookStatus[]> {
  const out: CopilotHookStatus[] = [];
  for (const scope of ["user", "project"] as const) {
    let path: string;
    try {
      path = copilotHooksPath(scope, options);
    } catch {
      continue;
    }
    const text = await readTextOrNull(path);
    if (typeof text !== "string" || !text.includes(MANAGED_MARKER)) continue;
    const stopTimeout = stopTimeoutOf(text);
    const missing = await missingProgramPath(text.match(/"command": "([^"]*)"/)?.[1] ?? "");
    if (missing) {
      const reinstall = `review-gate install --copilot${
        scope === "project" ? " --scope project" : ""
      }`;
      out.push({
        scope,
        path,
        runs: false,
        detail: missingProgramText(missing, "every Copilot turn", reinstall),
        stopTimeout,
      });
      continue;
    }
    if (scope === "user") {
      out.push({
        scope,
        path,
        runs: true,
        detail:
          "installed; Copilot runs the user's hooks in every folder, in the TUI and headless (-p, piped prompts)",
        stopTimeout,
      });
      continue;
    }
    const root = await Deno.realPath(options.root).catch(() => options.root);
    const trusted = (await trustedFolders(options.env)).includes(root);
    const allowAll = options.env.COPILOT_ALLOW_ALL?.trim().toLowerCase() === "true";
    out.push({
      scope,
      path,
      runs: trusted || allowAll,
      detail: trusted
        ? "installed; this folder is trusted (trustedFolders), so Copilot runs the repository's hooks, in the TUI and headless"
        : allowAll
        ? "installed; COPILOT_ALLOW_ALL=true in this environment trusts the folder, so Copilot runs them where it starts with that setting — and without it, it will NOT"
        : `installed in ${path} but Copilot will NOT run it: this folder is not trusted (start "copilot" here and trust it, or run with COPILOT_ALLOW_ALL=true)`,
      stopTimeout,
    });
  }
  return out;
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
