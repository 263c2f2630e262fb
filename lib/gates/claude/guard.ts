/**
 * Claude Code's `PreToolUse` guard (`hook claude-guard`, installed by `install --claude --guard`):
 * refuses the agent's Bash commands that would skip or switch off the review gates
 * (lib/gates/guard/escapes.ts) with a reason the agent sees. Verified against Claude Code 2.1.332
 * in `-p` mode (a scripted model asked for `git push --no-verify origin main`): the hook's stdin is
 * `{session_id, transcript_path, cwd, prompt_id, permission_mode, effort, hook_event_name:
 * "PreToolUse", tool_name: "Bash", tool_input: {command, description}, tool_use_id}`; the answer
 * `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
 * "permissionDecisionReason": R}}` on stdout with exit 0 stops the tool call, the model receives a
 * tool result `PreToolUse:Bash hook error: R` (`is_error: true`), and the run's envelope lists the
 * call under `permission_denials` (exit 2 with R on stderr, or the older
 * `{"decision":"block","reason":R}`, do the same). Empty stdout lets the call run. Malformed input
 * and any failure of our own allow: the guard never stands in the way of work it cannot judge.
 *
 * @module
 */
import { ALLOW, type HookEntry, type HookOutput } from "../hook_io.ts";
import { gateEscape } from "../guard/escapes.ts";

/**
 * Decide one `PreToolUse` call.
 *
 * @param stdinText the hook's stdin
 * @returns a deny answer for a refused Bash command, else allow (empty stdout); exit 0 always
 */
export function decideGuard(stdinText: string): HookOutput {
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(stdinText);
  } catch {
    return ALLOW;
  }
  if (payload?.hook_event_name !== "PreToolUse" || payload.tool_name !== "Bash") return ALLOW;
  const command = (payload.tool_input as { command?: unknown } | null)?.command;
  if (typeof command !== "string") return ALLOW;
  const what = gateEscape(command);
  if (!what) return ALLOW;
  const reason =
    `review-gate refused this command: ${what}. Only the user may skip or switch off the review gate: tell them what you wanted to do and why, and let them run it themselves.`;
  const answer = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
  return { stdout: JSON.stringify(answer) + "\n", stderr: "", exitCode: 0 };
}

/** `hook claude-guard`: refuse the agent's gate escapes; never block on its own failure. */
export const claudeGuardHook: HookEntry = {
  run: (input) => Promise.resolve(decideGuard(input.stdinText)),
  failed: () => Promise.resolve(ALLOW),
};
