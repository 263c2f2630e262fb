/**
 * Append-only line files of the store — the cost ledger `records.jsonl` (lib/store/records.ts) and
 * the background reviews' `work/turns.jsonl` (lib/store/work_ledger.ts) — written under one
 * exclusive lock, a `flock` on the file itself (lib/store/lock.ts): an append is one write under
 * the lock, and `prune` rewrites the file without its old lines under the same lock, as a new file
 * renamed over the old one (a crash leaves the old file or the new, never half of either). An
 * appender that got the lock of a file renamed away meanwhile (it opened the file before the
 * rewrite) sees that the path now names another file and appends to that one instead, so no line
 * goes to the file `prune` replaced.
 *
 * @module
 */
import { type HeldLock, lockFile, type LockOptions } from "./lock.ts";
import { writeStoreFile } from "./_write.ts";

/**
 * Lock the line file at `path` (creating it `0600`), as the file that is at `path` now: a lock
 * had on a file `prune` renamed away is let go and taken again on the new one.
 *
 * @param path the line file (its folder must exist)
 * @param options the longest wait in all (ms) and an abort signal
 * @returns the held lock on the file at `path`, or `null` when the wait timed out or was aborted
 * @throws Deno.errors when the file cannot be opened, locked or looked at
 */
export async function lockLineFile(path: string, options: LockOptions): Promise<HeldLock | null> {
  const deadline = Date.now() + Math.max(0, options.timeoutMs);
  for (;;) {
    const lock = await lockFile(path, {
      timeoutMs: deadline - Date.now(),
      signal: options.signal,
    });
    if (!lock) return null;
    if (await isFileAt(lock.file, path)) return lock;
    lock.release(); // replaced while we waited: lock the file that is there now
    if (Date.now() >= deadline) return null;
  }
}

/** Whether the open file is the one `path` names (same device and inode; true where unknown). */
async function isFileAt(file: Deno.FsFile, path: string): Promise<boolean> {
  const held = await file.stat();
  const named = await Deno.stat(path).catch(() => null);
  if (named === null) return false;
  if (held.ino === null || named.ino === null) return true; // no inodes: nothing replaces it
  return held.ino === named.ino && held.dev === named.dev;
}

/**
 * Append bytes to the line file at `path` in one locked write (see the module doc).
 *
 * @param path the line file (its folder must exist)
 * @param bytes whole lines, each ending in a newline
 * @param options the longest wait for the lock (ms) and an abort signal
 * @returns true when written, false when the lock was not had in time
 * @throws Deno.errors from the file system (open, lock, write)
 */
export async function appendLines(
  path: string,
  bytes: Uint8Array,
  options: LockOptions,
): Promise<boolean> {
  const lock = await lockLineFile(path, options);
  if (!lock) return false;
  try {
    let written = await lock.file.write(bytes);
    while (written < bytes.byteLength) written += await lock.file.write(bytes.subarray(written));
  } finally {
    lock.release();
  }
  return true;
}

/** What {@linkcode dropLines} did, or would do. */
export interface DroppedLines {
  /** Lines dropped. */
  lines: number;
  /** Their bytes, newlines included. */
  bytes: number;
  /** Lines kept. */
  kept: number;
}

/**
 * Drop the lines `drop` picks from the line file at `path`, under its lock: the kept lines, in their
 * order and byte for byte, go to a new file (mode `0600`) renamed over the old one. Nothing is
 * written when nothing is dropped, or with `dryRun`.
 *
 * @param path the line file (a missing one has nothing to drop)
 * @param drop true for a line to drop (given the line's text without its newline); a line it
 *   cannot judge it keeps
 * @param options the longest wait for the lock (ms), and `dryRun`: count only
 * @returns the counts, or `null` when the lock was not had in time (nothing changed)
 * @throws Deno.errors from the file system
 */
export async function dropLines(
  path: string,
  drop: (line: string) => boolean,
  options: { timeoutMs: number; dryRun?: boolean },
): Promise<DroppedLines | null> {
  if (await Deno.stat(path).catch(() => null) === null) return { lines: 0, bytes: 0, kept: 0 };
  const lock = await lockLineFile(path, { timeoutMs: options.timeoutMs });
  if (!lock) return null;
  try {
    const bytes = await Deno.readFile(path);
    const decoder = new TextDecoder();
    const kept: Uint8Array[] = [];
    let keptLines = 0;
    let dropped = 0;
    let droppedBytes = 0;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(0x0a, start);
      // text after the last newline is a line cut mid-write: kept as it is
      const end = newline === -1 ? bytes.length : newline + 1;
      const line = bytes.subarray(start, end);
      if (newline !== -1 && drop(decoder.decode(line.subarray(0, line.length - 1)))) {
        dropped++;
        droppedBytes += line.length;
      } else {
        kept.push(line);
        if (newline !== -1) keptLines++;
      }
      start = end;
    }
    const result = { lines: dropped, bytes: droppedBytes, kept: keptLines };
    if (dropped === 0 || options.dryRun) return result;
    const rest = new Uint8Array(bytes.length - droppedBytes);
    let at = 0;
    for (const part of kept) (rest.set(part, at), at += part.length);
    // the new file beside the old one, renamed over it while the old one's lock is held: an
    // appender waiting for that lock then finds the path names the new file (lockLineFile)
    await writeStoreFile(path, rest);
    return result;
  } finally {
    lock.release();
  }
}
