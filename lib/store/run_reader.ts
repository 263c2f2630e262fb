/**
 * Reading finished runs back from `runs/<run-id>/` (docs/design.md "Store"): the run ids,
 * newest first, and one run's `run.json` with its `answer.json`. A folder that is not a run, a
 * `run.json` that does not parse or a run still "running" reads as absent, never as a crash.
 *
 * @module
 */
import { join } from "../base/path.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { RUNNING_STATUS, type RunRecord } from "./run_record.ts";

const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/**
 * Run ids in a state dir, newest first.
 *
 * @param state the state dir
 * @param limit at most this many (the newest); default all
 * @returns ids; [] when there is no `runs/` folder
 */
export async function listRunIds(state: string, limit = Infinity): Promise<string[]> {
  const ids: string[] = [];
  try {
    for await (const entry of Deno.readDir(join(state, "runs"))) {
      if (entry.isDirectory && RUN_ID.test(entry.name)) ids.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return ids.sort().reverse().slice(0, limit);
}

/**
 * A finished run: its record and, when it produced one, its answer.
 *
 * @param state the state dir
 * @param id a run id
 * @returns the run, or null when it does not exist, is unreadable or has not finished
 */
export async function readRun(
  state: string,
  id: string,
): Promise<{ record: RunRecord; answer?: ReviewAnswer } | null> {
  if (!RUN_ID.test(id)) return null;
  const dir = join(state, "runs", id);
  try {
    const record = JSON.parse(await Deno.readTextFile(join(dir, "run.json")));
    if (typeof record !== "object" || record === null || record.status === RUNNING_STATUS) {
      return null;
    }
    const answer = await Deno.readTextFile(join(dir, "answer.json")).then(
      (text) => JSON.parse(text) as ReviewAnswer,
      () => undefined,
    );
    return { record: record as RunRecord, ...(answer ? { answer } : {}) };
  } catch {
    return null;
  }
}
