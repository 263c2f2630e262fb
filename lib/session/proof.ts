/**
 * The read-only proof of a review (DESIGN.md "One structured call"), in one place: the
 * repository's snapshot (HEAD, index, worktree, git dir: lib/git/snapshot.ts), the private copy
 * the provider ran in (lib/session/workspace.ts; any change there means a tool wrote although the
 * sandbox should have refused), and the files outside the repository a reviewer could use to
 * persist (lib/session/outside.ts). Taken before the provider starts and again after; any
 * difference fails the review as `provider-error` and is named: repository paths as git names
 * them, `reviewed copy/<path>`, and `~/.gitconfig`-style labels outside. Nothing is reverted.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import { compareSnapshots, type Snapshot, takeSnapshot } from "../git/snapshot.ts";
import { fingerprintDir } from "./fingerprint.ts";
import { fingerprintOutside } from "./outside.ts";
import type { ReadOnlyProof } from "./types.ts";
import type { ReviewWorkspace } from "./workspace.ts";

/** Label of the private copy's entries in a violation. */
export const COPY_LABEL = "reviewed copy";

/** What the proof fingerprints. Plain data. */
export interface ReviewSnapshot {
  repo: Snapshot;
  /** The private copy, by relative path (absent without a workspace). */
  copy?: Record<string, string>;
  /** Watched files outside the repository, by label. */
  outside: Record<string, string>;
}

/**
 * The proof for a review of `repo`, run in `workspace` (when given), by a process whose
 * environment is `env` (it says where HOME and the CLIs' config dirs are).
 *
 * @param runner the subprocess seam (git)
 * @param at the repository, the parent environment, the workspace, and the files other
 *   review-gate runs' outputs wrote in the repository (repo-relative path → disk signature; a
 *   file with exactly those bytes is not counted as the provider's write)
 * @returns `take` (one git call, `status`, plus one per changed submodule; the ref files, a few
 *   dozen `lstat`s and one per file of the copy) and `compare`
 */
export function reviewProof(
  runner: Runner,
  at: {
    repo: Repo;
    env: Record<string, string | undefined>;
    workspace?: ReviewWorkspace;
    ownOutputs?: () => Promise<Record<string, string>>;
  },
): ReadOnlyProof<ReviewSnapshot> {
  return {
    take: async () => {
      const [repo, copy, outside, own] = await Promise.all([
        takeSnapshot(runner, at.repo),
        at.workspace ? fingerprintDir(at.workspace.tree, COPY_LABEL) : undefined,
        fingerprintOutside(at.env),
        at.ownOutputs?.().catch(() => ({})),
      ]);
      if (own) dropOwnOutputs(repo, own);
      return copy ? { repo, copy, outside } : { repo, outside };
    },
    compare: (before, after) => [
      ...compareSnapshots(before.repo, after.repo),
      ...differingKeys(before.copy ?? {}, after.copy ?? {}),
      ...differingKeys(before.outside, after.outside),
    ],
  };
}

/**
 * Leave out of a snapshot the files whose bytes are exactly what another review-gate run's
 * `--output` wrote (lib/store/output_writes.ts): theirs, not the provider's. Any other change to
 * such a file keeps it in, so it is still named.
 */
function dropOwnOutputs(snapshot: Snapshot, own: Record<string, string>): void {
  for (const [path, entry] of Object.entries(snapshot.files)) {
    const signature = entry.slice(entry.lastIndexOf(" | ") + 3);
    if (own[path] !== undefined && own[path] === signature) delete snapshot.files[path];
  }
}

function differingKeys(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].sort().filter((key) => a[key] !== b[key]);
}
