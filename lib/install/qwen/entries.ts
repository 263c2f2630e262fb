/**
 * review-gate's entries in a Qwen Code `settings.json` (pure): one matcher group per event,
 * `{"hooks": [{"type": "command", "command": "<review-gate> hook qwen-stop # managed-by:
 * review-gate", "name": …, "timeout": <ms>}]}` (lib/gates/qwen/door.ts has the verified format).
 * Qwen Code reads `timeout` in milliseconds (default 60000): the Stop entry's is
 * `gates.qwen_stop.timeout_seconds` × 1000.
 *
 * @module
 */
import { MANAGED_MARKER } from "../git/stub.ts";
import type { Settings } from "../settings_text.ts";

/** The Qwen Code events we hook and the subcommand each runs. */
export const QWEN_HOOK_EVENTS = {
  UserPromptSubmit: "qwen-prompt",
  Stop: "qwen-stop",
} as const;

/**
 * The tool hook of `gates.qwen_stop.review_while_working` (docs/design.md "Review while working"):
 * Qwen Code's `PostToolUse` (payload `tool_name`, `tool_input`, `tool_response`), no matcher,
 * running `hook qwen-work`, which returns fast.
 */
export const QWEN_WORK = { event: "PostToolUse", hook: "qwen-work", timeoutMs: 10_000 } as const;

/** Which `settings.json`: the user's (`$QWEN_HOME`, default `~/.qwen`) or the project's (`.qwen/`). */
export type QwenScope = "user" | "project";

/**
 * Our matcher groups, one per event.
 *
 * @param command command prefix from `selfCommand()`
 * @param options `stopTimeoutSeconds`: config `gates.qwen_stop.timeout_seconds` (default 300),
 *   written in milliseconds; `stopPrefix`: words before the Stop entry's command (the Stop hook
 *   script); `work`: add the {@linkcode QWEN_WORK} group
 * @returns `{UserPromptSubmit: group, Stop: group[, PostToolUse: group]}`
 */
export function buildQwenEntries(
  command: string,
  options: { stopTimeoutSeconds?: number; stopPrefix?: string; work?: boolean } = {},
): Record<keyof typeof QWEN_HOOK_EVENTS, Settings> & { PostToolUse?: Settings } {
  const hook = (sub: string) => `${command} hook ${sub} # ${MANAGED_MARKER}`;
  const prefix = options.stopPrefix ? `${options.stopPrefix} ` : "";
  return {
    UserPromptSubmit: {
      hooks: [{
        type: "command",
        command: hook(QWEN_HOOK_EVENTS.UserPromptSubmit),
        name: "review-gate-prompt",
      }],
    },
    Stop: {
      hooks: [{
        type: "command",
        command: `${prefix}${hook(QWEN_HOOK_EVENTS.Stop)}`,
        name: "review-gate-stop",
        timeout: Math.round((options.stopTimeoutSeconds ?? 300) * 1000),
      }],
    },
    ...(options.work
      ? {
        PostToolUse: {
          hooks: [{
            type: "command",
            command: hook(QWEN_WORK.hook),
            name: "review-gate-work",
            timeout: QWEN_WORK.timeoutMs,
          }],
        },
      }
      : {}),
  };
}
