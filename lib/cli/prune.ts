/**
 * `review-gate prune [--older-than 30d] [--dry-run] [--json]`: remove the state review-gate keeps
 * (runs, verdict cache and memos, push and stop stamps, jobs, turn records, anchors, background-work
 * files, ledger lines) that nobody wrote for longer than the age given, but never what is in use
 * (lib/store/prune_state.ts); `--older-than 0s` removes all of it that is not in use.
 * This file defines the command; its work, lib/cli/prune_action.ts, loads when it runs.
 *
 * @module
 */
import { type CliContext, type CommandRoutes, defineCommand, flag, text } from "./command.ts";

/** The age `prune` removes state past without `--older-than`. */
export const DEFAULT_OLDER_THAN = "30d";

const BRIEF = "Remove the runs, cache and other state review-gate keeps that are older than an age";

const PRUNE_HELP = `
Goes through this repository's state ($(git rev-parse --git-common-dir)/review-gate/) and your own
($XDG_STATE_HOME/review-gate/, default ~/.local/state/review-gate/: anchors and stop stamps) and
removes what nobody wrote for longer than --older-than (default ${DEFAULT_OLDER_THAN}): a whole number and a unit,
0s, 90m, 12h, 7d, 2w. It never removes what is in use: a run or turn record whose writer holds its
lock, a job that has not ended, what an agent turn may still need (written within 24 h), the newest
run (show's default), the runs a kept job, ledger line or cached verdict names, or today's ledger
lines (the daily budget adds them up); it says how many it kept and why. The per-user key is never
removed, nor anything in the worktree. --older-than 0s removes all the rest (after uninstall, the
state folders themselves can then be deleted).`;

/** `prune`. */
export const pruneRoutes: CommandRoutes = {
  prune: defineCommand({
    docs: { brief: BRIEF, fullDescription: BRIEF + "\n" + PRUNE_HELP },
    parameters: {
      flags: {
        olderThan: text(
          "age",
          `remove what nobody wrote for longer than this: 0s, 90m, 12h, 7d, 2w (default ${DEFAULT_OLDER_THAN})`,
        ),
        dryRun: flag("list what would be removed, remove nothing"),
        json: flag("print what was removed and kept as JSON"),
      },
    },
    async func(this: CliContext, flags: { olderThan?: string; dryRun?: boolean; json?: boolean }) {
      await (await import("./prune_action.ts")).pruneAction(
        flags,
        this.deps,
        DEFAULT_OLDER_THAN,
      );
    },
  }),
};
