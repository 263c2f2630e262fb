/**
 * The registry of live children and the killing of their process groups. `runProcess`
 * (lib/exec/exec.ts) starts every child detached (it leads its own process group), records it here
 * while it runs and kills its group on a timeout or abort; `main.ts` kills every group still alive
 * before it exits on a second Ctrl-C ({@linkcode killAllChildren}): the terminal's Ctrl-C never
 * reaches them.
 *
 * @module
 */

/** Process ids (= process group ids, children are detached) of every child now running. */
const live = new Set<number>();

/** Told when `runProcess` starts a child and when it returns from one. */
export type ChildWatcher = (event: "start" | "end", pid: number) => void;
const watchers = new Set<ChildWatcher>();

function tell(event: "start" | "end", pid: number): void {
  for (const watcher of watchers) {
    try {
      watcher(event, pid);
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
 * @param pid the child's pid, which is also its process group id (it runs detached)
 */
export function trackChild(pid: number): void {
  live.add(pid);
  tell("start", pid);
}

/**
 * Forget a child `runProcess` is returning from.
 *
 * @param pid the pid given to {@linkcode trackChild}
 */
export function untrackChild(pid: number): void {
  live.delete(pid);
  tell("end", pid);
}

/**
 * Process group ids of the children `runProcess` has started and not yet returned from
 * (for `main.ts` and tests).
 *
 * @returns pids, which are also the children's process group ids
 */
export function liveChildren(): number[] {
  return [...live];
}

/**
 * Kill (SIGKILL) the process group of every child `runProcess` started and has not yet
 * returned from, synchronously. For `main.ts`, right before it exits on a second signal: children
 * are detached into their own groups, so the terminal's Ctrl-C never reaches them.
 *
 * @returns how many groups were signalled
 */
export function killAllChildren(): number {
  let killed = 0;
  for (const pid of live) {
    killGroupOnly(pid); // the group, never a bare pid: a leader may already be reaped
    killed++;
  }
  return killed;
}

/**
 * Kill (SIGKILL) a running child's process group, or the bare pid when the group is gone.
 *
 * @param pid a detached child's pid (= its process group id); a vanished one is ignored
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
