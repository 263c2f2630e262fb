/**
 * `records.jsonl`: one JSON line per finished review, appended under an exclusive lock
 * (DESIGN.md "Store (contract)"), a `flock` on the file itself (lib/store/lock.ts). Each line is written with one write call. The
 * wait for the lock is bounded (a holder that never lets go costs a skipped line and a warning,
 * never a hang).
 *
 * @module
 */
import { join } from "node:path";
import { lockFile } from "./lock.ts";

/**
 * Path of the records file in a state dir.
 *
 * @param state the state dir
 * @returns `<state>/records.jsonl`
 */
export function recordsPath(state: string): string {
  return join(state, "records.jsonl");
}

/** Default bound on waiting for the records lock, milliseconds. */
export const RECORDS_LOCK_TIMEOUT_MS = 5_000;

/** Options of {@linkcode appendRecord}. */
export interface AppendOptions {
  /** Longest wait for the lock, milliseconds; default {@linkcode RECORDS_LOCK_TIMEOUT_MS}. */
  lockTimeoutMs?: number;
  /** Stop waiting for the lock at once (Ctrl-C); the line is skipped. */
  signal?: AbortSignal;
}

/** What {@linkcode appendRecord} did: the line was written, or skipped with a warning to show. */
export type AppendResult = { written: true } | { written: false; warning: string };

/**
 * Append one record as a JSON line; concurrent appenders (threads or processes) never interleave.
 * The wait for the lock is bounded: after `lockTimeoutMs` (or on `signal`) the line is skipped and a
 * warning returned, so a process that holds the lock forever cannot hang a review or a push. The
 * abandoned wait cannot be cancelled (`flock` blocks in a worker thread); when it ends, the lock it
 * got is released and the file closed, so later appends in the same process are not blocked
 * ({@linkcode lockFile}).
 *
 * @param state the state dir (must exist)
 * @param line a JSON-serialisable object; serialised on one line
 * @param options lock timeout (ms), abort signal
 * @returns `{written: true}`, or `{written: false, warning}` when the lock was not had in time
 * @throws Deno.errors from the file system (open, lock, write)
 */
export async function appendRecord(
  state: string,
  line: object,
  options: AppendOptions = {},
): Promise<AppendResult> {
  const bytes = new TextEncoder().encode(JSON.stringify(line) + "\n");
  const path = recordsPath(state);
  const timeoutMs = options.lockTimeoutMs ?? RECORDS_LOCK_TIMEOUT_MS;
  const lock = await lockFile(path, { timeoutMs, signal: options.signal });
  if (!lock) {
    const why = options.signal?.aborted
      ? "interrupted while waiting for its lock"
      : `another process held its lock for more than ${Math.round(timeoutMs / 100) / 10} s`;
    return {
      written: false,
      warning:
        `Skipped the line of this run in "${path}": ${why}; the run folder keeps the full record (check for a stuck review-gate process)`,
    };
  }
  try {
    let written = await lock.file.write(bytes);
    while (written < bytes.byteLength) written += await lock.file.write(bytes.subarray(written));
  } finally {
    lock.release();
  }
  return { written: true };
}
