/**
 * The per-session lock of the Stop gate (DESIGN.md "Gates"): stops of one Claude session are
 * serialised by an exclusive `Deno.FsFile.lock` on `sessions/<id>.lock` in the state dir, taken with
 * a bounded wait so a stop never outlives its hook deadline waiting for another.
 *
 * @module
 */
import { join } from "node:path";
import { sessionFileName } from "../store/sessions.ts";

/**
 * Take the session's lock file (`sessions/<id>.lock`, exclusive `Deno.FsFile.lock`), waiting at
 * most `waitMs` ms. The pending lock call cannot be cancelled: after a timeout the file is closed
 * when that call returns (the hook process exits before that).
 *
 * @param state the state dir (lib/store/state.ts)
 * @param options `sessionId` untrusted id from hook stdin; `waitMs` the longest wait in ms
 * @returns the release function, or `null` when another stop of the session kept it that long
 * @throws {Deno.errors.PermissionDenied} and other file errors when the lock file cannot be opened
 */
export async function lockSession(
  state: string,
  options: { sessionId: string; waitMs: number },
): Promise<(() => void) | null> {
  const dir = join(state, "sessions");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = (await sessionFileName(options.sessionId)).replace(/\.json$/, ".lock");
  const file = await Deno.open(join(dir, name), { create: true, write: true, mode: 0o600 });
  const close = () => {
    try {
      file.close(); // closing the file releases the lock
    } catch { /* already closed */ }
  };
  const locked = file.lock(true).then(() => true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, options.waitMs));
  });
  try {
    if (await Promise.race([locked, timedOut])) return close;
  } catch (error) {
    close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  locked.then(close, close);
  return null;
}
