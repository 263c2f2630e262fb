/**
 * The hooks review-gate answers, one line each: `review-gate hook <name>` → the module that runs it
 * (loaded only when that hook is called, so each hook pays for its own modules only). Adding a gate
 * is one new entry module plus one line in `HOOKS`; the installer that writes the hook is
 * lib/install/.
 *
 * @module
 */
import type { HookEntry } from "./hook_io.ts";

const HOOKS = {
  "pre-push": async () => (await import("./pre_push/hook.ts")).prePushHook,
  "claude-prompt": async () => (await import("./claude/door.ts")).claudePromptHook,
  "claude-stop": async () => (await import("./claude/door.ts")).claudeStopHook,
  "claude-guard": async () => (await import("./claude/guard.ts")).claudeGuardHook,
  "claude-work": async () => (await import("./claude/door.ts")).claudeWorkHook,
  "claude-worker": async () => (await import("./claude/door.ts")).claudeWorkerHook,
  "codex-prompt": async () => (await import("./codex/door.ts")).codexPromptHook,
  "codex-stop": async () => (await import("./codex/door.ts")).codexStopHook,
  "codex-work": async () => (await import("./codex/door.ts")).codexWorkHook,
  "codex-worker": async () => (await import("./codex/door.ts")).codexWorkerHook,
  "copilot-prompt": async () => (await import("./copilot/door.ts")).copilotPromptHook,
  "copilot-stop": async () => (await import("./copilot/door.ts")).copilotStopHook,
  "copilot-work": async () => (await import("./copilot/door.ts")).copilotWorkHook,
  "copilot-worker": async () => (await import("./copilot/door.ts")).copilotWorkerHook,
  "qwen-prompt": async () => (await import("./qwen/door.ts")).qwenPromptHook,
  "qwen-stop": async () => (await import("./qwen/door.ts")).qwenStopHook,
  "qwen-work": async () => (await import("./qwen/door.ts")).qwenWorkHook,
  "qwen-worker": async () => (await import("./qwen/door.ts")).qwenWorkerHook,
  "gemini-prompt": async () => (await import("./gemini/door.ts")).geminiPromptHook,
  "gemini-stop": async () => (await import("./gemini/door.ts")).geminiStopHook,
  "gemini-work": async () => (await import("./gemini/door.ts")).geminiWorkHook,
  "gemini-worker": async () => (await import("./gemini/door.ts")).geminiWorkerHook,
} as const satisfies Record<string, () => Promise<HookEntry>>;

/** A hook name. */
export type HookName = keyof typeof HOOKS;

/** Every hook name, in registry order. */
export const HOOK_NAMES = Object.keys(HOOKS) as HookName[];

/** True for a name in {@linkcode HOOK_NAMES}. */
export function isHookName(name: string | undefined): name is HookName {
  return name !== undefined && Object.hasOwn(HOOKS, name);
}

/**
 * Load a hook's entry.
 *
 * @param name a hook name
 */
export function loadHook(name: HookName): Promise<HookEntry> {
  return HOOKS[name]();
}
