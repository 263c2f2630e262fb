/**
 * Leaving a push stamp (lib/store/push_stamps.ts) for the installed pre-push hook: when the hook
 * asked for one (`REVIEW_GATE_PUSH_STAMP`) and the push went ahead with every reviewed update's
 * verdict taken from the verdict memo (no review ran, nothing blocked, no ref line ignored, none
 * past the per-push bound), the answer is written with the time it holds until — the end of the
 * earliest `expires` day of an acknowledgement that holds now, since an expired one can make a
 * cached finding block. The hook replays it only while every input it hashed is unchanged.
 *
 * @module
 */
import type { HookOutput } from "../hook_io.ts";
import { writePushStamp } from "../../store/push_stamps.ts";
import type { CacheContext } from "./cached.ts";

const DAY_SECONDS = 24 * 3600;

/**
 * Write the pending push stamp for an allowed push (best effort: a failure only costs the next push
 * a start of review-gate).
 *
 * @param at the repository's common dir and object format, the environment (where the user's key
 *   is), git's ref lines as the hook passed them, the push's cache context (when an update was looked up), the hook's output, and the stamp
 *   path the hook passed
 */
export async function stampPush(at: {
  commonDir: string;
  format: "sha1" | "sha256";
  env: Record<string, string | undefined>;
  lines: string;
  cacheContext?: Promise<CacheContext>;
  output: HookOutput;
  path: string;
}): Promise<void> {
  if (at.output.exitCode !== 0) return;
  try {
    const acks = at.cacheContext ? (await at.cacheContext).acks : [];
    const ends = acks.flatMap((a) =>
      a.expires ? [Date.parse(`${a.expires}T00:00:00Z`) / 1000 + DAY_SECONDS] : []
    );
    await writePushStamp(at.commonDir, {
      format: at.format,
      env: at.env,
      lines: at.lines,
      path: at.path,
      text: at.output.stderr,
      until: ends.length > 0 ? Math.min(...ends) : null,
    });
  } catch {
    // no stamp: the next push starts review-gate
  }
}
