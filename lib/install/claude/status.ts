/**
 * What review-gate's Claude Code hooks look like in each settings scope, for `doctor` and
 * `gate status`: absent, unreadable, complete (both hooks) or incomplete, and the Stop entry's
 * installed `timeout`. Claude Code kills a hook at its `timeout` — and then lets the stop through
 * without a word — so an installed timeout below `gates.claude_stop.timeout_seconds` means a long
 * review is cut before the gate's own deadline: {@linkcode stopTimeoutProblem} says so.
 *
 * @module
 */
import { readTextOrNull } from "../file_actions.ts";
import { type ClaudeScope, claudeSettingsPath } from "./install.ts";
import {
  CLAUDE_HOOK_EVENTS,
  hasOurGuard,
  hasOurWorkHook,
  isOurHook,
  type Settings,
} from "./settings.ts";
import { parseSettingsText } from "../settings_text.ts";
import { missingProgramPath } from "../missing_program.ts";

/** Our hooks in one settings file. */
export interface ClaudeHookStatus {
  scope: ClaudeScope;
  path: string;
  /** `invalid`: the file does not parse; `incomplete`: one of the two hooks is missing. */
  state: "installed" | "incomplete" | "invalid";
  /** The installed Stop entry's `timeout` in seconds (`undefined` when it has none). */
  stopTimeout?: number;
  /** Why `invalid`. */
  problem?: string;
  /** The `PreToolUse` guard on Bash is installed there too. */
  guard?: boolean;
  /** The `PostToolUse` hook of the background review is installed there too. */
  work?: boolean;
  /** An absolute path one of our hook commands names that does not exist (a moved checkout). */
  missing?: string;
}

/** Our hook entries for one event in a parsed settings value. */
function ourEntries(settings: unknown, event: string): Record<string, unknown>[] {
  const groups = (settings as { hooks?: Record<string, unknown> } | null)?.hooks?.[event];
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((group) => {
    const hooks = (group as { hooks?: unknown } | null)?.hooks;
    return Array.isArray(hooks) ? hooks.filter(isOurHook) as Record<string, unknown>[] : [];
  });
}

/**
 * Our hooks in every settings scope that has any (local, project, user; a scope whose path cannot
 * be known — `user` without `HOME` — is skipped).
 *
 * @param options the project directory (where `.claude/` is) and `HOME`
 * @returns one status per file that holds an entry of ours or does not parse
 */
export async function claudeHookStatuses(
  options: { projectDir: string; home?: string },
): Promise<ClaudeHookStatus[]> {
  const out: ClaudeHookStatus[] = [];
  for (const scope of ["local", "project", "user"] as ClaudeScope[]) {
    let path: string;
    try {
      path = claudeSettingsPath(scope, options);
    } catch {
      continue;
    }
    const text = await readTextOrNull(path);
    if (typeof text !== "string") continue; // absent or unreadable
    let settings: unknown;
    try {
      settings = await parseSettingsText(text, path);
    } catch (error) {
      out.push({ scope, path, state: "invalid", problem: (error as Error).message });
      continue;
    }
    const stop = ourEntries(settings, "Stop");
    const prompt = ourEntries(settings, "UserPromptSubmit");
    if (stop.length === 0 && prompt.length === 0) continue;
    const complete = Object.keys(CLAUDE_HOOK_EVENTS).every((e) => ourEntries(settings, e).length);
    const timeout = stop[0]?.timeout;
    const missing = await firstMissing([...stop, ...prompt]);
    out.push({
      scope,
      path,
      state: complete ? "installed" : "incomplete",
      stopTimeout: typeof timeout === "number" ? timeout : undefined,
      guard: hasOurGuard(settings as Settings),
      work: hasOurWorkHook(settings as Settings),
      ...(missing ? { missing } : {}),
    });
  }
  return out;
}

/** The first missing program path among the entries' commands, or `null`. */
async function firstMissing(entries: readonly Record<string, unknown>[]): Promise<string | null> {
  for (const entry of entries) {
    const missing = await missingProgramPath(String(entry.command ?? ""));
    if (missing) return missing;
  }
  return null;
}

/**
 * The problem with an installed Stop entry's `timeout`, if any.
 *
 * @param status from {@linkcode claudeHookStatuses}
 * @param configured `gates.claude_stop.timeout_seconds`
 * @returns one sentence, or `null` when the installed timeout is at least the configured one
 */
export function stopTimeoutProblem(status: ClaudeHookStatus, configured: number): string | null {
  if (status.stopTimeout === undefined || status.stopTimeout >= configured) return null;
  return `the installed Stop hook's timeout is ${status.stopTimeout} s but gates.claude_stop.timeout_seconds is ${configured} s: Claude Code kills a longer review and lets the stop through unreviewed; run "review-gate install --claude --scope ${status.scope}" again`;
}

/**
 * The problem with the background review's hook in a scope, if any: the setting is on but the
 * `PostToolUse` hook is missing (nothing is reviewed while the agent works), or the other way
 * round (the hook runs after every tool call for nothing).
 *
 * @param status from {@linkcode claudeHookStatuses}
 * @param wanted `gates.claude_stop.review_while_working` (and the gate enabled)
 * @returns one sentence, or `null` when they agree
 */
export function workHookProblem(status: ClaudeHookStatus, wanted: boolean): string | null {
  if (Boolean(status.work) === wanted) return null;
  const again = `run "review-gate install --claude --scope ${status.scope}" again`;
  return wanted
    ? `gates.claude_stop.review_while_working is on but its PostToolUse hook is not installed in "${status.path}": nothing is reviewed while the agent works; ${again}`
    : `the PostToolUse hook of review_while_working is installed in "${status.path}" but the setting is off: it runs after every tool call for nothing; ${again}`;
}
