/**
 * Stopping what a job runs: its own process group (the job leads its session and group) and the
 * process groups of the children it recorded or that `ps` shows below it (each provider leads its
 * own session). A process is only signalled while it is the one recorded — same pid *and* same
 * start time (lib/exec/process_info.ts) — so a pid reused since is never hit.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { descendantsOf, isRunning } from "../exec/process_info.ts";
import type { TrackedProcess } from "../store/jobs.ts";

/**
 * Send a signal to a process's group, or to the process when it leads no group.
 *
 * @returns false when neither exists any more
 */
export function signalGroup(pid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pid, signal);
    return true;
  } catch {
    try {
      Deno.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * The job process's live descendants, as `ps` lists them now (best-effort: none when `ps` fails).
 *
 * @param runner the subprocess seam
 * @param job the job process
 */
export async function descendantsNow(
  runner: Runner,
  job: TrackedProcess,
): Promise<TrackedProcess[]> {
  try {
    if (!await isRunning(runner, job)) return [];
    return (await descendantsOf(runner, job.pid)).map(({ pid, startedAt }) => ({ pid, startedAt }));
  } catch {
    return [];
  }
}

/**
 * SIGKILL the groups of every recorded process that still runs as recorded.
 *
 * @param runner the subprocess seam
 * @param processes pids with their start times (duplicates are fine)
 * @returns the pids that were still running and were signalled
 */
export async function killRecorded(
  runner: Runner,
  processes: readonly TrackedProcess[],
): Promise<number[]> {
  const killed: number[] = [];
  const seen = new Set<number>();
  for (const process of processes) {
    if (seen.has(process.pid)) continue;
    seen.add(process.pid);
    const running = await isRunning(runner, process).catch(() => false);
    if (running && signalGroup(process.pid, "SIGKILL")) killed.push(process.pid);
  }
  return killed;
}

/**
 * Which of the recorded processes still run (for "no process left" reports).
 *
 * @param runner the subprocess seam
 * @param processes pids with start times
 */
export async function stillRunning(
  runner: Runner,
  processes: readonly TrackedProcess[],
): Promise<number[]> {
  const alive: number[] = [];
  for (const process of processes) {
    if (await isRunning(runner, process).catch(() => false)) alive.push(process.pid);
  }
  return alive;
}
