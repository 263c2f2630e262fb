/**
 * Gemini CLI's front door to the turn gate: `hook gemini-prompt` on `BeforeAgent` records the
 * turn's baseline, `hook gemini-stop` on `AfterAgent` reviews the turn — the agent-neutral logic
 * of lib/gates/turn/, as for Claude Code, Codex, Copilot and Qwen Code, with config
 * `gates.gemini_stop`. The payload parser is lib/gates/gemini/payload.ts; the answers are the turn
 * gate's own (lib/gates/turn/answer.ts).
 *
 * Verified facts, Gemini CLI 0.61.0 (npm `@google/gemini-cli`), by running the pinned CLI against
 * the loopback Gemini API mock (test/contract/gemini_hooks_test.ts) and from its bundled source and
 * hooks reference:
 * - **Where hooks are read.** The `hooks` key of the system settings
 *   (`/etc/gemini-cli/settings.json`, `GEMINI_CLI_SYSTEM_SETTINGS_PATH`), the user's
 *   (`$GEMINI_CLI_HOME/.gemini/settings.json`, default `~/.gemini/settings.json`) and the
 *   project's (`<cwd>/.gemini/settings.json`), concatenated per event. Format: `{"hooks":
 *   {"AfterAgent": [{"hooks": [{"type": "command", "command": …, "name": …, "timeout": <ms>}]}]}}`;
 *   the timeout is in **milliseconds** (default 60000). They run in headless `gemini -p` as in the
 *   TUI. `hooksConfig.enabled: false` turns every hook off; a hook whose `name` is in
 *   `hooksConfig.disabled` (what `/hooks disable <name>` writes) does not run.
 * - **Trust.** Every hook — the user's too — runs only in a trusted folder. Folder trust
 *   (`security.folderTrust.enabled`) is **on by default**: the folder must be trusted in
 *   `trustedFolders.json` (`GEMINI_CLI_TRUSTED_FOLDERS_PATH`, default beside the user settings;
 *   the longest matching `TRUST_FOLDER`/`TRUST_PARENT`/`DO_NOT_TRUST` rule wins) or by
 *   `--skip-trust` / `GEMINI_CLI_TRUST_WORKSPACE=true`. Headless `gemini -p` in an untrusted
 *   folder refuses to start (exit 55); the TUI starts, and runs no hook. Project hooks are also
 *   fingerprinted (name and command): a new one prints a warning once, then runs.
 * - **Process.** `bash -c '<command>'`, cwd = the session's cwd (fixed), the parent's environment
 *   (with `security.environmentVariableRedaction.enabled`, or on GitHub Actions, names such as
 *   `*KEY*`/`*TOKEN*` are taken out) plus `GEMINI_PROJECT_DIR` = `GEMINI_CWD` = `CLAUDE_PROJECT_DIR`
 *   = the cwd and `GEMINI_SESSION_ID`. On timeout Gemini CLI sends SIGTERM to the shell only
 *   (SIGKILL 5 s later) and goes on as if allowed.
 * - **Payloads** (lib/gates/gemini/payload.ts). `BeforeAgent` fires once per user prompt (not
 *   after tool calls), and **again after a block**, with `prompt: <our reason>`, nothing telling
 *   it from the user's: the door sets `blockReasonIsPrompt` (lib/gates/turn/continuation.ts).
 *   `AfterAgent` fires once the model answers with no tool call pending; its `stop_hook_active` is
 *   true only when no tool ran since the block, so it is not the loop guard.
 * - **Answers.** AfterAgent: exit 0 and `{"decision":"block","reason":R}` (`"deny"` is the same)
 *   sends R to the model as the next user message of the same prompt; `{"continue": false}` ends
 *   the session; `{"systemMessage":S}` or nothing lets the turn end. Stdout that is not JSON, or an
 *   empty stdout with text on stderr, is read as plain text: on exit 0 or 1 a `systemMessage`
 *   (allow), on another exit a block with the text as the reason (exit 2 + stderr blocks). A hook
 *   that timed out or could not start allows. The turn gate prints only the JSON shapes above.
 * - **Loop limit.** None that holds: an AfterAgent hook that always blocks got 146 model requests
 *   and 2285 AfterAgent runs in one `gemini -p` prompt before it exited 1 after 3 minutes;
 *   `max_blocks` is the cap that holds.
 * - **Subagents** run their own chat, which fires neither `BeforeAgent` nor `AfterAgent`; their
 *   edits are the main turn's, reviewed at its `AfterAgent`.
 * - **Review children.** The Gemini provider runs its review child with a private `HOME` and
 *   `GEMINI_CLI_HOME` whose settings set `hooksConfig.enabled: false` (lib/providers/gemini/child.ts),
 *   in a private copy; `REVIEW_GATE_CHILD=1` makes every hook of ours return at once, whatever
 *   slips through. The contract test proves it with probe hooks in both scopes.
 *
 * @module
 */
import { ALLOW, type HookEntry } from "../hook_io.ts";
import type { TurnDoor } from "../turn/door.ts";
import { isAfterAgent, isAfterTool, isBeforeAgent, parseGeminiPayload } from "./payload.ts";

/** Gemini CLI's door: `gemini-prompt` / `gemini-stop`, config `gates.gemini_stop`. */
export const GEMINI_DOOR: TurnDoor = {
  gateName: "gemini-stop",
  promptHookName: "gemini-prompt",
  turnLabel: "this Gemini CLI turn's changes",
  gateConfig: (config) => config.gates.gemini_stop,
  parse: parseGeminiPayload,
  isPrompt: isBeforeAgent,
  isStop: isAfterAgent,
  isToolUse: isAfterTool,
  workerHookName: "gemini-worker",
  projectDir: () => undefined, // GEMINI_PROJECT_DIR is the payload's cwd, which does not move
  blockReasonIsPrompt: true,
};

/**
 * `hook gemini-work` on Gemini CLI's `AfterTool`: note that files changed and keep the session's
 * background review going (lib/gates/turn/work_hook.ts); exit 0 with no stdout, always.
 */
export const geminiWorkHook: HookEntry = {
  run: async (input) => (await import("../turn/work_hook.ts")).runWorkHook(input, GEMINI_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook gemini-worker <session> <root> <job>`: the detached background worker of one session. */
export const geminiWorkerHook: HookEntry = {
  run: async (input, args) => {
    const { parseWorkerArgs, runWorker } = await import("../turn/worker.ts");
    const parsed = parseWorkerArgs(args);
    return parsed ? await runWorker(input, GEMINI_DOOR, parsed) : ALLOW;
  },
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook gemini-prompt`: record the turn's baseline; exit 0 with no stdout, always. */
export const geminiPromptHook: HookEntry = {
  run: async (input) => (await import("../turn/baseline.ts")).recordBaseline(input, GEMINI_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("prompt", error),
};

/** `hook gemini-stop`: review the turn; exit 0 always, stdout empty, a `systemMessage` or a block. */
export const geminiStopHook: HookEntry = {
  run: async (input) => (await import("../turn/stop.ts")).runStopGate(input, GEMINI_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("stop", error),
};
