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
 * review-gate holds (Deno opens it close-on-exec: no later child inherits it). It is started
 * *before* the child, and is told the child's pid (= its process group id) right after the spawn,
 * so review-gate cannot die between the two unwatched for longer than one pipe write. When the
 * call ends, review-gate writes `done` and the watchdog exits. When review-gate dies, the kernel
 * closes that write end: the watchdog reads EOF without `done`, sends SIGTERM to the child's
 * process group, waits {@linkcode WATCHDOG_GRACE_SECONDS}, then SIGKILLs what is left of it.
 *
 * Cost: one extra `sh` per `"own"` call (a provider call), none for git (`"ours"`: short and
 * trusted). Its spawn is a fork of review-gate (a new session needs `setsid`, which rules out
 * `posix_spawn`): measured 5–13 ms on a loaded 2-core Linux machine with a 200,000-object heap,
 * against a provider call that lasts seconds; the release is one pipe write and the `sh` exiting
 * (waited for at most {@linkcode RELEASE_WAIT_MS}).
 *
 * The group it signals is the child's pid. It signals only once review-gate is gone, and a pid
 * that still leads a live group is never handed to a new process, so what it hits is what is left
 * of the provider's group; the one window is a review-gate killed after it reaped a provider whose
 * whole group had ended but before it wrote `done` — the watchdog then finds no such group, unless
 * the pid was reused and became a group leader within that moment.
 *
 * @module
 */
import { startTimer, type Timer } from "./timer.ts";

/** Seconds between the watchdog's SIGTERM and its SIGKILL of an orphaned child's group. */
export const WATCHDOG_GRACE_SECONDS = 2;

/**
 * How long, in milliseconds, a release waits for the watchdog to exit before it SIGKILLs it (a
 * stopped or starved watchdog never holds up the answer).
 */
export const RELEASE_WAIT_MS = 1000;

/**
 * The watchdog's program (POSIX sh; `kill` and `read` are builtins, `sleep` takes whole seconds).
 * The first line it reads is the process group id (anything else — EOF, a word that is not a
 * number, 0, or 1, which `kill -- -1` would read as "every process" — and it exits: there is
 * nothing to watch); the second must be `done`. `$1` is the grace in seconds. One line, so `ps`
 * shows it on one.
 */
export const WATCHDOG_SCRIPT = [
  "read -r pgid || exit 0",
  'case "$pgid" in "" | 0* | 1 | *[!0-9]*) exit 0 ;; esac',
  "read -r word",
  '[ "$word" = done ] && exit 0',
  'kill -s TERM -- "-$pgid" 2>/dev/null || exit 0',
  'sleep "$1"',
  'kill -s KILL -- "-$pgid" 2>/dev/null',
  "exit 0",
].join("; ");

/** The name the watchdog runs under (its `$0`: `ps` shows it after the script). */
export const WATCHDOG_NAME = "review-gate-watchdog";

/** A running watchdog. */
export interface Watchdog {
  /** The watchdog's pid (for tests), or undefined when none could be started. */
  readonly pid: number | undefined;
  /**
   * Watch the process group `pgid` (an `"own"` child's pid, just spawned). Synchronous: the pid is
   * queued on the pipe at once. Call it once.
   */
  watch(pgid: number): void;
  /**
   * The call is over (or its child never started): tell the watchdog to exit without signalling
   * anyone, and wait until it has — at most {@linkcode RELEASE_WAIT_MS}, then it is SIGKILLed.
   * Never throws (a watchdog that died already is fine); a second call returns the first's promise.
   */
  release(): Promise<void>;
}

const NONE: Watchdog = { pid: undefined, watch: () => {}, release: () => Promise.resolve() };

/**
 * Start a watchdog; {@linkcode Watchdog.watch} gives it the group, {@linkcode Watchdog.release}
 * ends it.
 *
 * Best effort: when `/bin/sh` cannot be started the call goes on without one (a provider then
 * outlives a SIGKILL of review-gate, as it did before) — there is nothing the gate could answer
 * differently.
 *
 * @param graceSeconds whole seconds between SIGTERM and SIGKILL (default
 *   {@linkcode WATCHDOG_GRACE_SECONDS})
 * @returns the watchdog
 */
export function startWatchdog(graceSeconds = WATCHDOG_GRACE_SECONDS): Watchdog {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("/bin/sh", {
      args: ["-c", WATCHDOG_SCRIPT, WATCHDOG_NAME, String(graceSeconds)],
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
  const send = (line: string) =>
    writer.write(new TextEncoder().encode(`${line}\n`)).catch(() => {}); // gone already: fine
  let released: Promise<void> | undefined;
  return {
    pid: child.pid,
    watch: (pgid) => void send(String(pgid)),
    release: () => released ??= releaseWatchdog(child, send, writer),
  };
}

async function releaseWatchdog(
  child: Deno.ChildProcess,
  send: (line: string) => Promise<void>,
  writer: WritableStreamDefaultWriter<Uint8Array>,
): Promise<void> {
  await send("done");
  await writer.close().catch(() => {});
  let timer: Timer | undefined;
  // a web timer (lib/exec/timer.ts): the watchdog's pending status keeps the process alive
  const late = new Promise<"late">((resolve) =>
    timer = startTimer(RELEASE_WAIT_MS, () => resolve("late"))
  );
  const outcome = await Promise.race([child.status.catch(() => null), late]);
  timer?.clear();
  if (outcome === "late") {
    try {
      child.kill("SIGKILL"); // our child, status not yet collected: the pid is still its own
    } catch {
      // exited meanwhile
    }
    await child.status.catch(() => {});
  }
}
