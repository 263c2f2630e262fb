/**
 * review-gate's entries in a Codex `hooks.json` (pure): one matcher group per event,
 * `{"hooks": [{"type": "command", "command": "<review-gate> hook codex-stop # managed-by:
 * review-gate", "timeout": <s>, "statusMessage": …}]}` (lib/gates/codex/door.ts has the verified
 * format). Codex trusts each hook by a hash over its event, command, timeout and status message, so
 * all of them stay fixed for a given command and configured timeout: a change would make Codex skip
 * the hook until the user trusts it again.
 *
 * @module
 */
import { MANAGED_MARKER } from "../git/stub.ts";
import type { Settings } from "../settings_text.ts";

/** The Codex events we hook and the subcommand each runs. */
export const CODEX_HOOK_EVENTS = {
  UserPromptSubmit: "codex-prompt",
  Stop: "codex-stop",
} as const;

/**
 * The tool hook of `gates.codex_stop.review_while_working` (docs/design.md "Review while working"):
 * Codex's `PostToolUse` (codex-cli 0.171.0 has the event; its payload carries `tool_name`,
 * `tool_input`, `tool_response`, `turn_id`), with no matcher — every tool, since its tools that
 * write files (the shell, patches) go by names this project has not pinned — running
 * `hook codex-work`, which returns fast.
 */
export const CODEX_WORK = { event: "PostToolUse", hook: "codex-work", timeoutSeconds: 10 } as const;

/** Shown by Codex while our Stop hook runs. */
export const CODEX_STOP_STATUS = "review-gate: reviewing this turn";

/** Which `hooks.json`: the user's (`$CODEX_HOME`) or the repository's (`.codex/`). */
export type CodexScope = "user" | "project";

/**
 * Our matcher groups, one per event.
 *
 * @param command command prefix from `selfCommand()`
 * @param options `stopTimeoutSeconds`: the Stop entry's `timeout` (config
 *   `gates.codex_stop.timeout_seconds`, default 300); `stopPrefix`: words before the Stop entry's
 *   command (the Stop hook script); `work`: add the {@linkcode CODEX_WORK} group
 * @returns `{UserPromptSubmit: group, Stop: group[, PostToolUse: group]}`
 */
export function buildCodexEntries(
  command: string,
  options: { stopTimeoutSeconds?: number; stopPrefix?: string; work?: boolean } = {},
): Record<keyof typeof CODEX_HOOK_EVENTS, Settings> & { PostToolUse?: Settings } {
  const hook = (sub: string) => `${command} hook ${sub} # ${MANAGED_MARKER}`;
  return {
    UserPromptSubmit: {
      hooks: [{ type: "command", command: hook(CODEX_HOOK_EVENTS.UserPromptSubmit) }],
    },
    Stop: {
      hooks: [{
        type: "command",
        command: `${options.stopPrefix ? `${options.stopPrefix} ` : ""}${
          hook(CODEX_HOOK_EVENTS.Stop)
        }`,
        timeout: options.stopTimeoutSeconds ?? 300,
        statusMessage: CODEX_STOP_STATUS,
      }],
    },
    ...(options.work
      ? {
        PostToolUse: {
          hooks: [{
            type: "command",
            command: hook(CODEX_WORK.hook),
            timeout: CODEX_WORK.timeoutSeconds,
          }],
        },
      }
      : {}),
  };
}
