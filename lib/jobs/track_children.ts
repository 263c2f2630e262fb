/**
 * A running job records its long-lived children — the provider CLI — in its record
 * (`children`: pid and start time), so that when the job itself dies (`kill -9`, a crash) or does
 * not stop when cancelled, whoever notices (`status`, `cancel`) can stop what it left behind:
 * `runProcess` starts those in their own session, out of reach of a kill of the job's group.
 * Children in the job's own process group (git: lib/exec/children.ts) are not written down — a
 * kill of the job's group reaches them — and neither are children that end within
 * {@linkcode SETTLE_MS} (`ps`).
 *
 * @module
 */
import { watchChildren } from "../exec/children.ts";
import type { Runner } from "../exec/exec.ts";
import { processInfo } from "../exec/process_info.ts";
import { updateJob } from "../store/jobs.ts";

/** How long a child must live before it is recorded, milliseconds. */
export const SETTLE_MS = 1000;

/**
 * Record the job's long-lived children until the returned function is called.
 *
 * @param at the state dir and the job id
 * @param runner the subprocess seam (for `ps`)
 * @param settleMs how long a child must live to be recorded
 * @returns stop watching; resolves once every pending write is done
 */
export function trackJobChildren(
  at: { state: string; id: string },
  runner: Runner,
  settleMs = SETTLE_MS,
): () => Promise<void> {
  const pending = new Map<number, ReturnType<typeof setTimeout>>();
  const recorded = new Set<number>();
  let chain: Promise<unknown> = Promise.resolve();
  const enqueue = (step: () => Promise<unknown>) => {
    chain = chain.then(step).catch(() => {}); // best-effort: the job goes on regardless
  };
  const record = async (pid: number) => {
    const info = await processInfo(runner, pid);
    if (info === null || info.zombie) return;
    recorded.add(pid);
    await updateJob(at.state, at.id, (job) => ({
      ...job,
      children: [...(job.children ?? []).filter((c) => c.pid !== pid), {
        pid,
        startedAt: info.startedAt,
      }],
    }));
  };
  const forget = async (pid: number) => {
    if (!recorded.delete(pid)) return;
    await updateJob(at.state, at.id, (job) => ({
      ...job,
      children: (job.children ?? []).filter((c) => c.pid !== pid),
    }));
  };
  const unwatch = watchChildren((event, pid, group) => {
    if (group === "ours") return;
    if (event === "start") {
      pending.set(
        pid,
        setTimeout(() => {
          pending.delete(pid);
          enqueue(() => record(pid));
        }, settleMs),
      );
      return;
    }
    const timer = pending.get(pid);
    if (timer !== undefined) {
      clearTimeout(timer);
      pending.delete(pid);
      return;
    }
    enqueue(() => forget(pid));
  });
  return async () => {
    unwatch();
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
    await chain;
  };
}
