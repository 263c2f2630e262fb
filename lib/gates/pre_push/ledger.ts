/**
 * The ledger line of a ref update the pre-push gate answered from the verdict memo (docs/design.md
 * "Ledger and budget": every run records the cache hit and the asking gate in `records.jsonl`).
 * Such an answer
 * makes no model call and writes no run folder, so this line is all it stores — under the id of the
 * run that gave the verdict, whose folder holds that review: one append under the
 * records lock, best effort (a failure is a warning, never a blocked push). The installed hook's
 * shell replay of a push stamp starts no review-gate and writes no line: it is not a run.
 *
 * @module
 */
import type { RecordLine } from "../../store/records.ts";
import type { CachedVerdict } from "./cached.ts";

/** The run id a run folder is named by (its last path segment), or null without one. */
function runIdOf(runDir: string | undefined): string | null {
  const id = runDir?.replace(/\/+$/, "").split("/").pop();
  return id ? id : null;
}

/**
 * Append the ledger line of a memo answer.
 *
 * @param state the state dir (exists: the memo was read from it)
 * @param at the ref update's label, the verdict found, whether it blocked, when the lookup started
 *   and finished (wall time in ms is their difference)
 * @returns a warning to show when the line could not be written, else `undefined`
 */
export async function recordMemoAnswer(state: string, at: {
  label: string;
  hit: CachedVerdict;
  blocking: boolean;
  /** `gates.pre_push.mode` when `"warn"`, and how many findings would have blocked (README "Warn first"). */
  mode?: "warn";
  wouldBlock?: number;
  started: Date;
  finished: Date;
}): Promise<string | undefined> {
  const { appendRecord } = await import("../../store/records.ts");
  const { newRunId } = await import("../../store/run_dir.ts");
  const { warnFields } = await import("../../store/warn_fields.ts");
  const { hit } = at;
  const line: RecordLine = {
    // the run that gave the verdict: this answer writes no run folder of its own, and every
    // record's id leads to a run folder (docs/design.md "Ledger and budget")
    id: runIdOf(hit.runDir) ?? newRunId(at.finished),
    status: hit.status,
    blocking: at.blocking,
    target: at.label,
    provider: hit.provider,
    ...(hit.model ? { model: hit.model } : {}),
    gate: "pre-push",
    ...warnFields({ gateMode: at.mode, wouldBlock: at.wouldBlock }),
    cached: true,
    attempts: 0,
    ...(hit.findingCounts ? { findings: hit.findingCounts } : {}),
    acknowledged: hit.findingNotes?.filter((n) => n.acknowledged).length ?? 0,
    ...(hit.coverage ? { coverage: hit.coverage.status } : {}),
    durationMs: at.finished.getTime() - at.started.getTime(),
    finishedAt: at.finished.toISOString(),
  };
  try {
    const result = await appendRecord(state, line);
    return result.written ? undefined : result.warning;
  } catch (error) {
    return `Could not store the records line: ${error instanceof Error ? error.message : error}`;
  }
}
