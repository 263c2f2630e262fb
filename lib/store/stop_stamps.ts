/**
 * Stop stamps: what the turn's start recorded, written where the installed Stop hook script
 * (`hooks/turn-stop.sh`) can check it without starting review-gate — beside the session's anchor
 * (lib/store/anchors.ts), as `<session id>.stop`, mode `0600`. Only a session id that is a plain
 * token gets one (the script finds it by name). The text is made by lib/gates/turn/stop_stamp.ts;
 * this module places, tags, writes and removes it. The tag, on the line after the header, is
 * lib/store/sealed.ts `gitTag` (git's blob id of the user's key, a newline, and the text tagged)
 * over the header, the session id and every line after the tag, which the script recomputes with
 * the one `git hash-object` it runs anyway; so a stamp the agent writes, edits, or copies from
 * another session or another user's key does not verify and the script starts review-gate. A
 * missing stamp costs one Deno start, never a wrong answer, so removal failures are ignored.
 *
 * A Stop the script answered by itself ends the turn as one review-gate answered does: the script
 * copies the stamp it allowed on to `<session id>.stopped` (its text and tag unchanged), which a
 * push reads ({@linkcode readStopMark}) to know the turn is no longer open
 * (lib/gates/pre_push/open_turns.ts). The next prompt removes both, as does a Stop review-gate runs
 * on a changed turn.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { anchorsDir } from "./anchors.ts";
import { writeStoreFile } from "./_write.ts";
import { gitTag } from "./sealed.ts";
import { loadStateKey } from "./state_key.ts";

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

/**
 * Remove a session's stop stamp and the mark of a Stop the script answered on it, if any (errors
 * ignored: the stamp then stays unreadable-safe).
 */
export async function removeStopStamp(
  env: Record<string, string | undefined>,
  sessionId: string,
): Promise<void> {
  const path = stopStampPath(env, sessionId);
  if (!path) return;
  await Promise.all([
    Deno.remove(path).catch(() => {}),
    Deno.remove(markPath(path)).catch(() => {}),
  ]);
}

/** The mark `hooks/turn-stop.sh` leaves when it answered a Stop on the stamp at `stamp`. */
function markPath(stamp: string): string {
  return `${stamp.slice(0, -".stop".length)}.stopped`;
}

/**
 * The stamp the installed Stop script answered a Stop on (copied to `<session id>.stopped`), when
 * its tag verifies under the user's key for this session.
 *
 * @param env for {@linkcode anchorsDir} and the key
 * @param sessionId the session id (a plain token; any other has no stamp)
 * @param format the repository's object format (the tag is a blob id in it)
 * @returns the stamp's lines after the tag (root, git dir, session state file, index blob id,
 *   baseline tree, …: lib/gates/turn/stop_stamp.ts), or `null` when there is none, no key, or it
 *   does not verify
 */
export async function readStopMark(
  env: Record<string, string | undefined>,
  sessionId: string,
  format: "sha1" | "sha256",
): Promise<string[] | null> {
  const path = stopStampPath(env, sessionId);
  if (!path) return null;
  const text = await Deno.readTextFile(markPath(path)).catch(() => null);
  if (text === null) return null;
  const key = await loadStateKey(env, { create: false });
  if (!key.ok) return null;
  const lines = text.split("\n");
  const [header, tag] = lines;
  if (header === undefined || tag === undefined || !text.endsWith("\n")) return null;
  const rest = lines.slice(2).join("\n");
  if (tag !== await gitTag(key.secret, `${header}\n${sessionId}\n${rest}`, format)) return null;
  return lines.slice(2, -1);
}

/**
 * Write a session's stop stamp atomically, its tag added as the second line (the anchors folder
 * exists: the anchor was written). Nothing is written when there is no key to trust.
 *
 * @param env for {@linkcode anchorsDir} and the key (lib/store/state_key.ts)
 * @param sessionId the untrusted session id
 * @param stamp the stamp's `text` (header line first, final newline) and the repository's object
 *   `format` (the script's `git hash-object` hashes with it)
 * @throws Deno.errors from the file system
 */
export async function writeStopStamp(
  env: Record<string, string | undefined>,
  sessionId: string,
  stamp: { text: string; format: "sha1" | "sha256" },
): Promise<void> {
  const path = stopStampPath(env, sessionId);
  if (!path) return;
  const key = await loadStateKey(env, { create: true });
  if (!key.ok) return; // the script then finds no key (or no stamp) and starts review-gate
  const cut = stamp.text.indexOf("\n");
  const header = stamp.text.slice(0, cut);
  const rest = stamp.text.slice(cut + 1);
  const tag = await gitTag(key.secret, `${header}\n${sessionId}\n${rest}`, stamp.format);
  await writeStoreFile(path, `${header}\n${tag}\n${rest}`);
}
