/**
 * A one-shot timer that loads no Node compatibility. Deno's global `setTimeout` is node:timers'
 * (the first call loads the Node compatibility layer, ~10 ms: docs/design.md "Performance notes"),
 * while `AbortSignal.timeout` runs on Deno's own web timers. Such a timer does not keep the process
 * alive, so it is for waits that something else keeps alive: a running child's exit status, a
 * pipe being read (lib/exec/exec.ts).
 *
 * @module
 */

/** A timer of {@linkcode startTimer}. */
export interface Timer {
  /** Never fire (idempotent; a timer that fired already stays fired). */
  clear(): void;
}

/**
 * Call `fire` once, `ms` milliseconds from now, unless cleared first.
 *
 * @param ms delay in milliseconds (0 or more)
 * @param fire what to call; what it throws is reported as an uncaught error, like a timer's
 */
export function startTimer(ms: number, fire: () => void): Timer {
  const signal = AbortSignal.timeout(ms);
  let cleared = false;
  signal.addEventListener("abort", () => {
    if (!cleared) fire();
  }, { once: true });
  return {
    clear: () => {
      cleared = true;
    },
  };
}
