/**
 * A bounded-wait exclusive file lock, shared by the records log (lib/store/records.ts), the
 * Stop gate's per-session lock (lib/store/session_lock.ts) and a run's folder (lib/store/run_dir.ts);
 * and the lock that does not wait ({@linkcode tryLockFile}), with which `prune` passes over what a
 * writer holds. The lock is `flock` via
 * `Deno.FsFile.lock(true)` on the file itself — released by the kernel when the holder dies, so
 * there is no stale-lock takeover to get wrong (verified on Deno 2.9.6 across processes). The wait
 * is bounded by a timeout and an abort signal, so a holder that never lets go costs a skipped step,
 * never a hang.
 *
 * @module
 */
import { startTimer, type Timer } from "../exec/timer.ts";

/** Options of {@linkcode lockFile}. */
export interface LockOptions {
  /** Longest wait for the lock, milliseconds (negative counts as 0). */
  timeoutMs: number;
  /** Stop waiting at once (Ctrl-C, a hook deadline). */
  signal?: AbortSignal;
}

/** A held lock: the open file (append mode) and how to let it go. */
export interface HeldLock {
  /** The locked file, opened for appending. */
  file: Deno.FsFile;
  /** Release the lock and close the file; safe to call twice. */
  release: () => void;
}

/**
 * Open (creating it `0600`) and exclusively lock the file at `path`, waiting at most `timeoutMs`
 * and not past `signal`. The pending `flock` cannot be cancelled (it blocks in a worker thread):
 * after a timeout or an abort the file is closed only when that abandoned wait ends, which releases
 * whatever lock it got, so later locks in the same process are not blocked.
 *
 * @param path the lock file (its directory must exist)
 * @param options timeout (ms) and abort signal
 * @returns the held lock, or `null` when the wait timed out or was aborted
 * @throws Deno.errors when the file cannot be opened or locked (the file is closed first)
 */
export async function lockFile(path: string, options: LockOptions): Promise<HeldLock | null> {
  const file = await Deno.open(path, { create: true, append: true, mode: 0o600 });
  let closed = false;
  const release = () => {
    if (closed) return;
    closed = true;
    try {
      file.close(); // closing the file releases the lock
    } catch {
      // already closed
    }
  };
  const locking = file.lock(true).then(() => true as const);
  let got: boolean;
  try {
    got = await raceLock(locking, options.timeoutMs, options.signal);
  } catch (error) {
    release();
    throw error;
  }
  if (got) return { file, release };
  // close only when the abandoned wait ends (closing now would leave the lock it gets held)
  locking.then(release, release);
  return null;
}

/** True when `locking` got the lock before `timeoutMs` passed and before `signal` aborted. */
async function raceLock(
  locking: Promise<true>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (signal?.aborted) return false;
  let timer: Timer | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<false>((resolve) => {
    // a web timer (lib/exec/timer.ts): the pending lock call keeps the process alive meanwhile
    timer = startTimer(Math.max(0, timeoutMs), () => resolve(false));
    onAbort = () => resolve(false);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([locking, stop]);
  } finally {
    timer?.clear();
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Open and exclusively lock the file at `path` only when no one holds it now: `prune` takes the
 * lock its writers take, and leaves alone what is in use.
 *
 * @param path the lock file (its directory must exist)
 * @param options `create` (default true): create a missing file (`0600`); without it a missing
 *   file is no one's lock, and nothing is created (a dry run writes nothing)
 * @returns the held lock (a missing file's, without `create`: nothing to let go), or `null` when
 *   another holder has it
 * @throws Deno.errors when the file cannot be opened or locked (the file is closed first)
 */
export async function tryLockFile(
  path: string,
  options: { create?: boolean } = {},
): Promise<{ release: () => void } | null> {
  const create = options.create ?? true;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { create, append: true, mode: 0o600 });
  } catch (error) {
    if (!create && error instanceof Deno.errors.NotFound) return { release: () => {} };
    throw error;
  }
  let closed = false;
  const release = () => {
    if (closed) return;
    closed = true;
    try {
      file.close();
    } catch {
      // already closed
    }
  };
  try {
    if (!await file.tryLock(true)) {
      release();
      return null;
    }
  } catch (error) {
    release();
    throw error;
  }
  return { release };
}
