/**
 * review-gate's entries in a Gemini CLI `settings.json` (pure): one hook definition per event,
 * `{"hooks": [{"type": "command", "command": "<review-gate> hook gemini-stop # managed-by:
 * review-gate", "name": …, "timeout": <ms>}]}`, no `matcher` (every occurrence; lib/gates/gemini/door.ts
 * has the verified format). Gemini CLI reads `timeout` in milliseconds (default 60000): the
 * `AfterAgent` entry's is `gates.gemini_stop.timeout_seconds` × 1000. The `name` is what
 * `hooksConfig.disabled` and `/hooks disable <name>` switch off.
 *
 * @module
 */
import { MANAGED_MARKER } from "../git/stub.ts";
import type { Settings } from "../settings_text.ts";

/** The Gemini CLI events we hook and the subcommand each runs. */
export const GEMINI_HOOK_EVENTS = {
  BeforeAgent: "gemini-prompt",
  AfterAgent: "gemini-stop",
} as const;

/** Our hooks' names, as `hooksConfig.disabled` would list them. */
export const GEMINI_HOOK_NAMES = {
  BeforeAgent: "review-gate-prompt",
  AfterAgent: "review-gate-stop",
  AfterTool: "review-gate-work",
} as const;

/**
 * The tool hook of `gates.gemini_stop.review_while_working` (docs/design.md "Review while
 * working"): Gemini CLI's `AfterTool` (payload `tool_name`, `tool_input`, `tool_response`), no
 * matcher, running `hook gemini-work`, which returns fast.
 */
export const GEMINI_WORK = { event: "AfterTool", hook: "gemini-work", timeoutMs: 10_000 } as const;

/** Which `settings.json`: the user's (`$GEMINI_CLI_HOME/.gemini`, default `~/.gemini`) or the project's (`.gemini/`). */
export type GeminiScope = "user" | "project";

/**
 * Our hook definitions, one per event.
 *
 * @param command command prefix from `selfCommand()`
 * @param options `stopTimeoutSeconds`: config `gates.gemini_stop.timeout_seconds` (default 300),
 *   written in milliseconds; `stopPrefix`: words before the AfterAgent entry's command (the Stop
 *   hook script); `work`: add the {@linkcode GEMINI_WORK} definition
 * @returns `{BeforeAgent: definition, AfterAgent: definition[, AfterTool: definition]}`
 */
export function buildGeminiEntries(
  command: string,
  options: { stopTimeoutSeconds?: number; stopPrefix?: string; work?: boolean } = {},
): Record<keyof typeof GEMINI_HOOK_EVENTS, Settings> & { AfterTool?: Settings } {
  const hook = (sub: string) => `${command} hook ${sub} # ${MANAGED_MARKER}`;
  const prefix = options.stopPrefix ? `${options.stopPrefix} ` : "";
  return {
    BeforeAgent: {
      hooks: [{
        type: "command",
        command: hook(GEMINI_HOOK_EVENTS.BeforeAgent),
        name: GEMINI_HOOK_NAMES.BeforeAgent,
      }],
    },
    AfterAgent: {
      hooks: [{
        type: "command",
        command: `${prefix}${hook(GEMINI_HOOK_EVENTS.AfterAgent)}`,
        name: GEMINI_HOOK_NAMES.AfterAgent,
        timeout: Math.round((options.stopTimeoutSeconds ?? 300) * 1000),
      }],
    },
    ...(options.work
      ? {
        AfterTool: {
          hooks: [{
            type: "command",
            command: hook(GEMINI_WORK.hook),
            name: GEMINI_HOOK_NAMES.AfterTool,
            timeout: GEMINI_WORK.timeoutMs,
          }],
        },
      }
      : {}),
  };
}
