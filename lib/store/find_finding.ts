/**
 * Find a finding of an earlier run for `review-gate ack`: by `<run-id>:<n>` (the n-th finding of
 * that run's answer, from 1) or by its fingerprint (the full 64 hex characters or a prefix of at
 * least 8), searching the newest runs first.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { Finding } from "../kinds/review/types.ts";
import { listRunIds, readRun } from "./run_reader.ts";

/** How many of the newest runs a fingerprint is looked for in. */
export const SEARCHED_RUNS = 500;

/** A finding found in a run. */
export interface FoundFinding {
  runId: string;
  /** Position in the run's answer, from 1. */
  index: number;
  finding: Finding;
  /** Its full fingerprint (64 hex characters). */
  fingerprint: string;
}

/**
 * Find the finding a reference names.
 *
 * @param state the state dir
 * @param ref `<run-id>:<n>` or a fingerprint (prefix of ≥ 8 hex characters)
 * @returns the finding, from the newest run that has it
 * @throws {UsageError} for a malformed reference, an unknown run or index, a fingerprint found in no
 *   recent run, or a prefix that matches several fingerprints
 */
export async function findFinding(state: string, ref: string): Promise<FoundFinding> {
  const byIndex = /^(\d{8}T\d{6}Z-[0-9a-f]{6}):(\d+)$/.exec(ref);
  if (byIndex) return await findByIndex(state, byIndex[1], Number(byIndex[2]));
  const prefix = ref.toLowerCase();
  if (!/^[0-9a-f]{8,64}$/.test(prefix)) {
    throw new UsageError(
      `"${ref}" is neither a fingerprint (8 to 64 hex characters) nor <run-id>:<n> (e.g. 20261130T101500Z-a1b2c3:2)`,
    );
  }
  const matches = new Map<string, FoundFinding>();
  for (const runId of await listRunIds(state, SEARCHED_RUNS)) {
    const run = await readRun(state, runId);
    if (!run?.answer || !run.record.findingNotes) continue;
    run.record.findingNotes.forEach((note, i) => {
      const finding = run.answer!.findings[i];
      if (finding && note.fingerprint.startsWith(prefix) && !matches.has(note.fingerprint)) {
        matches.set(note.fingerprint, {
          runId,
          index: i + 1,
          finding,
          fingerprint: note.fingerprint,
        });
      }
    });
  }
  if (matches.size === 0) {
    throw new UsageError(
      `No finding with fingerprint ${prefix} in the last ${SEARCHED_RUNS} runs of this repository`,
    );
  }
  if (matches.size > 1) {
    throw new UsageError(
      `Fingerprint ${prefix} is ambiguous (${matches.size} findings): give more characters`,
    );
  }
  return [...matches.values()][0];
}

async function findByIndex(state: string, runId: string, index: number): Promise<FoundFinding> {
  const run = await readRun(state, runId);
  if (!run) throw new UsageError(`No finished run ${runId} in this repository`);
  const finding = run.answer?.findings[index - 1];
  const fingerprint = run.record.findingNotes?.[index - 1]?.fingerprint;
  if (!finding || !fingerprint) {
    const count = run.answer?.findings.length ?? 0;
    throw new UsageError(
      `Run ${runId} has no finding ${index} (it has ${count}${
        count > 0 && !run.record.findingNotes ? ", recorded before fingerprints existed" : ""
      })`,
    );
  }
  return { runId, index, finding, fingerprint };
}
