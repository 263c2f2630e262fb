/**
 * The per-session lock of the Stop gate (docs/design.md "Turn gate"): stops of one Claude session
 * are serialised by an exclusive lock on `sessions/<id>.lock` in the state dir (lib/store/lock.ts),
 * taken with a bounded wait so a stop never outlives its hook deadline waiting for another.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { lockFile } from "./lock.ts";
import { sessionFileName } from "./sessions.ts";

/**
 * Take the session's lock file (`sessions/<id>.lock`, created `0600` with its folder `0700`),
 * waiting at most `waitMs` ms and not past `signal`. The pending lock call cannot be cancelled:
 * after a timeout the file is closed when that call returns (the hook process exits before that).
 *
 * @param state the state dir (lib/store/state.ts)
 * @param options `sessionId` untrusted id from hook stdin; `waitMs` the longest wait in ms;
 *   `signal` stops the wait at once
 * @returns the release function, or `null` when another stop of the session kept it that long (or
 *   the wait was aborted)
 * @throws {Deno.errors.PermissionDenied} and other file errors when the lock file cannot be opened
 */
export async function lockSession(
  state: string,
  options: { sessionId: string; waitMs: number; signal?: AbortSignal },
): Promise<(() => void) | null> {
  const dir = join(state, "sessions");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = (await sessionFileName(options.sessionId)).replace(/\.json$/, ".lock");
  const lock = await lockFile(join(dir, name), {
    timeoutMs: options.waitMs,
    signal: options.signal,
  });
  return lock ? lock.release : null;
}
