/**
 * Claude Code's front door to the turn gate (DESIGN.md "Gates", PROVIDERS.md "Claude Code hooks"):
 * `hook claude-prompt` on `UserPromptSubmit` records the turn's baseline, `hook claude-stop` on the
 * main agent's `Stop` reviews the turn. The payload parser is lib/gates/claude/payload.ts; the
 * gate logic is lib/gates/turn/, shared with any other agent's door, and loaded per hook (the prompt
 * hook never loads the stop's modules, nor the other way round).
 *
 * @module
 */
import type { HookEntry } from "../hook_io.ts";
import type { TurnDoor } from "../turn/door.ts";
import { isMainAgentStop, isPromptSubmit, parseHookPayload } from "./payload.ts";

/** Claude Code's door: `claude-prompt` / `claude-stop`, config `gates.claude_stop`. */
export const CLAUDE_DOOR: TurnDoor = {
  gateName: "claude-stop",
  promptHookName: "claude-prompt",
  turnLabel: "this Claude turn's changes",
  gateConfig: (config) => config.gates.claude_stop,
  parse: parseHookPayload,
  isPrompt: isPromptSubmit,
  isStop: isMainAgentStop,
  projectDir: (env) => env.CLAUDE_PROJECT_DIR || undefined,
};

/** `hook claude-prompt`: record the turn's baseline; exit 0 with no stdout, always. */
export const claudePromptHook: HookEntry = {
  run: async (input) => (await import("../turn/baseline.ts")).recordBaseline(input, CLAUDE_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("prompt", error),
};

/** `hook claude-stop`: review the turn; exit 0 always, stdout empty, a `systemMessage` or a block. */
export const claudeStopHook: HookEntry = {
  run: async (input) => (await import("../turn/stop.ts")).runStopGate(input, CLAUDE_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("stop", error),
};
