/**
 * What the agent-neutral turn gate (lib/gates/turn/) needs from an agent's front door: how to read
 * the hook payload, which events are the turn's start and its stop, the gate's name and config, and
 * how to call the change under review. Claude Code's door is lib/gates/claude/door.ts; another
 * agent whose hooks report a turn's start and stop (say, Codex) is one more door, with no copied
 * gate logic.
 *
 * @module
 */
import type { Config, TurnGateSettings } from "../../config/config.ts";
import type { HookOutput } from "../hook_io.ts";

/** The payload fields the turn gate uses (Claude Code's names; unknown fields are ignored). */
export interface TurnPayload {
  hook_event_name: string;
  /** The agent's session: one baseline, block streak and lock per session. */
  session_id: string;
  /** The agent's cwd (where the repository is looked up). */
  cwd: string;
  /** Stop: the agent's final message, carried into the prompt as data; absent when none. */
  last_assistant_message?: string;
  /** The turn's start: the user's prompt text, as the agent sent it. */
  prompt?: string;
  /**
   * Stop: the host says this stop follows a block of the same turn (Claude Code and Codex both send
   * it). Set by the host, not the model.
   */
  stop_hook_active?: boolean;
}

/** Result of a door's payload parser: the payload, or why it is unusable (never thrown). */
export type TurnPayloadResult<P extends TurnPayload = TurnPayload> =
  | { ok: true; payload: P }
  | { ok: false; reason: string };

/** The settings of one turn gate (e.g. config `gates.claude_stop`). */
export type TurnGateConfig = TurnGateSettings;

/** An agent's front door to the turn gate. */
export interface TurnDoor {
  /** The Stop hook's name as `review-gate hook` and `gate disable` spell it, e.g. `claude-stop`. */
  readonly gateName: string;
  /** The prompt hook's name, e.g. `claude-prompt`. */
  readonly promptHookName: string;
  /** Target label of a turn's review, e.g. "this Claude turn's changes". */
  readonly turnLabel: string;
  /** This gate's settings in the effective config. */
  gateConfig(config: Config): TurnGateConfig;
  /** Parse the hook's stdin; never throws. */
  parse(stdinText: string): TurnPayloadResult;
  /** True for the event that starts a turn (the user's prompt). */
  isPrompt(payload: TurnPayload): boolean;
  /** True for the main agent's stop (not a subagent's). */
  isStop(payload: TurnPayload): boolean;
  /**
   * True for the event after a tool call that may have changed files (Claude Code's and Codex's
   * `PostToolUse`): the background review's cue (lib/gates/turn/work_hook.ts). Absent: the agent
   * has none.
   */
  isToolUse?(payload: TurnPayload): boolean;
  /** The hook that runs the background worker, e.g. `claude-worker` (lib/gates/turn/worker.ts). */
  readonly workerHookName?: string;
  /**
   * The project directory the agent names for its hooks (Claude Code: `CLAUDE_PROJECT_DIR`), where
   * the turn gate anchors before the moving cwd (lib/gates/turn/locate.ts); `undefined` when none.
   */
  projectDir(env: Record<string, string | undefined>): string | undefined;
  /**
   * The timeout the agent gives this hook when the door fixes it (a plugin's hooks.json), seconds;
   * the gate's deadline then stays below it whatever the config says. Absent: the config's.
   */
  readonly hookTimeoutSeconds?: number;
  /**
   * The host continues a blocked turn by sending the block's reason as a new user prompt, firing
   * the prompt hook on it (GitHub Copilot CLI): such a prompt is the same turn going on, not the
   * user's (lib/gates/turn/continuation.ts). Absent: every prompt is the user's.
   */
  readonly blockReasonIsPrompt?: boolean;
  /**
   * Claim this stop before reviewing it, when several of our Stop hooks may run for it at once
   * (lib/gates/claude/claim.ts). Absent: every stop is reviewed.
   *
   * @returns `null` to go on, or the output of a hook that lost the claim (it allows)
   */
  claimStop?(state: string, payload: TurnPayload, now: Date): Promise<HookOutput | null>;
}
