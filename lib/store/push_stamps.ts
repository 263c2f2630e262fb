/**
 * Push stamps: the answer of a pre-push run that let a push through on cached verdicts alone,
 * written for the installed pre-push hook (`hooks/pre-push-fast.sh`) to replay without starting
 * review-gate while every input of that push is unchanged. The hook names the file
 * (`cache/push/<key>.pending.<pid>` in the state dir, passed as `REVIEW_GATE_PUSH_STAMP`) and, when
 * its inputs held still while review-gate ran, renames it into place with its first line added;
 * the files live under `cache/`, so deleting the verdict cache forgets them too. Format of what is
 * written here:
 *
 * ```
 * review-gate push stamp 1
 * <unix seconds the answer holds until, or ->
 * <the hook's stderr text>
 * ```
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { stateDir } from "./state.ts";
import { writeStoreFile } from "./_write.ts";

/** Second line of a push stamp: the hook replays it only before this time. */
export const PUSH_STAMP_HEADER = "review-gate push stamp 1";

const PENDING = /^[0-9a-f]{40}(?:[0-9a-f]{24})?\.pending\.\d+$/;

/**
 * Write the pending push stamp the hook asked for.
 *
 * @param commonDir the repository's common git dir (the stamp must be in its state dir's
 *   `cache/push/`, or nothing is written)
 * @param stamp `path` from `REVIEW_GATE_PUSH_STAMP`, the answer's stderr `text`, and `until` (unix
 *   seconds) when an acknowledgement expires
 * @returns true when written
 * @throws Deno.errors from the file system
 */
export async function writePushStamp(
  commonDir: string,
  stamp: { path: string; text: string; until: number | null },
): Promise<boolean> {
  const dir = join(stateDir(commonDir), "cache", "push");
  if (dirname(stamp.path) !== dir || !PENDING.test(basename(stamp.path))) return false;
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const until = stamp.until === null ? "-" : String(Math.floor(stamp.until));
  await writeStoreFile(stamp.path, `${PUSH_STAMP_HEADER}\n${until}\n${stamp.text}`);
  return true;
}
