/**
 * Which job a command means: an id given in full, or any unique part of it (its 6-hex tail,
 * `job-2026…`), or — without one — the newest review job (`status`, `result`: a session's
 * background worker, lib/jobs/worker_job.ts, has no verdict of its own and is named only by its id)
 * or the newest job still queued or running, worker or not (`cancel`). Every job found is refreshed first (lib/jobs/refresh.ts), so a dead job is never
 * reported as running.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { ENDED_STATES, type JobRecord, listJobs } from "../store/jobs.ts";
import { type RefreshDeps, refreshJob } from "./refresh.ts";
import { workerOf } from "./worker_job.ts";

/**
 * Find a job.
 *
 * @param state the state dir
 * @param id the id or a unique part of it; `undefined` for the newest
 * @param options `active`: without an id, the newest job still queued or running; otherwise the
 *   newest job that is not a background worker's
 * @returns the refreshed job
 * @throws {UsageError} (exit 2) no job, no match, an ambiguous part, or (without an id and
 *   `active`) no review job
 */
export async function findJob(
  state: string,
  id: string | undefined,
  options: { active?: boolean } & RefreshDeps,
): Promise<JobRecord> {
  const jobs = await listJobs(state);
  if (jobs.length === 0) {
    throw new UsageError(
      `No background jobs in this repository: start one with "review-gate review --background"`,
    );
  }
  let job: JobRecord | undefined;
  if (id !== undefined) {
    const exact = jobs.find((j) => j.id === id);
    const partial = exact ? [exact] : jobs.filter((j) => id.length >= 4 && j.id.includes(id));
    if (partial.length > 1) {
      throw new UsageError(
        `"${id}" matches ${partial.length} jobs (${
          partial.map((j) => j.id).join(", ")
        }): give more of the id`,
      );
    }
    job = partial[0];
    if (!job) throw new UsageError(`No job "${id}": see "review-gate jobs"`);
  } else if (options.active) {
    const refreshed = await Promise.all(
      jobs.filter((j) => !ENDED_STATES.has(j.state))
        .map((j) => refreshJob(state, j, options)),
    );
    job = refreshed.filter((j) => !ENDED_STATES.has(j.state)).at(-1);
    if (!job) throw new UsageError(`No job is queued or running: see "review-gate jobs"`);
    return job;
  } else {
    job = jobs.filter((j) => workerOf(j) === null).at(-1);
    if (!job) {
      throw new UsageError(
        `No background review jobs in this repository, only ${jobs.length} background review(s) ` +
          `of agent turns, which give no verdict of their own: see "review-gate jobs", or start ` +
          `a review with "review-gate review --background"`,
      );
    }
  }
  return await refreshJob(state, job, options);
}
