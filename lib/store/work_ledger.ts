/**
 * What reviewing while the agent works cost, one line per Stop that had background work
 * (docs/design.md "Review while working"): `<state>/work/turns.jsonl`, appended by the Stop gate and
 * summed by `stats`. A line is bookkeeping, not a verdict: it is not sealed, and a line that does
 * not parse is skipped.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { servingKeys, workDir } from "./turn_work.ts";
import { appendLines } from "./line_log.ts";

/** Longest wait for the tallies' lock, milliseconds (bookkeeping: never worth holding a Stop). */
const TALLY_LOCK_TIMEOUT_MS = 1_000;

/** One Stop's background-review tally. */
export interface WorkTally {
  /** ISO time of the Stop's answer. */
  at: string;
  /** The turn gate (`claude-stop`, `codex-stop`). */
  gate: string;
  /** Model calls the background reviews of the turn started. */
  backgroundCalls: number;
  /** Parts whose verdict the Stop took from a background review. */
  reused: number;
  /** Background calls whose verdict the Stop did not use (superseded, killed, failed, reverted). */
  wasted: number;
  /** Model calls the Stop's own review made. */
  stopCalls: number;
  /** Parts of the Stop's plan. */
  parts: number;
  /** How long the Stop waited for the background work, ms. */
  waitedMs: number;
  /** True when the background work had not settled by the Stop's wait limit. */
  unsettled?: boolean;
}

/** `<state>/work/turns.jsonl`. */
export function workLedgerPath(state: string): string {
  return join(workDir(state), "turns.jsonl");
}

/**
 * Append one tally (one write under the file's lock; best-effort: bookkeeping never fails a Stop).
 *
 * @returns true when written
 */
export async function appendWorkTally(state: string, tally: WorkTally): Promise<boolean> {
  try {
    await Deno.mkdir(workDir(state), { recursive: true, mode: 0o700 });
    // one locked write (lib/store/line_log.ts), as `prune` rewrites the file under that lock
    const line = new TextEncoder().encode(JSON.stringify(tally) + "\n");
    return await appendLines(workLedgerPath(state), line, { timeoutMs: TALLY_LOCK_TIMEOUT_MS });
  } catch {
    return false;
  }
}

/** Every tally that parses, in file order (none when the file is absent). */
export async function readWorkTallies(state: string): Promise<WorkTally[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(workLedgerPath(state));
  } catch {
    return [];
  }
  return text.split("\n").flatMap((line) => {
    try {
      const value = JSON.parse(line);
      return typeof value?.backgroundCalls === "number" && typeof value?.at === "string"
        ? [value as WorkTally]
        : [];
    } catch {
      return [];
    }
  });
}

/**
 * A tally from what the worker spent and what the Stop's review reused (pure).
 *
 * @param background the worker's calls, per part's verdict key (`whole:` or `part:` and its
 *   digest, lib/store/turn_work.ts `WorkStatus.spent`), and the parts it answered
 * @param stop per part of the Stop's plan: digest, cached, calls
 * @returns the counts of a {@linkcode WorkTally}
 */
export function tallyOf(
  background: { calls: number; spent: Record<string, number>; answered: readonly string[] },
  stop: readonly { digest: string; cached: boolean; calls: number }[],
): Pick<WorkTally, "backgroundCalls" | "reused" | "wasted" | "stopCalls" | "parts"> {
  const answered = new Set(background.answered);
  // the verdict keys of the Stop's plan: a plan of one part took the whole change's verdict; a
  // part of several its own, or the one a change of that part alone was answered with
  const key = (digest: string) => `${stop.length === 1 ? "whole" : "part"}:${digest}`;
  const source = (digest: string) => servingKeys(key(digest)).find((k) => answered.has(k));
  const reused = stop.filter((p) => p.cached && source(p.digest) !== undefined);
  const useful = reused.reduce((n, p) => n + (background.spent[source(p.digest)!] ?? 0), 0);
  return {
    backgroundCalls: background.calls,
    reused: reused.length,
    wasted: Math.max(0, background.calls - useful),
    stopCalls: stop.reduce((n, p) => n + p.calls, 0),
    parts: stop.length,
  };
}

/** The background-review tallies summed for `stats` (per turn: average and most). */
export interface WorkTotals {
  /** Stops whose turn had background work. */
  turns: number;
  backgroundCalls: number;
  reused: number;
  wasted: number;
  stopCalls: number;
  /** Parts of those Stops' plans (one call each, had every part been asked at the Stop). */
  parts: number;
  /** Most background calls, and most wasted calls, in one turn. */
  maxBackgroundCalls: number;
  maxWasted: number;
  /** Stops whose background work had not settled by their wait limit. */
  unsettled: number;
  /** Time the Stops waited for background work, ms. */
  waitedMs: number;
}

/**
 * Sum tallies (pure).
 *
 * @param tallies from {@linkcode readWorkTallies}
 * @param since only tallies at or after it
 */
export function sumTallies(tallies: readonly WorkTally[], since?: Date): WorkTotals {
  const total: WorkTotals = {
    turns: 0,
    backgroundCalls: 0,
    reused: 0,
    wasted: 0,
    stopCalls: 0,
    parts: 0,
    maxBackgroundCalls: 0,
    maxWasted: 0,
    unsettled: 0,
    waitedMs: 0,
  };
  for (const t of tallies) {
    if (since && Date.parse(t.at) < since.getTime()) continue;
    total.turns++;
    total.backgroundCalls += t.backgroundCalls;
    total.reused += t.reused;
    total.wasted += t.wasted;
    total.stopCalls += t.stopCalls;
    total.parts += t.parts;
    total.maxBackgroundCalls = Math.max(total.maxBackgroundCalls, t.backgroundCalls);
    total.maxWasted = Math.max(total.maxWasted, t.wasted);
    if (t.unsettled) total.unsettled++;
    total.waitedMs += t.waitedMs;
  }
  return total;
}
