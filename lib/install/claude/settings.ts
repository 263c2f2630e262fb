/**
 * Merge review-gate's command hooks into a Claude Code settings object (pure), the lefthook
 * `install_ai.go` way: drop our entries, append fresh ones, leave every other key and entry as it
 * was. Our entries are recognised by the `managed-by: review-gate` shell comment ending their
 * command (Claude Code runs hook commands with `sh`, so the comment is inert). Entry shape:
 * `hooks.<Event>[] = {hooks: [{type: "command", command, timeout?}]}` (hooks/claude_settings_entry.json);
 * the optional guard is `hooks.PreToolUse[] = {matcher: "Bash", hooks: […]}`.
 *
 * @module
 */
import { MANAGED_MARKER } from "../git/stub.ts";
import { isOurHook, type Settings } from "../settings_text.ts";

export { isOurHook, type Settings };

/** The events the turn gate hooks and the subcommand each runs. */
export const CLAUDE_HOOK_EVENTS = {
  UserPromptSubmit: "claude-prompt",
  Stop: "claude-stop",
} as const;

/** The optional guard (`install --claude --guard`): event, tool matcher and subcommand. */
export const CLAUDE_GUARD = { event: "PreToolUse", matcher: "Bash", hook: "claude-guard" } as const;

/**
 * The tool hook of `gates.claude_stop.review_while_working` (docs/design.md "Review while
 * working"): after every tool call that may write files, `hook claude-work`, which returns fast.
 */
export const CLAUDE_WORK = {
  event: "PostToolUse",
  matcher: "Edit|Write|MultiEdit|NotebookEdit|Bash",
  hook: "claude-work",
  timeoutSeconds: 10,
} as const;

/**
 * Our matcher groups, one per event.
 *
 * @param command command prefix from `selfCommand()`
 * @param options `stopTimeoutSeconds`: the Stop entry's `timeout` in seconds (config
 *   `gates.claude_stop.timeout_seconds`, default 300); `guard`: add the `PreToolUse` group on Bash;
 *   `work`: add the `PostToolUse` group of {@linkcode CLAUDE_WORK} (config
 *   `gates.claude_stop.review_while_working`); `stopPrefix`: words before the Stop entry's command
 *   (the Stop hook script)
 * @returns `{UserPromptSubmit: group, Stop: group[, PreToolUse: group][, PostToolUse: group]}`
 */
export function buildClaudeEntries(
  command: string,
  options: { stopTimeoutSeconds?: number; guard?: boolean; work?: boolean; stopPrefix?: string } =
    {},
): Record<string, Settings> {
  const entry = (sub: string, timeout?: number) => ({
    hooks: [{
      type: "command",
      command: `${
        sub === CLAUDE_HOOK_EVENTS.Stop && options.stopPrefix ? `${options.stopPrefix} ` : ""
      }${command} hook ${sub} # ${MANAGED_MARKER}`,
      ...(timeout ? { timeout } : {}),
    }],
  });
  return {
    UserPromptSubmit: entry(CLAUDE_HOOK_EVENTS.UserPromptSubmit),
    Stop: entry(CLAUDE_HOOK_EVENTS.Stop, options.stopTimeoutSeconds ?? 300),
    ...(options.guard
      ? { [CLAUDE_GUARD.event]: { matcher: CLAUDE_GUARD.matcher, ...entry(CLAUDE_GUARD.hook) } }
      : {}),
    ...(options.work
      ? {
        [CLAUDE_WORK.event]: {
          matcher: CLAUDE_WORK.matcher,
          ...entry(CLAUDE_WORK.hook, CLAUDE_WORK.timeoutSeconds),
        },
      }
      : {}),
  };
}

/** True when the settings hold our tool hook (`PostToolUse` running `hook claude-work`). */
export function hasOurWorkHook(settings: Settings): boolean {
  const groups = isRecord(settings.hooks) ? settings.hooks[CLAUDE_WORK.event] : undefined;
  return Array.isArray(groups) &&
    groups.some((group) =>
      isRecord(group) && Array.isArray(group.hooks) &&
      group.hooks.some((h) =>
        isOurHook(h) && String(h.command).includes(`hook ${CLAUDE_WORK.hook}`)
      )
    );
}

/** True when the settings hold our guard entry (`PreToolUse` running `hook claude-guard`). */
export function hasOurGuard(settings: Settings): boolean {
  const groups = isRecord(settings.hooks) ? settings.hooks[CLAUDE_GUARD.event] : undefined;
  return Array.isArray(groups) &&
    groups.some((group) =>
      isRecord(group) && Array.isArray(group.hooks) &&
      group.hooks.some((h) =>
        isOurHook(h) && String(h.command).includes(`hook ${CLAUDE_GUARD.hook}`)
      )
    );
}

function isRecord(value: unknown): value is Settings {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Check the parts of a settings value we touch.
 *
 * @returns a problem sentence, or `null` when the shape is usable
 */
export function checkSettingsShape(value: unknown): string | null {
  if (!isRecord(value)) return "the top level is not a JSON object";
  if (value.hooks === undefined) return null;
  if (!isRecord(value.hooks)) return `"hooks" is not an object`;
  for (const event of Object.keys(CLAUDE_HOOK_EVENTS)) {
    const groups = value.hooks[event];
    if (groups !== undefined && !Array.isArray(groups)) return `"hooks.${event}" is not an array`;
  }
  return null;
}

/**
 * Remove our hook entries. A group left with no hooks, an event left with no groups and a `hooks`
 * object left empty are removed too, but only where we removed something.
 *
 * @param settings a value that passed {@linkcode checkSettingsShape}
 * @returns a new object and how many of our entries were removed
 */
export function dropOurHooks(settings: Settings): { settings: Settings; removed: number } {
  if (!isRecord(settings.hooks)) return { settings, removed: 0 };
  let removed = 0;
  const hooks: Settings = { ...settings.hooks };
  for (const event of Object.keys(hooks)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    let touched = false;
    const kept = groups.flatMap((group) => {
      if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
      const inner = group.hooks.filter((h) => !isOurHook(h));
      if (inner.length === group.hooks.length) return [group];
      removed += group.hooks.length - inner.length;
      touched = true;
      return inner.length === 0 ? [] : [{ ...group, hooks: inner }];
    });
    if (!touched) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (removed === 0) return { settings, removed };
  const next: Settings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, removed };
}

/**
 * Drop our old entries, then append the given groups (key order of other keys kept).
 *
 * @param settings a value that passed {@linkcode checkSettingsShape}
 * @param entries from {@linkcode buildClaudeEntries}
 * @returns the merged settings (a new object)
 */
export function mergeOurHooks(settings: Settings, entries: Record<string, Settings>): Settings {
  const base = dropOurHooks(settings).settings;
  const hooks: Settings = isRecord(base.hooks) ? { ...base.hooks } : {};
  for (const [event, group] of Object.entries(entries)) {
    const groups = Array.isArray(hooks[event]) ? hooks[event] as unknown[] : [];
    hooks[event] = [...groups, group];
  }
  return { ...base, hooks };
}

/** Serialise settings as Claude Code and `JSON.stringify` write them: 2-space indent, final newline. */
export function renderSettings(settings: Settings): string {
  return JSON.stringify(settings, null, 2) + "\n";
}
