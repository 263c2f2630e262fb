/**
 * The turn gate's start (DESIGN.md "Gates"), agent-neutral: on the user's prompt (Claude Code's
 * `UserPromptSubmit`, through its door lib/gates/claude/door.ts) record the turn's baseline — the
 * worktree as a tree id, untracked files through a temporary index (the user's index is never
 * touched) — and reset the block counter. Failures are reported on stderr only and never block.
 *
 * @module
 */
import { snapshotWorktreeTree } from "../../git/live_tree.ts";
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import { ensureStateDir } from "../../store/state.ts";
import { readSessionState, writeSessionState } from "../../store/sessions.ts";
import { ALLOW, describeFailure, type HookInput, type HookOutput } from "../hook_io.ts";
import { openGate } from "./context.ts";
import type { TurnDoor } from "./door.ts";

/**
 * The turn's start: record the baseline tree of this turn and reset the block counter.
 *
 * @param input the hook's input
 * @param door the agent's front door
 * @returns always exit 0 with no stdout (plain stdout would be added to Claude's context)
 */
export async function recordBaseline(input: HookInput, door: TurnDoor): Promise<HookOutput> {
  try {
    const gate = await openGate(input, door, door.isPrompt);
    if (!gate) return ALLOW;
    const state = await ensureStateDir(gate.repo.commonDir);
    const baselineTree = await snapshotWorktreeTree(input.runner, gate.repo);
    const previous = await readSessionState(state, gate.payload.session_id);
    await writeSessionState(state, {
      sessionId: gate.payload.session_id,
      value: {
        ...previous,
        baselineTree,
        consecutiveBlocks: 0,
        updatedAt: input.now().toISOString(),
      },
    });
    return ALLOW;
  } catch (error) {
    return {
      stdout: "",
      stderr: sanitizeForTerminal(
        `review-gate: could not record the turn baseline: ${describeFailure(error)}\n`,
      ),
      exitCode: 0,
    };
  }
}
