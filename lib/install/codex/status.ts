/**
 * Will Codex run review-gate's hooks? (for `doctor`): for the user's and the repository's
 * `hooks.json`, where our entries are, their trust keys and hashes (lib/install/codex/trust.ts), and
 * what the user's `config.toml` says — trusted, never trusted, trusted for another command or
 * timeout ("modified"), switched off, all hooks off (`features.hooks = false`), or a project hooks
 * file in a repository Codex does not trust. Also the installed Stop `timeout` against
 * `gates.codex_stop.timeout_seconds`.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { readTextOrNull } from "../file_actions.ts";
import { isOurHook, parseSettingsText, type Settings } from "../settings_text.ts";
import { CODEX_HOOK_EVENTS, type CodexScope } from "./entries.ts";
import { codexHome, codexHooksPath } from "./install.ts";
import { hookTrustHash, hookTrustKey, readTrustState } from "./trust.ts";
import { missingProgramPath, missingProgramText } from "../missing_program.ts";

/** One of our Codex hooks and whether Codex will run it. */
export interface CodexHookStatus {
  scope: CodexScope;
  path: string;
  /** `true`: both hooks installed and trusted, nothing switches them off. */
  runs: boolean;
  /** One sentence. */
  detail: string;
  /** The installed Stop entry's `timeout` (seconds), when there is one. */
  stopTimeout?: number;
}

interface Entry {
  event: string;
  key: string;
  hook: Settings;
}

function ourEntries(path: string, settings: Settings): Entry[] {
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  return Object.keys(CODEX_HOOK_EVENTS).flatMap((event) => {
    const groups = hooks[event];
    if (!Array.isArray(groups)) return [];
    return groups.flatMap((group, gi) => {
      const inner = (group as Settings)?.hooks;
      if (!Array.isArray(inner)) return [];
      return inner.flatMap((hook, hi) =>
        isOurHook(hook)
          ? [{ event, key: hookTrustKey(path, event, gi, hi), hook: hook as Settings }]
          : []
      );
    });
  });
}

/** The first missing program path among the entries' commands, or `null`. */
async function firstMissing(entries: readonly Entry[]): Promise<string | null> {
  for (const entry of entries) {
    const missing = await missingProgramPath(String(entry.hook.command ?? ""));
    if (missing) return missing;
  }
  return null;
}

/** Why an entry will not run, or `null`. */
async function entryProblem(
  entry: Entry,
  state: ReturnType<typeof readTrustState>,
): Promise<string | null> {
  const trust = state.hooks.get(entry.key);
  if (trust?.enabled === false) return `the ${entry.event} hook is switched off in Codex (/hooks)`;
  if (!trust?.trustedHash) return `the ${entry.event} hook is not trusted yet`;
  const hash = await hookTrustHash({
    event: entry.event,
    command: String(entry.hook.command),
    timeout: typeof entry.hook.timeout === "number" ? entry.hook.timeout : undefined,
    statusMessage: typeof entry.hook.statusMessage === "string"
      ? entry.hook.statusMessage
      : undefined,
  });
  return trust.trustedHash === hash
    ? null
    : `the ${entry.event} hook changed since it was trusted (command or timeout)`;
}

/**
 * Our Codex hooks in the user's and the repository's hooks file.
 *
 * @param options the repository root and the environment (`CODEX_HOME`, `HOME`)
 * @returns one status per file holding an entry of ours (or that does not parse)
 */
export async function codexHookStatuses(
  options: { root: string; env: Record<string, string | undefined> },
): Promise<CodexHookStatus[]> {
  const home = codexHome(options.env);
  const config = home ? await readTextOrNull(join(home, "config.toml")) : null;
  const state = readTrustState(typeof config === "string" ? config : "");
  const out: CodexHookStatus[] = [];
  for (const scope of ["user", "project"] as CodexScope[]) {
    if (scope === "user" && !home) continue;
    const path = codexHooksPath(scope, options);
    const text = await readTextOrNull(path);
    if (typeof text !== "string") continue;
    let settings: Settings;
    try {
      settings = await parseSettingsText(text, path) as Settings;
    } catch (error) {
      out.push({ scope, path, runs: false, detail: (error as Error).message });
      continue;
    }
    const entries = ourEntries(path, settings);
    if (entries.length === 0) continue;
    const stop = entries.find((e) => e.event === "Stop")?.hook.timeout;
    const base = { scope, path, stopTimeout: typeof stop === "number" ? stop : undefined };
    const problems: string[] = [];
    if (entries.length < Object.keys(CODEX_HOOK_EVENTS).length) {
      problems.push("one of the two hooks is missing");
    }
    if (state.unreadable) {
      problems.push(
        `${
          join(home ?? "", "config.toml")
        } is not valid TOML (${state.unreadable}), so Codex's trust in the hooks is unknown`,
      );
    }
    if (state.hooksOff) problems.push("features.hooks = false in config.toml turns every hook off");
    if (scope === "project" && !state.trustedProjects.has(options.root)) {
      problems.push("the repository is not trusted by Codex, so .codex/ is not read");
    }
    for (const entry of entries) {
      const problem = await entryProblem(entry, state);
      if (problem) problems.push(problem);
    }
    const missing = await firstMissing(entries);
    if (missing) {
      out.push({
        ...base,
        runs: false,
        detail: missingProgramText(
          missing,
          "every Codex turn's hooks",
          `review-gate install --codex --scope ${scope}`,
        ),
      });
      continue;
    }
    out.push(
      problems.length
        ? {
          ...base,
          runs: false,
          detail: `installed in "${path}" but Codex will NOT run it: ${
            problems.join("; ")
          }. Start "codex" and trust the hooks (or /hooks), then run doctor again (read from config.toml; approximate)`,
        }
        : { ...base, runs: true, detail: `installed and trusted (${path})` },
    );
  }
  return out;
}

/**
 * The problem with an installed Stop `timeout` below the configured one, if any.
 *
 * @param status from {@linkcode codexHookStatuses}
 * @param configured `gates.codex_stop.timeout_seconds`
 */
export function codexTimeoutProblem(status: CodexHookStatus, configured: number): string | null {
  if (status.stopTimeout === undefined || status.stopTimeout >= configured) return null;
  return `the installed Stop hook's timeout is ${status.stopTimeout} s but gates.codex_stop.timeout_seconds is ${configured} s: Codex kills a longer review and lets the turn end unreviewed; run "review-gate install --codex --scope ${status.scope}" again (and trust the changed hook)`;
}
