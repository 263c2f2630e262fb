/**
 * The read-only proof of a review (docs/design.md "Read-only proof"), in one place: the
 * repository's snapshot (HEAD, index, worktree, git dir: lib/git/snapshot.ts), the private copy
 * the provider ran in (lib/session/workspace.ts; any change there means a tool wrote although the
 * sandbox should have refused), and the files outside the repository a reviewer could use to
 * persist (lib/session/outside.ts). Taken before the provider starts and again after; any
 * difference fails the review as `provider-error` and is named: repository paths as git names
 * them, `reviewed copy/<path>`, and `~/.gitconfig`-style labels outside. Nothing is reverted.
 *
 * A review made while the agent works (docs/design.md "Review while working") proves the
 * {@linkcode ProofScope} `"private"`: what the reviewer could write that no later review reads
 * from bytes of its own — the private copy, the git dir's config, hooks, `info/` and history
 * files, the files outside the repository, and the user's key that seals review-gate's state —
 * but not the live worktree, the index, HEAD or the refs, which the agent goes on changing while
 * the call runs and which the Stop reviews from its own snapshot (a verdict serves only the exact
 * bytes the copy held).
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import { gitMetaSignature } from "../git/git_meta.ts";
import { compareSnapshots, type Snapshot, takeSnapshot } from "../git/snapshot.ts";
import { fingerprintDir, statSignature } from "./fingerprint.ts";
import { fingerprintOutside } from "./outside.ts";
import type { ReadOnlyProof } from "./types.ts";
import type { ReviewWorkspace } from "./workspace.ts";

/** Label of the private copy's entries in a violation. */
export const COPY_LABEL = "reviewed copy";

/** Label of the user's state key (lib/store/state_key.ts) in a violation of a `"private"` proof. */
export const KEY_LABEL = "review-gate key";

/**
 * What of the repository a proof watches: `"repository"` (the default) HEAD, the index, the
 * worktree and the git dir; `"private"` only the git dir's config, hooks, `info/` and history files,
 * plus the user's state key (see the module doc).
 */
export type ProofScope = "repository" | "private";

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
 * @param first the repository-and-outside snapshot already under way
 *   ({@linkcode startReviewProof}): the first `take` uses it instead of taking its own
 * @returns `take` (one git call, `status`, plus one per changed submodule; the ref files, a few
 *   dozen `lstat`s and one per file of the copy) and `compare`
 */
export function reviewProof(
  runner: Runner,
  at: ProofTargets & { workspace?: ReviewWorkspace },
  first?: Promise<Settled<Around>>,
): ReadOnlyProof<ReviewSnapshot> {
  let early = first;
  return {
    take: async () => {
      const pending = early;
      early = undefined;
      const [around, copy] = await Promise.all([
        pending ?? settle(takeAround(runner, at)),
        at.workspace ? fingerprintDir(at.workspace.tree, COPY_LABEL) : undefined,
      ]);
      if ("error" in around) throw around.error;
      const { repo, outside } = around.value;
      return copy ? { repo, copy, outside } : { repo, outside };
    },
    compare,
  };
}

/** A promise's outcome as a value: settled at once, so a failure nobody awaits yet is handled. */
type Settled<T> = { value: T } | { error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then((value) => ({ value }), (error: unknown) => ({ error }));
}

/**
 * The proof of {@linkcode reviewProof} for a review whose workspace is about to be made: the
 * first snapshot of the repository and of the files outside it starts now, so its `git status`
 * and file hashing run while the workspace's copy is written (lib/session/workspace.ts; the copy
 * writes neither the repository nor those files, so the snapshot is the one the provider starts
 * from). A failure of that snapshot is thrown by the first `take`, as before.
 *
 * @param runner the subprocess seam (git)
 * @param at the repository, the parent environment and the other runs' outputs, as for
 *   {@linkcode reviewProof}
 * @returns given the workspace once it exists, the proof: its first `take` adds the copy's
 *   fingerprint to the snapshot already under way; later ones take everything afresh
 */
export function startReviewProof(
  runner: Runner,
  at: ProofTargets,
): (workspace: ReviewWorkspace) => ReadOnlyProof<ReviewSnapshot> {
  // settled at once: a failure before the first take (the copy failing first) is never unhandled
  let started: Promise<Settled<Around>> | undefined = settle(takeAround(runner, at));
  return (workspace) => {
    const first = started;
    started = undefined;
    return reviewProof(runner, { ...at, workspace }, first);
  };
}

/** What the proof watches besides the workspace. */
interface ProofTargets {
  repo: Repo;
  env: Record<string, string | undefined>;
  ownOutputs?: () => Promise<Record<string, string>>;
  /** Default `"repository"`. */
  scope?: ProofScope;
  /**
   * Path of the user's key that seals review-gate's state (lib/store/user_state.ts
   * `stateKeyPath`), watched by a `"private"` proof; none known: the proof says so.
   */
  stateKey?: string;
}

/** The snapshot without the copy. */
type Around = Omit<ReviewSnapshot, "copy">;

/** The repository's snapshot (other runs' outputs left out) and the files outside it. */
async function takeAround(runner: Runner, at: ProofTargets): Promise<Around> {
  if (at.scope === "private") return await takePrivateAround(runner, at);
  const [repo, outside, own] = await Promise.all([
    takeSnapshot(runner, at.repo),
    fingerprintOutside(at.env),
    at.ownOutputs?.().catch(() => ({})),
  ]);
  if (own) dropOwnOutputs(repo, own);
  return { repo, outside };
}

/**
 * The `"private"` scope's snapshot: the git dir without its refs, the files outside the repository
 * and the user's state key. No `git status`: the worktree is the agent's while the call runs.
 */
async function takePrivateAround(runner: Runner, at: ProofTargets): Promise<Around> {
  const key = at.stateKey;
  const [git, outside, sealedBy] = await Promise.all([
    gitMetaSignature(runner, at.repo, { refs: false }),
    fingerprintOutside(at.env),
    key ? statSignature(key) : "no state folder",
  ]);
  return {
    repo: { head: "", index: "", files: {}, git },
    outside: { ...outside, [KEY_LABEL]: sealedBy },
  };
}

function compare(before: ReviewSnapshot, after: ReviewSnapshot): string[] {
  return [
    ...compareSnapshots(before.repo, after.repo),
    ...differingKeys(before.copy ?? {}, after.copy ?? {}),
    ...differingKeys(before.outside, after.outside),
  ];
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
