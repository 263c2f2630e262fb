/**
 * The GitHub Copilot CLI's front door to the turn gate: `hook copilot-prompt` on the user's prompt
 * records the turn's baseline, `hook copilot-stop` at the end of the main agent's turn reviews it —
 * the agent-neutral logic of lib/gates/turn/, as for Claude Code and Codex, with config
 * `gates.copilot_stop`. The payload parser is lib/gates/copilot/payload.ts; the answers are the
 * turn gate's own (lib/gates/turn/answer.ts).
 *
 * Verified facts, GitHub Copilot CLI 1.0.102 (npm `@github/copilot`), by running the pinned binary
 * in BYOK offline mode against a loopback Chat Completions mock with probe hooks in every place
 * (test/contract/copilot_hooks_test.ts; payload samples in fixtures/copilot_hooks/):
 * - **Where hooks are read.** `{"version": 1, "hooks": {<event>: [...]}}` in every `*.json` of the
 *   user's `$COPILOT_HOME/hooks/` (default `~/.copilot`) and the `hooks` key of its
 *   `settings.json` — these run in every folder, no trust asked — and, per repository,
 *   `.github/hooks/*.json` and `.github/copilot/settings.json` `hooks`, which run **only in a
 *   trusted folder**: one listed in `trustedFolders` of `$COPILOT_HOME/config.json` (the TUI asks
 *   at start-up), or any folder with `COPILOT_ALLOW_ALL=true` (exactly "true": it trusts the
 *   working directory), in `-p` / piped prompt mode too, or `--trust-folder` for one `-p` run.
 *   Hooks of one event run one after another. What else switches them off (`disableAllHooks` in
 *   the repository's `.github/copilot/settings*.json`, `disabledHooks` in the user's settings) is
 *   verified and read in lib/install/copilot/status.ts.
 * - **Events.** Native camelCase names (`userPromptSubmitted`, `agentStop`, `subagentStop`,
 *   `postToolUse`) get camelCase payloads without an event name (`sessionId`, `timestamp` in ms);
 *   the Claude-compatible names `UserPromptSubmit`, `Stop`, `SubagentStop`, `PostToolUse` fire at
 *   the same moments with snake_case payloads carrying `hook_event_name` and `session_id` — what
 *   the turn gate and the installed Stop script read, so install writes those.
 * - **Subagents.** A subagent (`task` tool) fires `UserPromptSubmit` for its prompt and **`Stop`
 *   (`agentStop`) for the end of its own turn**, with its own `session_id` and `agent_id`,
 *   `agent_type`, `parent_agent_id`; then `SubagentStop` in the parent's session. Both doors here
 *   ignore an event carrying `agent_id`: the subagent's work is the main turn's, reviewed once at
 *   the main `Stop`, and its prompt never resets the main turn's baseline.
 * - **Answers.** Stop: `{"decision":"block","reason":R}` on stdout (exit 0) continues the turn
 *   with R sent to the model as a **new user message** — and the prompt hook fires again with
 *   `prompt: R`, nothing telling it from the user's (so the door sets `blockReasonIsPrompt`:
 *   lib/gates/turn/continuation.ts). The next Stop carries `stop_hook_active: true`. Extra keys
 *   are ignored (`systemMessage` with a block still blocks); `{"systemMessage":S}` or nothing lets
 *   the turn end (S is not printed by `-p`); an answer Copilot does not understand — not JSON, a
 *   `decision` other than `"block"` — and exit 2 let the turn end **silently**: exit 2 is only a
 *   warning. The turn gate prints only the shapes above.
 * - **Loop limit.** Copilot ends a turn after 8 consecutive blocks (measured: 9 model turns with
 *   a hook that always blocks); `max_blocks` (default 3) is the cap that holds.
 * - **Process.** The command runs with `sh -c` (`bash` key) in the project root (`cwd` key to
 *   move it), the session's environment less the variables Copilot reads itself (seen missing:
 *   `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `COPILOT_OFFLINE`, `COPILOT_PROVIDER_*`; added:
 *   `COPILOT_PROJECT_DIR`, `CLAUDE_PROJECT_DIR`, `COPILOT_HOOK_DIR`, and git config
 *   `safe.bareRepository=explicit` through `GIT_CONFIG_*`), `timeoutSec` (default 30 s) then
 *   killed; stdin is the payload.
 * - **Review children.** The Copilot reviewer child (lib/providers/copilot/child.ts) gets a private
 *   empty `COPILOT_HOME` (none of the user's hooks), trusts no folder (the copy's `.github/hooks/`
 *   do not load) and never gets `COPILOT_ALLOW_ALL`; whatever slips through returns at once under
 *   `REVIEW_GATE_CHILD=1`. The contract test reviews a Copilot session with the Copilot provider
 *   and probe hooks in every layer: they run for the session, never in the child.
 *
 * @module
 */
import { ALLOW, type HookEntry } from "../hook_io.ts";
import type { TurnDoor } from "../turn/door.ts";
import {
  type CopilotHookPayload,
  isMainPromptSubmit,
  isMainStop,
  parseCopilotPayload,
} from "./payload.ts";

/** Copilot's door: `copilot-prompt` / `copilot-stop`, config `gates.copilot_stop`. */
export const COPILOT_DOOR: TurnDoor = {
  gateName: "copilot-stop",
  promptHookName: "copilot-prompt",
  turnLabel: "this Copilot turn's changes",
  gateConfig: (config) => config.gates.copilot_stop,
  parse: parseCopilotPayload,
  isPrompt: isMainPromptSubmit,
  isStop: isMainStop,
  isToolUse: (payload) =>
    payload.hook_event_name === "PostToolUse" &&
    (payload as CopilotHookPayload).agent_id === undefined,
  workerHookName: "copilot-worker",
  projectDir: () => undefined, // hooks run in the project root; the payload's cwd is the session's
  blockReasonIsPrompt: true,
};

/**
 * `hook copilot-work` on Copilot's `PostToolUse`: note that files changed and keep the session's
 * background review going (lib/gates/turn/work_hook.ts); exit 0 with no stdout, always.
 */
export const copilotWorkHook: HookEntry = {
  run: async (input) => (await import("../turn/work_hook.ts")).runWorkHook(input, COPILOT_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook copilot-worker <session> <root> <job>`: the detached background worker of one session. */
export const copilotWorkerHook: HookEntry = {
  run: async (input, args) => {
    const { parseWorkerArgs, runWorker } = await import("../turn/worker.ts");
    const parsed = parseWorkerArgs(args);
    return parsed ? await runWorker(input, COPILOT_DOOR, parsed) : ALLOW;
  },
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook copilot-prompt`: record the turn's baseline; exit 0 with no stdout, always. */
export const copilotPromptHook: HookEntry = {
  run: async (input) => (await import("../turn/baseline.ts")).recordBaseline(input, COPILOT_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("prompt", error),
};

/** `hook copilot-stop`: review the turn; exit 0 always, stdout empty, a `systemMessage` or a block. */
export const copilotStopHook: HookEntry = {
  run: async (input) => (await import("../turn/stop.ts")).runStopGate(input, COPILOT_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("stop", error),
};
