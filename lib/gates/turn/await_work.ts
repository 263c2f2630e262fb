/**
 * The Stop's side of reviewing while the agent works (docs/design.md "Review while working"):
 * before its own review, the Stop tells the session's worker to plan the worktree as it is now
 * (no quiet time) and waits — never past {@linkcode waitLimit}, well inside its own deadline — until
 * the worker has settled that very tree (every part tried, none of its calls running), ended, or
 * died. Then the Stop reviews as always: parts whose exact bytes have a verdict in the cache reuse
 * it, the rest are asked now, and what is still not answered by the deadline is "NOT reviewed"
 * (`on_partial`). The wait decides nothing: a background review that crashed or never finished
 * left no verdict, so its parts are asked by the Stop or named as not reviewed — never approved.
 * After the answer the worker is told to stop, and the turn's tally goes to `stats`.
 *
 * @module
 */
import type { Runner } from "../../exec/exec.ts";
import { isRunning } from "../../exec/process_info.ts";
import { pokeWork, readWorkStatus, type WorkStatus } from "../../store/turn_work.ts";
import { appendWorkTally, tallyOf } from "../../store/work_ledger.ts";
import type { PartUsage } from "./review.ts";

/** How often the Stop looks at the worker's status while it waits, ms. */
const LOOK_MS = 100;
/** How often it asks `ps` whether the worker still lives, ms. */
const ALIVE_MS = 1_000;

/**
 * The latest the Stop waits for background work: its deadline less the time its own review needs
 * to take the cached verdicts (5 s, or half of what is left when that is less).
 *
 * @param now epoch ms
 * @param deadline the Stop's internal deadline, epoch ms
 */
export function waitLimit(now: number, deadline: number): number {
  return deadline - Math.min(5_000, Math.max(0, deadline - now) / 2);
}

/** What the Stop's wait found. */
export interface WorkWait {
  /** The worker's status when the wait ended (`null`: no worker for this turn). */
  status: WorkStatus | null;
  waitedMs: number;
  /** True when the worker had settled the Stop's tree. */
  settled: boolean;
}

/**
 * Ask the session's worker for the worktree `tree` now and wait until it settled it, ended or
 * died, or `until` passed.
 *
 * @param at the state dir, session, its turn (`turnStartedAt`), the Stop's tree and wait limit
 * @returns what the wait found; never throws (a worker that cannot be read is none)
 */
export async function awaitWork(
  runner: Runner,
  at: { state: string; sessionId: string; turn: string; tree: string; until: number },
): Promise<WorkWait> {
  const started = Date.now();
  const none = { status: null, waitedMs: 0, settled: false };
  try {
    await pokeWork(at.state, at.sessionId, { turn: at.turn, stopAt: started });
    let status = await readWorkStatus(at.state, at.sessionId);
    if (!status || status.turn !== at.turn) return none;
    let lastAlive = 0;
    while (status.settled !== at.tree && status.ended === undefined && Date.now() < at.until) {
      if (Date.now() - lastAlive >= ALIVE_MS) {
        if (!await isRunning(runner, status.process).catch(() => false)) break; // died
        lastAlive = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
      status = await readWorkStatus(at.state, at.sessionId) ?? status;
    }
    return { status, waitedMs: Date.now() - started, settled: status.settled === at.tree };
  } catch {
    return none;
  }
}

/**
 * After the Stop's answer: tell the worker to stop, and append the turn's tally (when a worker
 * worked for it). Best-effort: never throws.
 *
 * @param at the state dir, session, turn, gate, what the wait found and the Stop's parts
 */
export async function endWork(
  at: {
    state: string;
    sessionId: string;
    turn: string;
    gate: string;
    wait: WorkWait | null;
    parts?: PartUsage[];
  },
): Promise<void> {
  await pokeWork(at.state, at.sessionId, { turn: at.turn, answeredAt: Date.now() }).catch(() => {});
  if (!at.wait?.status) return;
  // the counts as they stand now: calls started while the Stop reviewed are the turn's too
  const status = await readWorkStatus(at.state, at.sessionId).catch(() => null) ?? at.wait.status;
  if (status.turn !== at.turn) return;
  await appendWorkTally(at.state, {
    at: new Date().toISOString(),
    gate: at.gate,
    ...tallyOf(status, at.parts ?? []),
    waitedMs: at.wait.waitedMs,
    ...(at.wait.settled ? {} : { unsettled: true }),
  });
}
