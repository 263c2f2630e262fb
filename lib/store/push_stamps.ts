/**
 * Push stamps: the answer of a pre-push run that let a push through on cached verdicts alone,
 * written for the installed pre-push hook (`hooks/pre-push-fast.sh`) to replay without starting
 * review-gate while every input of that push is unchanged. The hook names the file
 * (`cache/push/<key>.pending.<pid>` in the state dir, passed as `REVIEW_GATE_PUSH_STAMP`; `<key>`
 * is git's hash of the user's key and the push's inputs, so no one without the key can name the
 * stamp of a push) and, when its inputs held still while review-gate ran, checks the pending
 * stamp's tag, then seals it — its own tag over the key, the name, the files' blob ids and the
 * rest — and renames it into place. The tags are lib/store/sealed.ts `gitTag` (the script computes
 * them with `git hash-object`), made with the user's key (lib/store/state_key.ts): a stamp the
 * agent writes, edits, or copies from another push, repository or key does not verify, and the
 * hook runs review-gate. The files live under `cache/`, so deleting the verdict cache forgets them
 * too. Format of what is written here:
 *
 * ```
 * <tag of "review-gate push pending 2\n<key>\n<git's ref lines>\n" and the lines below, trailing
 *  newlines dropped: it names the push it answers>
 * review-gate push stamp 2
 * <unix seconds the answer holds until, or ->
 * <the hook's stderr text>
 * ```
 *
 * @module
 */
import { basename, dirname, join } from "../base/path.ts";
import { stateDir } from "./state.ts";
import { writeStoreFile } from "./_write.ts";
import { gitTag } from "./sealed.ts";
import { loadStateKey } from "./state_key.ts";

/** Second line of a push stamp: the hook replays it only before this time. */
export const PUSH_STAMP_HEADER = "review-gate push stamp 2";

const PENDING = /^([0-9a-f]{40}(?:[0-9a-f]{24})?)\.pending\.\d+$/;

/**
 * Write the pending push stamp the hook asked for.
 *
 * @param commonDir the repository's common git dir (the stamp must be in its state dir's
 *   `cache/push/`, or nothing is written)
 * @param stamp `path` from `REVIEW_GATE_PUSH_STAMP`, the answer's stderr `text`, `until` (unix
 *   seconds) when an acknowledgement expires, the repository's object `format` (the hook's git
 *   hashes with it), the `env` that says where the user's key is, and git's ref `lines` the hook
 *   passed on stdin (the tag names them: the answer of one push cannot be sealed for another)
 * @returns true when written (false: not a pending stamp path, or no key to trust)
 * @throws Deno.errors from the file system
 */
export async function writePushStamp(
  commonDir: string,
  stamp: {
    path: string;
    text: string;
    until: number | null;
    format: "sha1" | "sha256";
    env: Record<string, string | undefined>;
    lines: string;
  },
): Promise<boolean> {
  const dir = join(stateDir(commonDir), "cache", "push");
  const name = PENDING.exec(basename(stamp.path));
  if (dirname(stamp.path) !== dir || !name) return false;
  const key = await loadStateKey(stamp.env, { create: true });
  if (!key.ok) return false;
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const until = stamp.until === null ? "-" : String(Math.floor(stamp.until));
  const rest = `${PUSH_STAMP_HEADER}\n${until}\n${stamp.text}`;
  const tag = await gitTag(
    key.secret,
    `review-gate push pending 2\n${name[1]}\n${stamp.lines.replace(/\n+$/, "")}\n${
      rest.replace(/\n+$/, "")
    }\n`,
    stamp.format,
  );
  await writeStoreFile(stamp.path, `${tag}\n${rest}`);
  return true;
}
