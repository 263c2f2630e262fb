/**
 * What `review` starts before its own code loads: the repository's resolution (the one
 * `git rev-parse` every review makes) and, for a review of the working tree, its snapshot (`git
 * add -A` and `git write-tree` on a private index copy: lib/git/live_tree.ts). Loading the review's
 * modules keeps Deno busy for tens of milliseconds in which git would otherwise wait; started here,
 * those git calls run meanwhile (docs/design.md "Performance notes": code loads where it is used,
 * and nothing waits on what can run beside it). The calls, their arguments and the trust in what
 * they return are the review's own: only when they start moves.
 *
 * The `rev-parse` starts earlier still, in main.ts, before the CLI loads (`CliDeps.repoAhead`), and
 * `review` waits for the snapshot's `git add` to start ({@linkcode ReviewAhead.started}) before it
 * loads its code: loading keeps Deno from handling a git exit, so a snapshot not yet started when
 * the load begins would wait for all of it.
 *
 * This module imports git and exec code only, which the review loads anyway.
 *
 * @module
 */
import type { CliDeps } from "./deps.ts";
import { signalled } from "../exec/signalled.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { snapshotWorktree, type WorktreeSnapshot } from "../git/live_tree.ts";
import { ownOutputsOf } from "../store/output_writes.ts";

/** What of `review`'s flags decides what starts ahead (lib/cli/review_action.ts `ReviewFlags`). */
export interface AheadFlags {
  staged?: boolean;
  base?: string;
  range?: string;
  commit?: string;
  planOnly?: boolean;
  background?: boolean;
  jobId?: string;
}

/** The git work started ahead of the review's code. */
export interface ReviewAhead {
  /** The repository around `deps.cwd` (lib/git/repo.ts `resolveRepo`); rejects as it would. */
  repo: Promise<Repo>;
  /**
   * The working tree's snapshot of that repository, when the review is one of the working tree in
   * the foreground (no target flag, not a background job; `--plan-only` too, which plans the same
   * snapshot); rejects as `snapshotWorktree` would.
   */
  worktree?: Promise<WorktreeSnapshot>;
  /**
   * Resolves once the snapshot's first git call (`git add`) has started, or at once when there is
   * no snapshot, or when it failed before starting; never rejects.
   */
  started(): Promise<void>;
  /** Resolves once every git call started here has ended; never rejects. */
  settled(): Promise<void>;
}

/**
 * Start the review's first git calls now. Nothing is awaited here; the promises' failures are
 * thrown where the review uses them (an unused one is dropped silently).
 *
 * @param flags the parsed `review` flags
 * @param deps the runner, the working directory, the repository resolved before the CLI loaded
 *   (`repoAhead`: main.ts, same runner and directory) and the abort signal (an abort kills the
 *   snapshot's git calls, as the review's own collection would)
 */
export function reviewAhead(
  flags: AheadFlags,
  deps: Pick<CliDeps, "runner" | "cwd" | "signal" | "env" | "repoAhead">,
): ReviewAhead {
  const repo = deps.repoAhead ?? resolveRepo(deps.runner, deps.cwd);
  repo.catch(() => {});
  const targeted = flags.staged || flags.base !== undefined || flags.range !== undefined ||
    flags.commit !== undefined;
  const foreground = !flags.background && flags.jobId === undefined;
  let onStarted = () => {};
  const started = new Promise<void>((resolve) => onStarted = resolve);
  const worktree = !targeted && foreground
    ? repo.then((r) =>
      // review-gate's own --output files are no part of the change (lib/git/own_outputs.ts)
      snapshotWorktree(signalled(deps.runner, deps.signal), r, {
        ownOutputs: ownOutputsOf(r, deps.env),
        onStarted,
      })
    )
    : undefined;
  worktree?.catch(() => {});
  return {
    repo,
    worktree,
    started: async () => {
      if (worktree) await Promise.race([started, worktree.then(() => {}, () => {})]);
    },
    settled: async () => {
      await Promise.allSettled([repo, ...(worktree ? [worktree] : [])]);
    },
  };
}
