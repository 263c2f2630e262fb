/**
 * What a review starts ahead of need, so that it runs beside other work: the working tree's
 * snapshot (before the review is set up) and the setting of the provider calls (lib/review/
 * call_setting.ts: while the patch is read, or once the verdict cache missed). Both are ended by
 * `runReview` on every path. The setting's code (call_setting.ts) loads when a setting is first
 * prepared: a cache hit never loads it (docs/design.md "Performance notes": code loads where it is
 * used).
 *
 * @module
 */
import type { Repo } from "../git/repo.ts";
import { snapshotWorktree, type WorktreeSnapshot } from "../git/live_tree.ts";
import type { CallSetting } from "./call_setting.ts";
import { signalled } from "../exec/signalled.ts";
import { WORKTREE } from "./collect.ts";
import { ownOutputsOf } from "../store/output_writes.ts";
import type { ProofScope } from "../session/proof.ts";
import type { ReviewDeps, ReviewOptions } from "./types.ts";

/**
 * The working tree's snapshot (`git add -A` and `write-tree` on a private index: lib/git/live_tree.ts)
 * started before the review is set up, when the target is the working tree of a repository already
 * resolved: every review of it needs the snapshot, a cache hit or a clean tree too — or the one the
 * caller started before the review's code loaded (`worktreeAhead`). Its git calls die on an abort
 * like collection's. A failure is handled here and thrown where the change is collected.
 */
export function snapshotAhead(
  options: Pick<ReviewOptions, "repo" | "target" | "worktreeAhead">,
  deps: Pick<ReviewDeps, "runner" | "signal" | "env">,
): Promise<WorktreeSnapshot> | undefined {
  if (!options.repo || (options.target ?? WORKTREE).kind !== "worktree") return undefined;
  if (options.worktreeAhead) return options.worktreeAhead;
  if (deps.signal?.aborted) return undefined;
  // review-gate's own --output files are no part of the change (lib/git/own_outputs.ts)
  const snapshot = snapshotWorktree(signalled(deps.runner, deps.signal), options.repo, {
    ownOutputs: ownOutputsOf(options.repo, deps.env),
  });
  snapshot.catch(() => {});
  return snapshot;
}

/** The setting of a review's provider calls, prepared once, by whichever stage needs it first. */
export interface SettingAhead {
  /**
   * The setting: the one prepared already, or one started now for `tree`. Starting it also starts
   * loading the call's own code and the decoder of its answer, so they load while git works, not
   * after (a review that asks no model loads neither).
   */
  prepare(repo: Repo, tree: string): CallSetting;
  /** Give up a setting no call used (its git children killed, its copy removed); never throws. */
  end(): Promise<void>;
}

/**
 * A review's {@linkcode SettingAhead}, none prepared yet.
 *
 * @param scope what of the repository the setting's read-only proof watches (ReviewOptions `proof`)
 */
export function settingAhead(
  deps: Pick<ReviewDeps, "runner" | "env" | "signal">,
  scope?: ProofScope,
): SettingAhead {
  let setting: CallSetting | undefined;
  return {
    prepare(repo, tree) {
      if (!setting) {
        for (const load of [import("../session/call.ts"), import("../answer/decoder.ts")]) {
          load.catch(() => {}); // a failure is thrown where the code is used
        }
      }
      setting ??= loadedSetting(
        tree,
        import("./call_setting.ts").then(({ prepareCallSetting }) =>
          prepareCallSetting(deps.runner, { repo, tree, env: deps.env, signal: deps.signal, scope })
        ),
      );
      return setting;
    },
    end: async () => await setting?.end(),
  };
}

/**
 * A {@linkcode CallSetting} whose preparation starts once its module has loaded: `use` waits for
 * it, `end` ends it (or nothing, when its module could not load — `use` throws that failure).
 */
function loadedSetting(tree: string, preparing: Promise<CallSetting>): CallSetting {
  preparing.catch(() => {}); // a failure is thrown where the setting is used
  return {
    tree,
    use: async (fn) => await (await preparing).use(fn),
    end: async () => await (await preparing.catch(() => undefined))?.end(),
  };
}
