/**
 * The Qwen Code CLI's front door to the turn gate: `hook qwen-prompt` on `UserPromptSubmit` records
 * the turn's baseline, `hook qwen-stop` on `Stop` reviews the turn — the same agent-neutral logic
 * as Claude Code's and Codex's doors over lib/gates/turn/, with config `gates.qwen_stop`. The
 * payload parser is lib/gates/qwen/payload.ts; the answers are the turn gate's own
 * (lib/gates/turn/answer.ts).
 *
 * Verified facts, Qwen Code 0.15.10 (npm `@qwen-code/qwen-code`), by running the pinned CLI against
 * the loopback Chat Completions mock (test/contract/qwen_hooks_test.ts) and from its bundled source
 * and hooks docs:
 * - **Where hooks are read.** The `hooks` key of the user's settings (`$QWEN_HOME/settings.json`,
 *   default `~/.qwen/settings.json`) and of the project's (`<cwd>/.qwen/settings.json`); system
 *   settings' hooks are not loaded as such. Format: `{"hooks": {"Stop": [{"hooks": [{"type":
 *   "command", "command": …, "timeout": <ms>, "name": …}]}]}}`; the timeout is in **milliseconds**
 *   (default 60000). Both scopes run in headless `qwen -p` as in the TUI. Every hook is off with
 *   `disableAllHooks: true` in any settings layer, or with `--bare`.
 * - **Trust.** User hooks always load. Project hooks load only in a trusted folder: with
 *   `security.folderTrust.enabled` (off by default: every folder is trusted) the cwd must be
 *   trusted in `$QWEN_HOME/trustedFolders.json` (`TRUST_FOLDER`, or `TRUST_PARENT` of a child).
 *   There is no per-hook trust.
 * - **Process.** `bash -c '<command>'`, cwd = the session cwd (fixed), the parent's environment
 *   plus `QWEN_PROJECT_DIR` = `CLAUDE_PROJECT_DIR` = the cwd. On timeout Qwen Code sends SIGTERM to
 *   the shell only (SIGKILL 2 s later), not to its process group, and goes on as if allowed.
 * - **Payloads** (lib/gates/qwen/payload.ts). `UserPromptSubmit` fires before every model request
 *   of a turn, not only the user's: `prompt: ""` after each tool call and `prompt: <the Stop
 *   reasons>` after a block. Only a prompt the user typed starts a turn here (else each tool call
 *   would reset the block counter and the turn's prompt). `Stop` carries `stop_hook_active: true`
 *   on every stop, the first included: ignored (our block counter is the loop guard).
 * - **Answers.** Stop: exit 0 and `{"decision":"block","reason":R}` (also `"deny"`, or
 *   `"continue": false`) sends R to the model as the next user message of the same prompt; any
 *   other JSON, or none, lets the turn end; plain text on exit 0 becomes a `systemMessage`; exit 2
 *   blocks with stderr as the reason; other exits allow. Reasons of several Stop hooks are joined,
 *   any block wins. `{"systemMessage":S}` shows S in the TUI (`qwen -p` prints nothing of it).
 *   UserPromptSubmit: plain stdout becomes a system message, not model input; `qwen-prompt`
 *   prints nothing on stdout.
 * - **Loop limit.** A Stop hook that always blocks was given 99 blocks in one `qwen -p` prompt
 *   (Qwen Code re-enters its 100-turn request budget on each block), then the run ended: far
 *   above `max_blocks`, which stays the cap that holds.
 * - **Subagents** run `SubagentStart`/`SubagentStop` (payloads with `agent_id`), never `Stop` or
 *   `UserPromptSubmit`; our hooks ignore any event carrying `agent_id`.
 * - **Review children.** The Qwen provider runs its review child with a private `QWEN_HOME` and
 *   `HOME` (no user hooks) in a private copy without `.qwen/` (lib/providers/qwen/child.ts), and
 *   `REVIEW_GATE_CHILD=1` makes every hook of ours return at once, whatever slips through.
 *
 * @module
 */
import { ALLOW, type HookEntry } from "../hook_io.ts";
import type { TurnDoor } from "../turn/door.ts";
import { isMainStop, isUserPrompt, parseQwenPayload, type QwenHookPayload } from "./payload.ts";

/** Qwen Code's door: `qwen-prompt` / `qwen-stop`, config `gates.qwen_stop`. */
export const QWEN_DOOR: TurnDoor = {
  gateName: "qwen-stop",
  promptHookName: "qwen-prompt",
  turnLabel: "this Qwen Code turn's changes",
  gateConfig: (config) => config.gates.qwen_stop,
  parse: parseQwenPayload,
  isPrompt: isUserPrompt,
  isStop: isMainStop,
  isToolUse: (payload) =>
    payload.hook_event_name === "PostToolUse" &&
    (payload as QwenHookPayload).agent_id === undefined,
  workerHookName: "qwen-worker",
  projectDir: () => undefined, // QWEN_PROJECT_DIR is the payload's cwd, which does not move
};

/**
 * `hook qwen-work` on Qwen Code's `PostToolUse`: note that files changed and keep the session's
 * background review going (lib/gates/turn/work_hook.ts); exit 0 with no stdout, always.
 */
export const qwenWorkHook: HookEntry = {
  run: async (input) => (await import("../turn/work_hook.ts")).runWorkHook(input, QWEN_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook qwen-worker <session> <root> <job>`: the detached background worker of one session. */
export const qwenWorkerHook: HookEntry = {
  run: async (input, args) => {
    const { parseWorkerArgs, runWorker } = await import("../turn/worker.ts");
    const parsed = parseWorkerArgs(args);
    return parsed ? await runWorker(input, QWEN_DOOR, parsed) : ALLOW;
  },
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook qwen-prompt`: record the turn's baseline; exit 0 with no stdout, always. */
export const qwenPromptHook: HookEntry = {
  run: async (input) => (await import("../turn/baseline.ts")).recordBaseline(input, QWEN_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("prompt", error),
};

/** `hook qwen-stop`: review the turn; exit 0 always, stdout empty, a `systemMessage` or a block. */
export const qwenStopHook: HookEntry = {
  run: async (input) => (await import("../turn/stop.ts")).runStopGate(input, QWEN_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("stop", error),
};
