/**
 * Stop stamps: what the turn's start recorded, written where the installed Stop hook script
 * (`hooks/turn-stop.sh`) can check it without starting review-gate — beside the session's anchor
 * (lib/store/anchors.ts), as `<session id>.stop`, mode `0600`. Only a session id that is a plain
 * token gets one (the script finds it by name). The text is made by lib/gates/turn/stop_stamp.ts;
 * this module only places, writes and removes it. A missing stamp costs one Deno start, never a
 * wrong answer, so removal failures are ignored.
 *
 * @module
 */
import { join } from "node:path";
import { anchorsDir } from "./anchors.ts";
import { writeStoreFile } from "./_write.ts";

const PLAIN_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Where a session's stop stamp goes.
 *
 * @param env for {@linkcode anchorsDir}
 * @param sessionId the untrusted session id
 * @returns the path, or `null` when the id is not a plain token or no folder is known
 */
export function stopStampPath(
  env: Record<string, string | undefined>,
  sessionId: string,
): string | null {
  const dir = anchorsDir(env);
  return dir && PLAIN_ID.test(sessionId) ? join(dir, `${sessionId}.stop`) : null;
}

/** Remove a session's stop stamp, if any (errors ignored: the stamp then stays unreadable-safe). */
export async function removeStopStamp(
  env: Record<string, string | undefined>,
  sessionId: string,
): Promise<void> {
  const path = stopStampPath(env, sessionId);
  if (path) await Deno.remove(path).catch(() => {});
}

/**
 * Write a session's stop stamp atomically (the anchors folder exists: the anchor was written).
 *
 * @throws Deno.errors from the file system
 */
export async function writeStopStamp(
  env: Record<string, string | undefined>,
  sessionId: string,
  text: string,
): Promise<void> {
  const path = stopStampPath(env, sessionId);
  if (path) await writeStoreFile(path, text);
}
