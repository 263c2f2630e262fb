/**
 * Which stored run a command means (`review-gate show [RUN]`): a run id given in full, or any
 * unique part of it (its 6-hex tail, `20261203T08…`), or — without one — the newest run that has
 * finished (docs/design.md "Store": run ids sort by time).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { join } from "../base/path.ts";
import { readRunRecord } from "./run_dir.ts";
import { listRunIds } from "./run_reader.ts";
import { RUNNING_STATUS, type RunRecord } from "./run_record.ts";

/** Shortest part of a run id that may name it (shorter parts match too much by chance). */
const MIN_PART = 4;

/**
 * Find a finished run.
 *
 * @param state the state dir
 * @param id the run id or a unique part of it; `undefined` for the newest finished run
 * @returns the run's record (read from its `run.json`) and its folder under `state`
 * @throws {UsageError} (exit 2) no runs, no match, an ambiguous part, or a run still running or
 *   whose `run.json` does not read
 */
export async function findRun(
  state: string,
  id: string | undefined,
): Promise<{ record: RunRecord; runDir: string }> {
  const ids = await listRunIds(state); // newest first
  if (ids.length === 0) {
    throw new UsageError(`No stored runs in this repository: run "review-gate review" first`);
  }
  if (id === undefined) return await newestFinished(state, ids);
  const exact = ids.filter((r) => r === id);
  const matches = exact.length > 0
    ? exact
    : ids.filter((r) => id.length >= MIN_PART && r.includes(id));
  if (matches.length > 1) {
    const named = matches.slice(0, 5).join(", ") + (matches.length > 5 ? ", …" : "");
    throw new UsageError(`"${id}" matches ${matches.length} runs (${named}): give more of the id`);
  }
  if (matches.length === 0) {
    throw new UsageError(
      `No run "${id}" in this repository: give a run id (the "Run folder:" line of a review names it) or a unique part of it, at least ${MIN_PART} characters`,
    );
  }
  const runDir = join(state, "runs", matches[0]);
  const record = await readRunRecord(runDir);
  if (!record) throw new UsageError(`Run ${matches[0]} has no readable run.json`);
  if (record.status === RUNNING_STATUS) {
    throw new UsageError(`Run ${matches[0]} is still running: show it once it has finished`);
  }
  return { record: record as RunRecord, runDir };
}

/**
 * The newest finished run: run ids sort by the second they started, so among the finished runs of
 * the newest such second the one that finished last (its `finishedAt`).
 *
 * @param ids the run ids, newest first
 */
async function newestFinished(
  state: string,
  ids: readonly string[],
): Promise<{ record: RunRecord; runDir: string }> {
  let best: { record: RunRecord; runDir: string } | undefined;
  let second = "";
  for (const candidate of ids) {
    if (best && !candidate.startsWith(second)) break;
    const runDir = join(state, "runs", candidate);
    const stored = await readRunRecord(runDir);
    if (!stored || stored.status === RUNNING_STATUS) continue;
    const record = stored as RunRecord;
    if (!best || (record.finishedAt ?? "") > (best.record.finishedAt ?? "")) {
      best = { record, runDir };
      second = candidate.slice(0, SECOND.length);
    }
  }
  if (!best) throw new UsageError(`No stored run has finished yet: see "review-gate jobs"`);
  return best;
}

/** The second a run id starts with: `YYYYMMDDTHHMMSSZ`. */
const SECOND = "YYYYMMDDTHHMMSSZ";
