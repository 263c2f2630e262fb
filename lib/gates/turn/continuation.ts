/**
 * A block's reason handed back as a prompt (pure). Some agents (GitHub Copilot CLI 1.0.102:
 * lib/gates/copilot/door.ts) continue a turn a Stop hook blocked by sending the block's `reason`
 * as a new user message, and fire their prompt hook on it with nothing that tells it from the
 * user's own prompt. Taken as a prompt it would end the block streak (no `max_blocks` cap would
 * hold) and count review-gate's own words — which name the gate-control changes a prompt must ask
 * for — as the user's request. So a door whose host does this (`TurnDoor.blockReasonIsPrompt`)
 * treats such a prompt as the same turn going on: a prompt that opens like one of our block
 * reasons (lib/gates/turn/answer.ts), while the session's sealed record says its last stop blocked.
 *
 * @module
 */
import type { SessionState } from "../../store/sessions.ts";

/** How each block reason of lib/gates/turn/answer.ts opens (checked by continuation_test.ts). */
export const BLOCK_REASON_OPENINGS: readonly string[] = [
  "review-gate found ",
  "review-gate could not review this turn's changes",
  "review-gate reviewed only part of this turn's changes",
];

/**
 * Whether a prompt is the host handing back our last block's reason, not the user speaking.
 *
 * @param previous the session's sealed record (null when none)
 * @param prompt the prompt text from the hook payload
 * @returns true only when the last stop of the session blocked and the prompt opens like a reason
 */
export function isBlockContinuation(previous: SessionState | null, prompt: string): boolean {
  if (!previous || previous.consecutiveBlocks <= 0) return false;
  const text = prompt.trimStart();
  return BLOCK_REASON_OPENINGS.some((opening) => text.startsWith(opening));
}
