/**
 * The review's second stage: resolve the repository and the target and collect the change
 * (lib/git/collect.ts), through the team's path filters, then what the rules did to it. An abort
 * kills the running git child (collection only reads) and ends the review as `interrupted`; a
 * clean worktree with no target, or a change the rules left no file of, ends it too.
 *
 * @module
 */
import { signalled } from "../exec/signalled.ts";
import { collectChange, isCleanWorktree } from "../git/collect.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import type { WorktreeSnapshot } from "../git/live_tree.ts";
import type { Budgets, Change, Target } from "../git/types.ts";
import { pathFilterFor } from "../rules/apply.ts";
import type { RulesOptions } from "../rules/options.ts";
import { buildRulesReport, type RulesReport } from "../rules/report.ts";
import { changeEnd, CLEAN_WORKTREE, type EarlyEnd } from "./early.ts";
import { quotePath } from "../git/coverage_text.ts";
import { ownOutputsOf } from "../store/output_writes.ts";
import type { ReviewDeps, ReviewOptions } from "./types.ts";

/** What a review without a target looks at. */
export const WORKTREE: Target = { kind: "worktree" };

/** Why a review narrowed to paths has nothing to review in a working tree with changes elsewhere. */
const NO_CHANGE_AT_PATHS = "no uncommitted change matches the paths given";

/** A collected change with something to review, and what the rules did to it. */
export interface Collected {
  repo: Repo;
  change: Change;
  /** The rules report of the change (no guidelines yet: lib/review/prompt.ts adds them). */
  rules: RulesReport;
}

/** How collecting ended the review: early, with the rules report once the change was collected. */
export interface CollectEnd {
  early: EarlyEnd;
  rules?: RulesReport;
}

/** What of the options collection reads. */
export type CollectOptions = Pick<
  ReviewOptions,
  "cwd" | "repo" | "target" | "config" | "rulesNotes" | "paths"
>;

/**
 * Collect the change.
 *
 * @param options where and what to review, the config (its path filters)
 * @param deps the git runner and the abort signal
 * @param at where the rules come from, the diff budgets, the working tree's snapshot started ahead,
 *   and what to call once the listing kept a file (the reviewed tree's id): a review that will ask
 *   a model prepares the call's setting while the patch is read
 * @throws {import("../base/errors.ts").GitError} not a repository, git failure
 * @throws {import("../base/errors.ts").UsageError} unknown ref
 */
export async function collect(
  options: CollectOptions,
  deps: Pick<ReviewDeps, "runner" | "signal" | "env">,
  at: {
    rules: RulesOptions;
    budgets: Budgets;
    worktree?: Promise<WorktreeSnapshot>;
    onListed?: (repo: Repo, tree: string) => void;
  },
): Promise<Collected | CollectEnd> {
  const aborted = () => deps.signal?.aborted === true;
  // git calls that only read (collection) may die on an abort; the read-only proof may not.
  const gitRunner = signalled(deps.runner, deps.signal);
  const pending: CollectEnd = {
    early: { status: "interrupted", label: "change not collected", kind: options.target?.kind },
  };
  let change: Change;
  let repo: Repo;
  try {
    if (aborted()) return pending;
    repo = options.repo ?? await resolveRepo(gitRunner, options.cwd);
    // no target: the working tree, and nothing to review when its snapshot holds no change
    const target = options.target ?? WORKTREE;
    if (aborted()) return pending;
    const exclude = pathFilterFor(gitRunner, repo, { config: options.config, rules: at.rules });
    const { onListed } = at;
    change = await collectChange(gitRunner, {
      repo,
      target,
      budgets: at.budgets,
      exclude,
      onListed: onListed
        ? (listed: { tree: string; files: number }) => {
          if (listed.files > 0) onListed(repo, listed.tree);
        }
        : undefined,
      worktree: at.worktree,
      ownOutputs: ownOutputsOf(repo, deps.env),
      paths: options.paths,
    });
    if (!options.target && isCleanWorktree(change)) {
      return {
        early: {
          status: "nothing-to-review",
          label: change.label,
          message: withOwnOutputs(
            options.paths?.length ? NO_CHANGE_AT_PATHS : CLEAN_WORKTREE,
            change,
          ),
        },
      };
    }
  } catch (error) {
    // a git child killed by the abort fails with a GitError: the abort is the real story
    if (aborted()) return pending;
    throw error;
  }
  const rules = buildRulesReport(at.rules, { change, notes: options.rulesNotes });
  if (aborted()) return { early: changeEnd(change, true), rules };
  // every changed file excluded by rule: no model saw any of it — NOT reviewed, never "nothing"
  if (change.files.length === 0) return { early: changeEnd(change, false), rules };
  return { repo, change, rules };
}

/** The clean-worktree message, naming review-gate's own output files it left out (never silently). */
function withOwnOutputs(message: string, change: Change): string {
  const own = (change.coverage.excluded ?? []).filter((e) => e.reason === "own-output");
  if (own.length === 0) return message;
  const named = own.slice(0, 10).map((e) => quotePath(e.path)).join(", ");
  const rest = own.length > 10 ? ` and ${own.length - 10} more` : "";
  return `${message} (left out: ${named}${rest} — excluded: review-gate's own output)`;
}
