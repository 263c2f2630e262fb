/**
 * The watchdog that ends a provider when review-gate is gone. A provider CLI runs in its own
 * session and process group (lib/exec/children.ts), out of reach of whatever kills review-gate:
 * a host that SIGKILLs a hook, `kill -9`, an out-of-memory kill. Nothing of review-gate runs after
 * a SIGKILL, so the provider — and everything it started — would run on, unseen, with the change
 * in its prompt.
 *
 * Each `"own"` child gets a small POSIX `sh` (no Linux-only mechanism such as `prctl`
 * `PR_SET_PDEATHSIG`: macOS has none of those), started in a session of its own so no signal sent
 * to review-gate's group or terminal reaches it. Its stdin is a pipe whose only write end
 * review-gate holds. When the call ends, review-gate writes `done` and the watchdog exits. When
 * review-gate dies, the kernel closes that write end: the watchdog reads EOF without `done`, sends
 * SIGTERM to the child's process group, waits {@linkcode WATCHDOG_GRACE_SECONDS}, then SIGKILLs
 * what is left of it.
 *
 * Cost: one extra `sh` per `"own"` call (a provider call), none for git (`"ours"`: short and
 * trusted). Its spawn is a fork of review-gate (a new session needs `setsid`, which rules out
 * `posix_spawn`): measured 5–13 ms on a loaded 2-core Linux machine with a 200,000-object heap,
 * against a provider call that lasts seconds; the release is one pipe write and the `sh` exiting.
 *
 * The group it signals is the child's pid. It signals only once review-gate is gone, and a pid
 * that still leads a live group is never handed to a new process, so what it hits is what is left
 * of the provider's group; the one window is a review-gate killed after it reaped a provider whose
 * whole group had ended but before it wrote `done` — the watchdog then finds no such group, unless
 * the pid was reused and became a group leader within that moment.
 *
 * @module
 */

/** Seconds between the watchdog's SIGTERM and its SIGKILL of an orphaned child's group. */
export const WATCHDOG_GRACE_SECONDS = 2;

/**
 * The watchdog's program (POSIX sh; `kill` and `read` are builtins, `sleep` takes whole seconds).
 * `$1` is the process group id, `$2` the grace in seconds. One line, so `ps` shows it on one.
 */
export const WATCHDOG_SCRIPT = [
  "read -r word",
  '[ "$word" = done ] && exit 0',
  'kill -s TERM -- "-$1" 2>/dev/null || exit 0',
  'sleep "$2"',
  'kill -s KILL -- "-$1" 2>/dev/null',
  "exit 0",
].join("; ");

/** A running watchdog. */
export interface Watchdog {
  /** The watchdog's pid (for tests), or undefined when none could be started. */
  readonly pid: number | undefined;
  /**
   * The call is over: tell the watchdog to exit without signalling anyone, and wait until it has.
   * Never throws (a watchdog that died already is fine).
   */
  release(): Promise<void>;
}

const NONE: Watchdog = { pid: undefined, release: () => Promise.resolve() };

/**
 * Start a watchdog over the process group `pgid`.
 *
 * Best effort: when `/bin/sh` cannot be started the call goes on without one (a provider then
 * outlives a SIGKILL of review-gate, as it did before) — there is nothing the gate could answer
 * differently.
 *
 * @param pgid the process group to end when review-gate is gone (an `"own"` child's pid)
 * @param graceSeconds whole seconds between SIGTERM and SIGKILL (default
 *   {@linkcode WATCHDOG_GRACE_SECONDS})
 * @returns the watchdog; {@linkcode Watchdog.release} it when the call is over
 */
export function startWatchdog(pgid: number, graceSeconds = WATCHDOG_GRACE_SECONDS): Watchdog {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("/bin/sh", {
      args: ["-c", WATCHDOG_SCRIPT, "review-gate-watchdog", String(pgid), String(graceSeconds)],
      cwd: "/",
      env: { PATH: "/usr/bin:/bin" },
      clearEnv: true,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
      detached: true, // its own session: a kill of review-gate's group or terminal misses it
    }).spawn();
  } catch {
    return NONE;
  }
  const writer = child.stdin.getWriter();
  let released: Promise<void> | undefined;
  return {
    pid: child.pid,
    release: () =>
      released ??= (async () => {
        try {
          await writer.write(new TextEncoder().encode("done\n"));
          await writer.close();
        } catch {
          // the watchdog is gone already
        }
        await child.status.catch(() => {});
      })(),
  };
}
