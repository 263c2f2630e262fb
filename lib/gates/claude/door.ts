/**
 * Claude Code's front door to the turn gate (docs/design.md "Turn gate", docs/providers.md "Claude
 * Code hooks"):
 * `hook claude-prompt` on `UserPromptSubmit` records the turn's baseline, `hook claude-stop` on the
 * main agent's `Stop` reviews the turn. The payload parser is lib/gates/claude/payload.ts; the
 * gate logic is lib/gates/turn/, shared with any other agent's door, and loaded per hook (the prompt
 * hook never loads the stop's modules, nor the other way round).
 *
 * @module
 */
import { ALLOW, type HookEntry } from "../hook_io.ts";
import type { TurnDoor } from "../turn/door.ts";
import type { HookSource } from "./claim.ts";
import {
  type ClaudeHookPayload,
  isMainAgentStop,
  isPromptSubmit,
  parseHookPayload,
} from "./payload.ts";

/** Claude Code's door: `claude-prompt` / `claude-stop`, config `gates.claude_stop`. */
export const CLAUDE_DOOR: TurnDoor = {
  gateName: "claude-stop",
  promptHookName: "claude-prompt",
  turnLabel: "this Claude turn's changes",
  gateConfig: (config) => config.gates.claude_stop,
  parse: parseHookPayload,
  isPrompt: isPromptSubmit,
  isStop: isMainAgentStop,
  isToolUse: (payload) => payload.hook_event_name === "PostToolUse",
  workerHookName: "claude-worker",
  projectDir: (env) => env.CLAUDE_PROJECT_DIR || undefined,
};

/**
 * `hook claude-work` on `PostToolUse` (Edit, Write, MultiEdit, NotebookEdit, Bash): note that files
 * changed and keep the session's background review going (lib/gates/turn/work_hook.ts); exit 0
 * with no stdout, always.
 */
export const claudeWorkHook: HookEntry = {
  run: async (input) => (await import("../turn/work_hook.ts")).runWorkHook(input, CLAUDE_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook claude-worker <session> <root> <job>`: the detached background worker of one session. */
export const claudeWorkerHook: HookEntry = {
  run: async (input, args) => {
    const { parseWorkerArgs, runWorker } = await import("../turn/worker.ts");
    const parsed = parseWorkerArgs(args);
    return parsed ? await runWorker(input, CLAUDE_DOOR, parsed) : ALLOW;
  },
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("work", error),
};

/** `hook claude-prompt`: record the turn's baseline; exit 0 with no stdout, always. */
export const claudePromptHook: HookEntry = {
  run: async (input) => (await import("../turn/baseline.ts")).recordBaseline(input, CLAUDE_DOOR),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("prompt", error),
};

/** The Stop timeout the plugin's `hooks/hooks.json` declares, seconds (a test keeps them equal). */
export const PLUGIN_STOP_TIMEOUT_SECONDS = 300;

/**
 * Where the hook was installed from: `--source plugin` in the plugin's `hooks/hooks.json`, else
 * settings (`review-gate install --claude`).
 *
 * @param args the hook's arguments
 */
export function hookSource(args: readonly string[]): HookSource {
  const at = args.indexOf("--source");
  return at >= 0 && args[at + 1] === "plugin" ? "plugin" : "settings";
}

/**
 * Claude Code's door for a hook of one source: every stop is claimed first, so a plugin hook and a
 * settings hook running for the same stop review it once; the plugin's Stop deadline stays below
 * the timeout its hooks.json fixes.
 */
export function claudeDoorFor(source: HookSource): TurnDoor {
  return {
    ...CLAUDE_DOOR,
    ...(source === "plugin" ? { hookTimeoutSeconds: PLUGIN_STOP_TIMEOUT_SECONDS } : {}),
    async claimStop(state, payload, now) {
      const { claimStop, twiceMessage } = await import("./claim.ts");
      const claim = await claimStop(state, payload as ClaudeHookPayload, { source, now });
      if (claim.won) return null;
      const message = twiceMessage(claim, source);
      if (message === null) return ALLOW;
      const { buildStopMessage } = await import("../turn/answer.ts");
      return { stdout: buildStopMessage(message), stderr: "", exitCode: 0 };
    },
  };
}

/** `hook claude-stop`: review the turn; exit 0 always, stdout empty, a `systemMessage` or a block. */
export const claudeStopHook: HookEntry = {
  run: async (input, args) =>
    (await import("../turn/stop.ts")).runStopGate(input, claudeDoorFor(hookSource(args))),
  failed: async (error) => (await import("../turn/failure.ts")).turnHookFailed("stop", error),
};
