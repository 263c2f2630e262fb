/**
 * Open a review run (docs/design.md "Store"): create its folder under `runs/` and write the
 * "running" `run.json` placeholder, which {@linkcode import("./store_run.ts").storeRun} replaces
 * with the final record. A `run.json` still "running" afterwards means the run never finished
 * (kill -9). The run's lock is held from the folder's creation on, until the caller lets it go once
 * the final record is written (`prune` leaves a locked run alone).
 *
 * @module
 */
import type { Change } from "../git/types.ts";
import { createRunDir, holdRunDir, newRunId, writeRunRecord } from "../store/run_dir.ts";
import type { RunStart } from "./store_run.ts";

/** What a run's record holds before its folder exists. */
export type RunBase = Omit<
  RunStart,
  "id" | "runDir" | "target" | "coverage" | "fingerprint" | "cacheKey"
>;

/** The run to open. */
export interface RunOpening {
  /** When the review started (the run id is derived from it). */
  started: Date;
  base: RunBase;
  /** The collected change under review. */
  change: Change;
  /** Verdict cache key of this review (lib/store/cache.ts). */
  cacheKey: string;
  /** Whether the answer comes from the verdict cache (recorded in the "running" `run.json`). */
  cached: boolean;
}

/**
 * Create the run folder, take its lock and write its "running" `run.json`.
 *
 * @param state the state directory (lib/store/state.ts)
 * @returns the run's start, to pass to `storeRun` when it ends, and how to let the run's lock go
 *   (after its final record is written)
 * @throws {import("../base/errors.ts").StoreError} the run folder, its lock or `run.json` cannot be
 *   written
 */
export async function openRun(
  state: string,
  run: RunOpening,
): Promise<{ start: RunStart; release: () => void }> {
  const { change } = run;
  const id = newRunId(run.started);
  const runDir = await createRunDir(state, id);
  const release = await holdRunDir(runDir);
  const start: RunStart = {
    ...run.base,
    id,
    runDir,
    target: { kind: change.target.kind, label: change.label, from: change.from, to: change.to },
    coverage: change.coverage,
    fingerprint: change.fingerprint,
    cacheKey: run.cacheKey,
  };
  try {
    await writeRunRecord(runDir, { ...start, status: "running", cached: run.cached });
  } catch (error) {
    release();
    throw error;
  }
  return { start, release };
}
