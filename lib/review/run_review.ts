/**
 * The review pipeline, end to end, as a sequence of stages, each its own module taking and
 * returning its own record: set up (lib/review/setup.ts: the answer kind, providers, verdict
 * identity), collect the change (collect.ts), prepare the prompt (prompt.ts: guidelines,
 * acknowledgements), look the verdict up (lookup.ts: cache key, verdict cache), open the run
 * (open_run.ts), end it without a call (without_call.ts) or ask the model once (ask.ts) or in parts
 * (ask_parts.ts), and finish (finish.ts: status, blocking, store_run.ts, exit code). One shard of a
 * review split across CI runners, and `review-gate merge`, go through the same stages in parts,
 * under their plan's identity (shard_identity.ts), with no whole-change verdict read or written.
 * Whatever
 * differs between answer kinds comes from the kind's definition (lib/kinds/definition.ts): the
 * pipeline knows no kind. Used by the `review` command and both gates.
 *
 * I/O arrives through {@linkcode ReviewDeps}; nothing here prints or exits. The abort signal reaches
 * the git calls that collect the change (a Ctrl-C kills a slow `git add -A`) and is checked between
 * stages: an abort before the provider starts ends the review as `interrupted` without calling it.
 * The run folder's `run.json` says "running" from the moment the folder exists until the end.
 * Store writes after the provider answered are best-effort (`storeWarnings`): a verdict in hand is
 * never lost to a full disk.
 *
 * @module
 */
import type { WorktreeSnapshot } from "../git/live_tree.ts";
import { LOCAL_RULES } from "../rules/options.ts";
import type { RulesReport } from "../rules/report.ts";
import { type SettingAhead, settingAhead, snapshotAhead } from "./ahead.ts";
import { collect } from "./collect.ts";
import { type EarlyEnd, endEarly } from "./early.ts";
import { finish, judgingOf, runStore, storeFailure } from "./finish.ts";
import { lookUp } from "./lookup.ts";
import { openRun } from "./open_run.ts";
import { preparePrompt } from "./prompt.ts";
import { partsOf, setUp } from "./setup.ts";
import type { RecordAnswer, ReviewDeps, ReviewOptions, ReviewOutcome } from "./types.ts";
import { endWithoutCall } from "./without_call.ts";
import { trace } from "../base/trace.ts";

export type { ReviewDeps, ReviewOptions, ReviewOutcome } from "./types.ts";

/**
 * Run one review.
 *
 * An abort (`deps.signal`) during repository resolution or change collection kills the running git
 * child and ends the review as `interrupted` (exit 130) without calling the provider and without
 * a run folder; so does an abort noticed between stages.
 *
 * @returns the stored run record, the answer on success, and the exit code (0, 1, 3 or 130)
 * @throws {import("../base/errors.ts").GitError} not a repository, git failure (exit 2)
 * @throws {import("../base/errors.ts").UsageError} unknown ref or provider (exit 2)
 * @throws {import("../base/errors.ts").StoreError} the state dir, run folder or a temp dir cannot be
 *   written before the provider starts (exit 3); after it answered, store failures are
 *   `storeWarnings` instead
 *
 * Whatever is thrown once the run folder exists is rethrown only after the run was stored as
 * `provider-error` with the error's message (transcript of any attempts, `run.json`, records line)
 * — also what judging an answer throws (fingerprinting its findings reads the tree).
 */
export async function runReview<A = RecordAnswer>(
  options: ReviewOptions,
  deps: ReviewDeps,
): Promise<ReviewOutcome<A>> {
  const worktree = snapshotAhead(options, deps);
  const setting = settingAhead(deps, options.proof);
  try {
    return await review(options, deps, { worktree, setting }) as ReviewOutcome<A>;
  } finally {
    // a setting prepared ahead that no call used: its git children killed, its copy removed
    await setting.end();
    // never leave the snapshot's `git add` running (the review set-up threw, or an abort)
    await worktree?.catch(() => {});
  }
}

/** The stages in order; what each starts ahead of need is in `ahead`. */
async function review(
  options: ReviewOptions,
  deps: ReviewDeps,
  ahead: { worktree?: Promise<WorktreeSnapshot>; setting: SettingAhead },
): Promise<ReviewOutcome<unknown>> {
  const setup = await setUp(options, deps);
  trace("pipeline: set up");
  const { kind, started } = setup;
  const ending = { started, gate: options.gate, now: deps.now };
  // before a run folder exists: the record's base, with the rules report once there is one
  const early = (end: EarlyEnd, rules?: RulesReport) =>
    endEarly({ ...setup.base, ...(rules ? { rules } : {}) }, end, ending);
  const rules = options.rules ?? LOCAL_RULES;
  const collected = await collect(options, deps, {
    rules,
    budgets: setup.identity.budgets,
    worktree: ahead.worktree,
    onListed: setup.asksAhead ? ahead.setting.prepare : undefined,
  });
  trace("pipeline: collected");
  if ("early" in collected) return early(collected.early, collected.rules);
  const { repo, change } = collected;
  const { runner } = deps;
  const prompted = await preparePrompt(options, { kind, runner, repo, change, rules, started });
  trace("pipeline: prompt prepared");
  const { identity, lookup } = await splitOf(options, { setup, change, prompted });
  const looked = await lookUp(lookup, deps, { setup, repo, change, prompted });
  trace("pipeline: looked up");
  if ("early" in looked) return withIdentity(await early(looked.early, prompted.rules), identity);
  const { state, hit, nothingShown } = looked;
  if (!hit && !nothingShown && setup.asksAhead) {
    ahead.setting.prepare(repo, change.toTree ?? change.to);
  }
  const { start, release } = await openRun(state, {
    started,
    base: { ...setup.base, rules: prompted.rules },
    change,
    cacheKey: looked.key,
    cached: hit !== null,
  });
  trace("pipeline: run opened");
  const store = runStore(start, state, { setup, options, deps });
  const judging = judgingOf(options, { hit, change, acks: prompted.acks.active });
  try {
    await deps.onRunOpened?.({ id: start.id, runDir: start.runDir, label: change.label });
    // a merge asks no model: no daily budget stops it
    const calling = options.shardResults ? { ...options, gate: undefined } : options;
    const ended = await endWithoutCall(store, judging, calling, { nothingShown, state });
    if (ended) return withIdentity(ended, identity);
    const asked = { repo, change, state, acks: prompted.acks, setting: ahead.setting };
    const parts = partsOf(setup, change, identity !== undefined);
    if (parts) {
      const inParts = { ...asked, guidelines: prompted.chooser, parts, identity };
      const { askInParts } = await import("./ask_parts.ts");
      const answered = await askInParts(setup, options, deps, inParts);
      return withIdentity(await finish(store, judging, answered), identity);
    }
    const { askOnce, keepAsPart } = await import("./ask.ts");
    const answered = await askOnce(setup, options, deps, {
      ...asked,
      prompt: await prompted.prompt(),
    });
    // the answer is kept as its part's verdict beside the run's judging and storing (never throws)
    const kept = keepAsPart(setup, options, deps, {
      ...{ state, change, guidelines: prompted.guidelines, chooser: prompted.chooser },
      acks: prompted.acks.digest,
      answered,
    });
    return await settledWith(finish(store, judging, answered), kept);
  } catch (error) {
    // the run folder exists: never leave its run.json "running" for a run that has ended (also
    // when judging the answer throws: fingerprinting its findings reads the tree)
    await storeFailure(store, hit, error);
    throw error;
  } finally {
    release(); // the final run.json is written (or could not be): prune may take the run now
  }
}

/** What `outcome` gives (or throws), once `alongside` (which never rejects) has ended too. */
async function settledWith<T>(outcome: Promise<T>, alongside: Promise<void>): Promise<T> {
  try {
    return await outcome;
  } finally {
    await alongside;
  }
}

/**
 * For a shard or a merge (README "Review across a CI matrix"): the plan identity every shard and
 * the merge agree on (lib/review/shard_identity.ts), and the options to look the verdict up with —
 * a shard's or a merge's verdict is never a whole change's, so none is looked up (nor stored).
 * Otherwise no identity and the options as they are.
 */
async function splitOf(
  options: ReviewOptions,
  at: Parameters<typeof import("./shard_identity.ts").planIdentity>[1],
): Promise<{ identity?: string; lookup: ReviewOptions }> {
  if (options.shard === undefined && options.shardResults === undefined) {
    return { lookup: options };
  }
  const { planIdentity } = await import("./shard_identity.ts");
  return { identity: await planIdentity(options, at), lookup: { ...options, useCache: false } };
}

/** A shard's or a merge's outcome, with its plan identity (once there is one). */
function withIdentity(outcome: ReviewOutcome<unknown>, identity?: string): ReviewOutcome<unknown> {
  if (identity === undefined) return outcome;
  return { ...outcome, sharded: { ...outcome.sharded, identity } };
}
