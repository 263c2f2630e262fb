/**
 * Folder-private test helpers for the jobs tests: a throwaway state dir and a job record.
 *
 * @module
 */
import { jobLogPath, type JobRecord, newJobId } from "../store/jobs.ts";

/** Run `fn` with a fresh state dir, removed after. */
export async function withState(fn: (state: string) => Promise<void>): Promise<void> {
  const state = await Deno.makeTempDir({ prefix: "rg-jobs-" });
  try {
    await fn(state);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
}

/** A job record of `state`'s store in `jobState` (a new id, now), with `patch` over it. */
export function jobRecord(
  state: string,
  jobState: JobRecord["state"],
  patch: Partial<JobRecord> = {},
): JobRecord {
  const id = newJobId(new Date());
  const now = new Date().toISOString();
  return {
    version: 1,
    id,
    state: jobState,
    createdAt: now,
    updatedAt: now,
    args: [],
    cwd: "/repo",
    target: "working tree",
    provider: "claude",
    answerKind: "review",
    ceilingSeconds: 600,
    log: jobLogPath(state, id),
    ...patch,
  };
}
