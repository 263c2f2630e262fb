/**
 * The registry of live children and how each is killed. `runProcess` (lib/exec/exec.ts) starts a
 * child in one of two {@linkcode ProcessGroup}s, records it here while it runs and kills it on a
 * timeout or abort; `main.ts` kills every child still alive before it exits on a second signal
 * ({@linkcode killAllChildren}).
 *
 * - An `"own"` child (a provider CLI, anything that may run untrusted or long-lived work) leads its
 *   own session and process group: the terminal's Ctrl-C never reaches it, and it is killed with
 *   everything it started (`kill -KILL -pgid`) — by review-gate, or by the child's watchdog
 *   (lib/exec/watchdog.ts) when review-gate itself is gone.
 * - An `"ours"` child (git) stays in review-gate's process group, which spawns it twice as fast
 *   (no fork). The terminal's Ctrl-C reaches it as it reaches review-gate; it is killed by pid
 *   only — never `-pid`, which is no group of its own, and never our group — and only while it
 *   is still ours: through its process handle, which refuses once its exit status has been
 *   collected (its pid may belong to another process by then). What it started itself stays in our
 *   group, out of reach: `runProcess` only stops waiting for the pipes it holds.
 *
 * @module
 */

/**
 * Where `runProcess` starts a child: `"own"` — a new session and process group (Deno's
 * `detached`); `"ours"` — review-gate's own process group.
 */
export type ProcessGroup = "own" | "ours";

/** A child of {@linkcode trackChild}: its group, and how to SIGKILL it while it is ours. */
export interface LiveChild {
  group: ProcessGroup;
  /** SIGKILL the child itself, a no-op once its exit status has been collected; never throws. */
  kill(): void;
}

/** Every child now running, by pid (= its process group id when its group is `"own"`). */
const live = new Map<number, LiveChild>();

/** Told when `runProcess` starts a child and when it returns from one, with the child's group. */
export type ChildWatcher = (event: "start" | "end", pid: number, group: ProcessGroup) => void;
const watchers = new Set<ChildWatcher>();

function tell(event: "start" | "end", pid: number, group: ProcessGroup): void {
  for (const watcher of watchers) {
    try {
      watcher(event, pid, group);
    } catch {
      // a watcher never breaks running a child
    }
  }
}

/**
 * Watch the children `runProcess` starts (a background job records its long-lived ones, so a
 * cancel or a later `status` can stop a provider its dead job left behind).
 *
 * @param watcher called synchronously on every start and end; what it throws is ignored
 * @returns a function that stops watching
 */
export function watchChildren(watcher: ChildWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/**
 * Record a child `runProcess` has just started.
 *
 * @param pid the child's pid (also its process group id when its group is `"own"`)
 * @param child its group and how to kill it while it is ours
 */
export function trackChild(pid: number, child: LiveChild): void {
  live.set(pid, child);
  tell("start", pid, child.group);
}

/**
 * Forget a child `runProcess` is returning from.
 *
 * @param pid the pid given to {@linkcode trackChild}
 */
export function untrackChild(pid: number): void {
  const child = live.get(pid);
  if (!child) return;
  live.delete(pid);
  tell("end", pid, child.group);
}

/**
 * Pids of the children `runProcess` has started and not yet returned from (for `main.ts` and
 * tests).
 *
 * @returns pids (an `"own"` child's pid is also its process group id)
 */
export function liveChildren(): number[] {
  return [...live.keys()];
}

/**
 * SIGKILL every child `runProcess` started and has not yet returned from, synchronously: an
 * `"own"` child's whole process group (never its bare pid: the leader may already be reaped), an
 * `"ours"` child by pid through its handle (only while its status is uncollected). For `main.ts`,
 * right before it exits on a second signal.
 *
 * @returns how many children were signalled
 */
export function killAllChildren(): number {
  let killed = 0;
  for (const [pid, child] of live) {
    if (child.group === "own") killGroupOnly(pid);
    else child.kill();
    killed++;
  }
  return killed;
}

/**
 * Kill (SIGKILL) a running `"own"` child's process group, or the bare pid when the group is gone.
 *
 * @param pid an `"own"` child's pid (= its process group id); a vanished one is ignored
 */
export function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL"); // the child leads its own process group (detached)
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Kill (SIGKILL) what is left of a group whose leader may already be reaped: never the bare pid
 * (it may belong to another process by now).
 *
 * @param pgid the process group id; an empty group is ignored
 */
export function killGroupOnly(pgid: number): void {
  try {
    Deno.kill(-pgid, "SIGKILL");
  } catch {
    // the group is empty
  }
}
