/**
 * review-gate's GitHub Copilot CLI hooks file (pure): a file of its own,
 * `{"version": 1, "hooks": {"UserPromptSubmit": [group], "Stop": [group]}}`, each group
 * `{"hooks": [{"type": "command", "command": "<review-gate> hook copilot-… # managed-by:
 * review-gate", "timeout": <s>}]}` — Copilot's Claude-compatible event names and group shape, for
 * which it sends the snake_case payloads the turn gate reads (lib/gates/copilot/door.ts has the
 * verified facts).
 *
 * @module
 */
import { MANAGED_MARKER } from "../git/stub.ts";

/** The Copilot events we hook and the subcommand each runs. */
export const COPILOT_HOOK_EVENTS = {
  UserPromptSubmit: "copilot-prompt",
  Stop: "copilot-stop",
} as const;

/**
 * The tool hook of `gates.copilot_stop.review_while_working` (docs/design.md "Review while
 * working"): Copilot's `PostToolUse` (its payload carries `tool_name`, `tool_input`,
 * `tool_result`), every tool, running `hook copilot-work`, which returns fast.
 */
export const COPILOT_WORK = { event: "PostToolUse", hook: "copilot-work", timeoutSeconds: 10 };

/** The prompt hook's timeout, seconds (Copilot's default is 30). */
export const COPILOT_PROMPT_TIMEOUT_SECONDS = 60;

/** Which hooks folder: the user's (`$COPILOT_HOME/hooks/`) or the repository's (`.github/hooks/`). */
export type CopilotScope = "user" | "project";

/** The name of our file in a hooks folder. */
export const COPILOT_HOOKS_FILE = "review-gate.json";

/**
 * The text of our hooks file.
 *
 * @param command command prefix from `selfCommand()`
 * @param options `stopTimeoutSeconds`: the Stop entry's `timeout` (config
 *   `gates.copilot_stop.timeout_seconds`, default 300); `stopPrefix`: words before the Stop
 *   entry's command (the Stop hook script); `work`: add the {@linkcode COPILOT_WORK} group
 * @returns pretty JSON with a final newline
 */
export function buildCopilotHooksText(
  command: string,
  options: { stopTimeoutSeconds?: number; stopPrefix?: string; work?: boolean } = {},
): string {
  const hook = (sub: string, timeout: number, prefix = "") => ({
    hooks: [{
      type: "command",
      command: `${prefix ? `${prefix} ` : ""}${command} hook ${sub} # ${MANAGED_MARKER}`,
      timeout,
    }],
  });
  const hooks: Record<string, unknown[]> = {
    UserPromptSubmit: [hook(COPILOT_HOOK_EVENTS.UserPromptSubmit, COPILOT_PROMPT_TIMEOUT_SECONDS)],
    Stop: [hook(COPILOT_HOOK_EVENTS.Stop, options.stopTimeoutSeconds ?? 300, options.stopPrefix)],
  };
  if (options.work) {
    hooks[COPILOT_WORK.event] = [hook(COPILOT_WORK.hook, COPILOT_WORK.timeoutSeconds)];
  }
  return JSON.stringify({ version: 1, hooks }, null, 2) + "\n";
}
