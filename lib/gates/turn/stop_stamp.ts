/**
 * The stop stamp's text (docs/design.md "Turn gate"; stored by lib/store/stop_stamps.ts): what
 * the installed Stop hook script `hooks/turn-stop.sh` needs to prove, without starting review-gate,
 * that a turn changed nothing — the anchored repository's root and git dir, the session's state
 * file (a stop without one is not a clean turn), the blob id of the index bytes the baseline was
 * recorded from, the baseline tree, the blob id of the ignored-entries listing
 * (lib/gates/turn/ignored.ts: a turn that hides files behind a `.gitignore` it writes leaves the
 * tree as it was, but not the listing), the blob id of the refs listing (lib/gates/turn/refs.ts
 * `SHOW_REF_ARGS`: a turn that commits and then restores the worktree moves a ref), and per guarded file (lib/gates/turn/guard_files.ts) the blob
 * id of its whole content or `-` when it is absent. The script records the worktree again from a
 * copy of the index exactly as lib/git/live_tree.ts does and allows only when every line matches;
 * it is stricter than the stop itself (any byte of a guarded file, any change of the index), so
 * what it allows the stop would allow. The stamp is tagged with the user's key
 * (lib/store/stop_stamps.ts), and the script allows only on a stamp whose tag it recomputes. Format,
 * one item a line:
 *
 * ```
 * review-gate stop stamp 4
 * <tag: lib/store/stop_stamps.ts adds it when it writes the stamp>
 * <root>
 * <git dir>
 * <session state file>
 * <index blob id>
 * <baseline tree id>
 * <ignored-entries listing blob id>
 * <refs listing blob id>
 * <blob id or -> <guarded file path>   (one line per guarded file)
 * ```
 *
 * @module
 */
import { fileBlobId } from "../../git/blob_id.ts";
import type { Repo } from "../../git/repo.ts";

/** First line of a stamp; the script refuses any other. */
export const STOP_STAMP_HEADER = "review-gate stop stamp 4";

/** A guarded file's blob id (`null`: absent or unreadable). */
export interface GuardedBlob {
  path: string;
  id: string | null;
}

/**
 * The blob ids of the guarded files, in order.
 *
 * @param paths absolute paths
 * @param format the repository's object format (the script hashes with git in that repository)
 */
export function guardedBlobs(
  paths: readonly string[],
  format: Repo["objectFormat"],
): Promise<GuardedBlob[]> {
  return Promise.all(paths.map(async (path) => ({ path, id: await fileBlobId(path, format) })));
}

/**
 * The stamp text, or `null` when the script could not read it back plainly (a path with a line
 * break or surrounding white space).
 *
 * @param at the repository, the session state file, the index blob id and tree the baseline came
 *   from, the blob ids of the ignored-entries listing and of the refs listing, the guarded files'
 *   blobs
 */
export function stopStampText(at: {
  repo: Repo;
  sessionFile: string;
  indexId: string;
  tree: string;
  ignoredId: string;
  refsId: string;
  guard: readonly GuardedBlob[];
}): string | null {
  const paths = [at.repo.root, at.repo.gitDir, at.sessionFile, ...at.guard.map((g) => g.path)];
  if (paths.some((p) => /[\r\n]/.test(p) || p.trim() !== p || p === "")) return null;
  return [
    STOP_STAMP_HEADER,
    at.repo.root,
    at.repo.gitDir,
    at.sessionFile,
    at.indexId,
    at.tree,
    at.ignoredId,
    at.refsId,
    ...at.guard.map((g) => `${g.id ?? "-"} ${g.path}`),
    "",
  ].join("\n");
}
