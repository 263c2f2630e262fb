/**
 * A session's background worker as a job (docs/design.md "Review while working"): the job
 * `hook <agent>-worker <session> <root> <job id>` runs (lib/gates/turn/work_hook.ts starts it,
 * lib/gates/turn/worker.ts runs it). It reviews parts of an agent's turn while the agent works; the
 * turn's Stop gives the verdict, so the job itself has none — `jobs`, `status` and `result` say
 * what it is instead (README.md "Review while working").
 *
 * @module
 */
import type { JobRecord, WorkerTally } from "../store/jobs.ts";

/**
 * The worker a job is, or `null` for a review job. A record from before jobs carried
 * {@linkcode JobRecord.work} is known by the arguments it runs.
 *
 * @param job a job record
 * @returns the session and whatever tallies the record holds
 */
export function workerOf(job: JobRecord): WorkerTally | null {
  if (job.work && typeof job.work.sessionId === "string") return job.work;
  const [hook, name, sessionId] = job.args ?? [];
  if (hook === "hook" && typeof name === "string" && name.endsWith("-worker")) {
    return { sessionId: typeof sessionId === "string" ? sessionId : "?" };
  }
  return null;
}

function count(n: number | undefined, one: string, many: string): string {
  return n === undefined ? `? ${many}` : `${n} ${n === 1 ? one : many}`;
}

/**
 * What the worker did, in words: `N calls, M parts answered` (`?` where the record has no tally:
 * it is still running, or died before it wrote one).
 */
export function workerTallyText(work: WorkerTally): string {
  return `${count(work.calls, "call", "calls")}, ${count(work.answered, "part", "parts")} answered`;
}

/** `background review of session <id>'s turn` (the session id as the agent named it). */
export function workerLabel(work: WorkerTally): string {
  return `background review of session ${work.sessionId}'s turn`;
}
