/**
 * The review pipeline, end to end: resolve the repository and target, collect the change, build the
 * prompt, consult the verdict cache, open the run (lib/review/open_run.ts), run one structured call
 * (with the read-only proof), store the run (lib/review/store_run.ts), and decide the status and
 * exit code. Used by the `review` command and both gates.
 *
 * I/O arrives through {@linkcode ReviewDeps}; nothing here prints or exits. The abort signal reaches
 * the git calls that collect the change (a Ctrl-C kills a slow `git add -A`) and is checked between
 * phases: an abort before the provider starts ends the review as `interrupted` without calling it.
 * The run folder's `run.json` says "running" from the moment the folder exists until the end.
 * Store writes after the provider answered are best-effort (`storeWarnings`): a verdict in hand is
 * never lost to a full disk.
 *
 * @module
 */
import { type AnswerKind, getKind } from "../kinds/registry.ts";
import type { KindDefinition, KindParts, Policy, PromptVariant } from "../kinds/definition.ts";
import { formatRefusal } from "../answer/refusal.ts";
import type { Config } from "../config/config.ts";
import type { ExecRequest, Runner } from "../exec/exec.ts";
import type { DecoderKind } from "../answer/types.ts";
import { collectChange, isCleanWorktree, shownNothing } from "../git/collect.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { snapshotWorktree, type WorktreeSnapshot } from "../git/live_tree.ts";
import type { Change, ExcludedFile, Target } from "../git/types.ts";
import { type GuidelineChooser, guidelineChooser, pathFilterFor } from "../rules/apply.ts";
import { LOCAL_RULES, type RulesOptions } from "../rules/options.ts";
import { buildRulesReport, excludedList, rulesIdentity } from "../rules/report.ts";
import { getProvider, missingBinaryMessage, resolveBinary } from "../providers/registry.ts";
import type { CallOutcome } from "../session/call.ts";
import { excludedLine, OMIT_REASON_TEXT } from "../git/coverage_text.ts";
import { type CacheEntry, cacheKey, readCache } from "../store/cache.ts";
import { ensureStateDir } from "../store/state.ts";
import { exitCodeFor } from "./exit_code.ts";
import { programKey, verdictIdentity } from "./identity.ts";
import { sha256Hex } from "../base/sha256.ts";
import { openRun, type RunBase } from "./open_run.ts";
import { type FinishedRun, type RunStart, storeRun } from "./store_run.ts";
import type { ReviewResult, ReviewStatus } from "../store/run_record.ts";
import type { Ack } from "../acks/types.ts";
import { noteFindings } from "../acks/match.ts";
import { type ReviewAcks, reviewAcks } from "./acks.ts";
import { budgetStop } from "./budget.ts";
import { type CallSetting, prepareCallSetting } from "./call_setting.ts";

/** The I/O a review needs. */
export interface ReviewDeps {
  runner: Runner;
  env: Record<string, string | undefined>;
  /** Clock (injectable for tests). */
  now: () => Date;
  /** Aborts the review (Ctrl-C, a hook deadline): collection git calls and the provider call. */
  signal?: AbortSignal;
  /** Called when the provider starts, so a TTY can show progress. */
  onProviderStart?: (provider: string) => void;
  /**
   * Called once the run folder exists, before the provider is asked (a background job records
   * which run it is). Awaited; what it throws ends the review like any error after `openRun`.
   */
  onRunOpened?: (run: { id: string; runDir: string; label: string }) => void | Promise<void>;
}

/** What to review and how. */
export interface ReviewOptions {
  /** Directory inside the repository. */
  cwd: string;
  /** What to review; `undefined` = the working tree when dirty, else nothing. */
  target?: Target;
  /** Prompt variant of the review kind (`--adversarial`). */
  kind: PromptVariant;
  /** The answer kind to ask for (lib/kinds/registry.ts); default "review". */
  answerKind?: AnswerKind;
  /** The answer kind's input (compliance: the plan from `--plan`), from its `cli.loadInput`. */
  kindInput?: unknown;
  /** The answer kind's command-line switches that were given, by name ("fail-on-missing"). */
  switches?: ReadonlySet<string>;
  focus?: string;
  /** What the coding agent said about the change (Stop gate), carried into the prompt as data. */
  agentMessage?: string;
  config: Config;
  /**
   * Reuse a cached verdict (also needs `config.cache`). With `false` (`--no-cache`) — or with
   * `config.cache` false (`REVIEW_GATE_CACHE=0`) — the provider is asked again and its fresh
   * verdict still replaces the cached one (and the memo), so an old verdict never outlives a newer
   * review.
   */
  useCache: boolean;
  /** An already resolved repository (saves a git call). */
  repo?: Repo;
  /**
   * Where the team's rules (guidelines, path filters) are read from and whether the repository is
   * trusted (lib/rules/options.ts); default: the worktree, trusted. `config` must have been loaded
   * from the same side (lib/rules/config_at.ts).
   */
  rules?: RulesOptions;
  /** Notes from loading the config on the rules' side (what untrusted mode ignored). */
  rulesNotes?: readonly string[];
  /**
   * Verdict memo key of an immutable target (lib/store/verdict_memo.ts); on success it is pointed
   * at this verdict, so the next gate run for the same target skips collecting the change.
   */
  memoKey?: string;
  /**
   * Acknowledged findings, read by the caller from the side it trusts (the CI base commit, the Stop
   * gate's baseline); absent: the worktree's `.review-gate/acks.json`.
   */
  acks?: readonly Ack[];
  /**
   * Epoch ms by which a review in several calls must be over (a hook's deadline); each call's own
   * limit is `timeout_seconds`.
   */
  deadline?: number;
  /**
   * A review in several calls, one of which could not run: "allow" lets the others' verdict stand
   * with the failed part named as not reviewed; "block" (default) fails the whole review. Given
   * as "block" (a gate's `on_partial`), a verdict that saw only part of the change is also recorded
   * as blocking.
   */
  onPartial?: "allow" | "block";
  /**
   * The gate asking (`pre-push`, `claude-stop`, `ci`…), recorded in the ledger; a gate's review is
   * held to `budget.usd_per_day` (none when absent: `review` by hand).
   */
  gate?: string;
  /**
   * Why the model must not be asked at all (CI: a fork's pull request has no secrets): the change
   * is collected and the run stored as `not-reviewed` with this message, no model call.
   */
  notAsked?: string;
}

/** The answer type a run record has by default (lib/store/run_record.ts): a review answer. */
type RecordAnswer = NonNullable<ReviewResult["answer"]>;

/**
 * A finished review and its exit code. `A` is the answer type of the kind asked for: a review
 * answer unless `answerKind` says otherwise.
 */
export interface ReviewOutcome<A = RecordAnswer> extends ReviewResult<A> {
  exitCode: number;
  /** The last attempt's raw output (for `--json` on failure). */
  rawOutput?: { stdout: string; stderr: string };
  /** The change that was reviewed (absent for nothing-to-review without a change). */
  change?: Change;
  /**
   * What could not be stored after the provider answered (transcript, answer/review, run.json,
   * cache, memo, records line), one line each; absent when everything was stored. The status and
   * exit code stand regardless: show these as warnings.
   */
  storeWarnings?: string[];
}

/** `runner` with `signal` added to every request that has none (so an abort kills the child). */
function signalled(runner: Runner, signal: AbortSignal | undefined): Runner {
  if (!signal) return runner;
  return (request: ExecRequest) => runner({ ...request, signal: request.signal ?? signal });
}

const EARLY_INTERRUPT = "Interrupted before the provider started";

/** What a review without a target looks at. */
const WORKTREE: Target = { kind: "worktree" };

/** The acknowledgements of a kind whose answers have no findings: none, and none in its key. */
const NO_ACKS: ReviewAcks = { active: [], told: [], digest: "none" };
/**
 * The message of a change every file of which is excluded by rule: it is NOT reviewed (status
 * `not-reviewed`), and the files are named. By hand (no gate) and when a default left a file out,
 * it says how to have them reviewed.
 */
function excludedMessage(excluded: readonly ExcludedFile[], gate: string | undefined): string {
  const hint = !gate && excluded.some((e) => e.rule.startsWith("default: "))
    ? "; to review them: --no-default-excludes"
    : "";
  return `every changed file is excluded by rule: ${excludedList(excluded)}${hint}`;
}

/** Why a plain `review` of a clean working tree has nothing to review, and what to run instead. */
const CLEAN_WORKTREE =
  "it has no uncommitted changes; to review this branch's commits use --base <ref> (e.g. --base main), --commit <rev> or --range A..B";

/**
 * Why a collected change had nothing to review, when it left something out: every changed file
 * excluded by rule, and the nested repositories and linked worktrees that are not part of it
 * (named, as the README promises, even when nothing else changed).
 */
function nothingMessage(change: Change, gate: string | undefined): { message?: string } {
  const parts = [
    change.excludedByRule.length ? excludedMessage(change.excludedByRule, gate) : "",
    excludedLine(change.coverage),
  ].filter((p) => p !== "");
  return parts.length ? { message: parts.join("; ") } : {};
}

/**
 * Run one review.
 *
 * An abort (`deps.signal`) during repository resolution or change collection kills the running git
 * child and ends the review as `interrupted` (exit 130) without calling the provider and without
 * a run folder; so does an abort noticed between phases.
 *
 * @returns the stored run record, the answer on success, and the exit code (0, 1, 3 or 130)
 * @throws {import("../base/errors.ts").GitError} not a repository, git failure (exit 2)
 * @throws {import("../base/errors.ts").UsageError} unknown ref or provider (exit 2)
 * @throws {import("../base/errors.ts").StoreError} the state dir, run folder or a temp dir cannot be
 *   written before the provider starts (exit 3); after it answered, store failures are
 *   `storeWarnings` instead
 *
 * Whatever is thrown once the run folder exists is rethrown only after the run was stored as
 * `provider-error` with the error's message (transcript of any attempts, `run.json`, records line).
 */
export async function runReview<A = RecordAnswer>(
  options: ReviewOptions,
  deps: ReviewDeps,
): Promise<ReviewOutcome<A>> {
  return await reviewAnyKind(options, deps) as ReviewOutcome<A>;
}

async function reviewAnyKind(
  options: ReviewOptions,
  deps: ReviewDeps,
): Promise<ReviewOutcome<unknown>> {
  const worktree = snapshotAhead(options, deps);
  try {
    const run = await startReview(options, deps);
    run.worktree = worktree;
    try {
      return await reviewRun(run);
    } finally {
      // a setting prepared ahead that no call used: its git children killed, its copy removed
      await run.setting?.end();
    }
  } finally {
    // never leave the snapshot's `git add` running (the review set-up threw, or an abort)
    await worktree?.catch(() => {});
  }
}

/**
 * The working tree's snapshot (`git add -A` and `write-tree` on a private index: lib/git/live_tree.ts)
 * started before the review is set up, when the target is the working tree of a repository already
 * resolved: every review of it needs the snapshot, a cache hit or a clean tree too. Its git calls
 * die on an abort like collection's. A failure is handled here and thrown where the change is
 * collected.
 */
function snapshotAhead(
  options: ReviewOptions,
  deps: ReviewDeps,
): Promise<WorktreeSnapshot> | undefined {
  if (!options.repo || (options.target ?? WORKTREE).kind !== "worktree") return undefined;
  if (deps.signal?.aborted) return undefined;
  const snapshot = snapshotWorktree(signalled(deps.runner, deps.signal), options.repo);
  snapshot.catch(() => {});
  return snapshot;
}

async function reviewRun(run: ReviewRun): Promise<ReviewOutcome<unknown>> {
  const { options, deps } = run;
  const collected = await collect(run);
  if ("outcome" in collected) return collected.outcome;
  const { repo, change } = collected;
  const at = { label: change.label, kind: change.target.kind, change };
  const rules = options.rules ?? LOCAL_RULES;
  run.base.rules = buildRulesReport(rules, { change, notes: options.rulesNotes });
  if (run.aborted()) return run.early("interrupted", at);
  // every changed file excluded by rule: no model saw any of it — NOT reviewed, never "nothing"
  if (change.files.length === 0) {
    return run.early(change.excludedByRule.length > 0 ? "not-reviewed" : "nothing-to-review", at);
  }

  const { chooser, acks, prompt, key } = await preparePrompt(run, {
    repo,
    change,
    rules,
  });
  const state = await ensureStateDir(repo.commonDir);
  // A change none of which can be shown is not reviewed: no cache, no model call, never approved.
  const nothingShown = shownNothing(change);
  // a council's whole verdict is not cached: its parts are (per provider), so a re-run asks
  // nobody and still knows who agreed on each finding
  const useCache = options.useCache && options.config.cache && !nothingShown &&
    run.council.length === 0;
  const hit = useCache ? await readCache<unknown>(state, key) : null;
  if (!hit && run.aborted()) return run.early("interrupted", at);
  if (!hit && !nothingShown && asksAhead(run)) {
    prepareSetting(run, repo, change.toTree ?? change.to);
  }

  const start = await openRun(state, {
    started: run.started,
    base: run.base,
    change,
    cacheKey: key,
    cached: hit !== null,
  });
  const finished = { start, state, hit, change, acks, guidelines: chooser };
  let outcome: CallOutcome<unknown> | undefined;
  try {
    await deps.onRunOpened?.({ id: start.id, runDir: start.runDir, label: change.label });
    const ended = await endWithoutCall(run, finished, nothingShown);
    if (ended) return ended;
    const { parts } = run.kind;
    if ((change.chunks.length > 1 || run.council.length > 0) && parts) {
      return await finishInParts(run, { ...finished, hit: null, repo, parts });
    }
    outcome = await askProvider(run, { repo, change, prompt: prompt() });
  } catch (error) {
    // the run folder exists: never leave its run.json "running" for a run that has ended
    const message = error instanceof Error ? error.message : String(error);
    await storeRun(start, {
      ...run.storeAs(state),
      status: "provider-error",
      blocking: false,
      outcome,
      hit,
      message,
      finished: deps.now(),
    });
    throw error;
  }
  return await finish(run, finished, { answer: outcome.answer, outcome });
}

/**
 * What the model is told and the verdict's identity: the guidelines that apply, the
 * acknowledgements, the prompt and the cache key (every input the verdict depends on). The prompt
 * of the whole change is built only when asked for: a review in parts builds one per part.
 */
async function preparePrompt(
  run: ReviewRun,
  at: { repo: Repo; change: Change; rules: RulesOptions },
) {
  const { repo, change, rules } = at;
  // The team's guidelines are review policy: kinds without findings neither hear nor key them.
  const chooser: GuidelineChooser = run.kind.findings
    ? await guidelineChooser(run.deps.runner, repo, { config: run.options.config, rules, change })
    : () => ({ applied: [], leftOut: [] });
  const guidelines = chooser(change.files.map((f) => f.path));
  run.base.rules = buildRulesReport(rules, { change, guidelines, notes: run.options.rulesNotes });
  // Acknowledgements are about review findings: kinds without findings neither hear nor key them.
  const acks = run.kind.findings
    ? await reviewAcks(run.options.acks, {
      runner: run.deps.runner,
      root: repo.root,
      change,
      now: run.started,
    })
    : NO_ACKS;
  const prompt = () =>
    run.kind.prompt(change, {
      variant: run.options.kind,
      focus: run.options.focus,
      agentMessage: run.options.agentMessage,
      acks: acks.told,
      guidelines,
    }, run.options.kindInput);
  const key = await cacheKey({
    rules: await rulesIdentity(run.options.config, { guidelines, excluded: change.excludedByRule }),
    fingerprint: change.fingerprint,
    schemaId: run.identity.schemaHash,
    promptTemplateHash: run.identity.templateHash,
    provider: (await Promise.all(
      (run.council.length > 0 ? run.council : [run.adapter]).map((a) =>
        programKey(
          a,
          resolveBinary(a, run.deps.env, run.options.cwd),
          run.deps.env,
          run.options.cwd,
        )
      ),
    )).join("+"),
    model: run.options.config.model,
    focus: run.options.focus,
    reviewKind: run.options.kind,
    planId: change.planId,
    acks: acks.digest,
    kindInputHash: run.kindInputHash,
  });
  return { chooser, guidelines, acks, prompt, key };
}

/**
 * The setting of the review's provider calls (lib/review/call_setting.ts): the one prepared ahead,
 * or one started now. Starting it also starts loading the call's own code and the decoder of its
 * answer, so they load while git works, not after (a review that asks no model loads neither).
 */
function prepareSetting(run: ReviewRun, repo: Repo, tree: string): CallSetting {
  if (!run.setting) {
    for (const load of [import("../session/call.ts"), import("../answer/decoder.ts")]) {
      load.catch(() => {}); // a failure is thrown where the code is used
    }
  }
  run.setting ??= prepareCallSetting(run.deps.runner, {
    repo,
    tree,
    env: run.deps.env,
    signal: run.deps.signal,
  });
  return run.setting;
}

/**
 * True when the review asks a model for any change that has something to show — no whole-change
 * verdict to look up first (`--no-cache`, a council, whose parts are looked up inside the
 * workspace), no caller's `notAsked`, no daily budget that could stop a gate — so the call's
 * setting can be prepared as soon as the listing names a file the rules keep.
 */
function asksAhead(run: ReviewRun): boolean {
  const { options } = run;
  const cached = options.useCache && options.config.cache && run.council.length === 0;
  const budgeted = options.gate !== undefined && options.config.budget?.usd_per_day !== undefined;
  return !cached && !budgeted && options.notAsked === undefined;
}

/** A review under way: what every phase shares. */
interface ReviewRun {
  options: ReviewOptions;
  deps: ReviewDeps;
  started: Date;
  adapter: ReturnType<typeof getProvider>;
  /** The answer kind asked for. */
  kind: KindDefinition;
  /** sha256 of the kind's input identity (compliance: the plan), when it has an input. */
  kindInputHash?: string;
  policy: Policy;
  identity: Awaited<ReturnType<typeof verdictIdentity>>;
  /** The record fields known before the change is collected. */
  base: RunBase;
  aborted(): boolean;
  /** The outcome of a review that ends before a run folder exists (every file excluded by rule: not-reviewed). */
  early(
    status: "nothing-to-review" | "not-reviewed" | "interrupted",
    at: { label: string; kind?: string; change?: Change; message?: string },
  ): ReviewOutcome<unknown>;
  /** What every `storeRun` call of this review shares. */
  storeAs(state: string): Omit<FinishedRun, "status" | "blocking" | "hit" | "finished">;
  /** A council's providers (empty: `adapter` alone). */
  council: ReturnType<typeof getProvider>[];
  /** The working tree's snapshot started before the review was set up ({@linkcode snapshotAhead}). */
  worktree?: Promise<WorktreeSnapshot>;
  /** The provider calls' workspace and proof, once being prepared ({@linkcode prepareSetting}). */
  setting?: CallSetting;
}

/**
 * Set a review up: provider adapter, policy and verdict identity, and the record fields known now.
 *
 * @throws {import("../base/errors.ts").UsageError} unknown provider
 */
async function startReview(options: ReviewOptions, deps: ReviewDeps): Promise<ReviewRun> {
  const { config } = options;
  const started = deps.now();
  const kind = getKind(options.answerKind ?? "review");
  // a council reviews in parts (one call per provider and part); other kinds ask one provider
  const council = kind.parts && config.council.length > 1 ? config.council.map(getProvider) : [];
  const adapter = council[0] ?? getProvider(config.provider);
  const inputIdentity = kind.inputIdentity(options.kindInput);
  const base: RunBase = {
    reviewKind: options.kind,
    answerKind: kind.name,
    ...(inputIdentity === undefined ? {} : { kindInput: kind.recordInput(options.kindInput) }),
    ...(options.gate ? { gate: options.gate } : {}),
    focus: options.focus,
    provider: adapter.name,
    ...(council.length > 0
      ? { council: { providers: council.map((a) => a.name), policy: config.council_policy } }
      : {}),
    model: config.model,
    startedAt: started.toISOString(),
    attempts: [],
    cached: false,
  };
  const policy = kind.policy(config);
  return {
    options,
    deps,
    started,
    adapter,
    council,
    kind,
    kindInputHash: inputIdentity === undefined ? undefined : await sha256Hex(inputIdentity),
    policy,
    identity: await verdictIdentity(config, {
      kind: options.kind,
      focus: options.focus,
      definition: kind,
    }),
    base,
    aborted: () => deps.signal?.aborted === true,
    early: (status, at) => ({
      record: {
        ...base,
        id: "",
        status,
        blocking: false,
        target: { kind: at.kind ?? "worktree", label: at.label },
        ...(status === "interrupted" ? { message: EARLY_INTERRUPT } : {}),
        ...(status !== "interrupted" && at.change ? nothingMessage(at.change, options.gate) : {}),
        ...(at.message ? { message: at.message } : {}),
        finishedAt: deps.now().toISOString(),
        durationMs: deps.now().getTime() - started.getTime(),
        runDir: "",
      },
      exitCode: exitCodeFor(status, false),
      change: at.change,
    }),
    storeAs: (state) => ({
      state,
      config,
      kind,
      policy,
      memoKey: options.memoKey,
      started,
      signal: deps.signal,
    }),
  };
}

/**
 * Resolve the repository and target and collect the change. An abort kills the running git child
 * (collection only reads) and ends the review as `interrupted`; a clean worktree with no target is
 * nothing to review.
 *
 * @returns the repository and change, or the outcome of a review that ended early
 */
async function collect(
  run: ReviewRun,
): Promise<{ repo: Repo; change: Change } | { outcome: ReviewOutcome<unknown> }> {
  const { options, deps } = run;
  // git calls that only read (collection) may die on an abort; the read-only proof may not.
  const gitRunner = signalled(deps.runner, deps.signal);
  const pending = { label: "change not collected", kind: options.target?.kind };
  try {
    if (run.aborted()) return { outcome: run.early("interrupted", pending) };
    const repo = options.repo ?? await resolveRepo(gitRunner, options.cwd);
    // no target: the working tree, and nothing to review when its snapshot holds no change
    const target = options.target ?? WORKTREE;
    if (run.aborted()) return { outcome: run.early("interrupted", pending) };
    const budgets = run.identity.budgets;
    const exclude = pathFilterFor(gitRunner, repo, {
      config: options.config,
      rules: options.rules ?? LOCAL_RULES,
    });
    // a review that will ask a model prepares the call's setting while the patch is read
    const onListed = asksAhead(run)
      ? (listed: { tree: string; files: number }) => {
        if (listed.files > 0) prepareSetting(run, repo, listed.tree);
      }
      : undefined;
    const change = await collectChange(gitRunner, {
      repo,
      target,
      budgets,
      exclude,
      onListed,
      worktree: run.worktree,
    });
    if (!options.target && isCleanWorktree(change)) {
      return {
        outcome: run.early("nothing-to-review", { label: "working tree", message: CLEAN_WORKTREE }),
      };
    }
    return { repo, change };
  } catch (error) {
    // a git child killed by the abort fails with a GitError: the abort is the real story
    if (run.aborted()) return { outcome: run.early("interrupted", pending) };
    throw error;
  }
}

/**
 * One structured call to the provider, decoded as the run's answer kind, inside the read-only
 * proof, in a private read-only copy of the reviewed tree (lib/session/workspace.ts) — the call's
 * setting, prepared ahead or now: only when a model is about to be asked (the call's code, too, is
 * loaded only then: a cache hit never needs it).
 */
async function askProvider(
  run: ReviewRun,
  at: { repo: Repo; change: Change; prompt: string },
): Promise<CallOutcome<unknown>> {
  const { options, deps, adapter, kind } = run;
  const { config } = options;
  const decoderKind = kind.decoder(options.kindInput, at.change);
  deps.onProviderStart?.(adapter.name);
  const bin = resolveBinary(adapter, deps.env, options.cwd);
  const setting = prepareSetting(run, at.repo, at.change.toTree ?? at.change.to);
  const { callStructured } = await import("../session/call.ts");
  return await setting.use((workspace, proof) =>
    callStructured({
      adapter,
      bin,
      request: {
        prompt: at.prompt,
        schema: kind.schema,
        root: at.repo.root,
        model: config.model,
        maxTurns: config.max_turns,
      },
      correctivePrompt: (refusal) => kind.corrective(formatRefusal(refusal)),
      decode: async (input) =>
        (await import("../answer/decoder.ts")).decode(decoderKind, input, at.change.tree),
      runner: loadingJudge(deps.runner, decoderKind),
      timeoutMs: config.timeout_seconds * 1000,
      signal: deps.signal,
      env: deps.env,
      workspace,
      proof,
      missingBinaryMessage: missingBinaryMessage(adapter, bin),
    })
  );
}

/**
 * `runner` (of the provider calls), which starts loading the answer kind's validator once it has
 * started the first provider: the code the answer is judged with then loads while the provider
 * works, not after it answered. A failure to load is left to the decoder, which loads it again.
 */
function loadingJudge(runner: Runner, decoderKind: DecoderKind<unknown>): Runner {
  let loading = false;
  return (request) => {
    const child = runner(request);
    if (!loading) {
      loading = true;
      decoderKind.loadValidator?.().catch(() => {});
    }
    return child;
  };
}

/**
 * End a run without a model call when it needs none or may make none: none of the change can be
 * shown, the caller says not to ask (`notAsked`), the verdict is cached, or a gate's daily budget
 * is spent.
 *
 * @returns the outcome, or null when the model is to be asked
 */
async function endWithoutCall(
  run: ReviewRun,
  at: Parameters<typeof finish>[1],
  nothingShown: boolean,
): Promise<ReviewOutcome<unknown> | null> {
  const { options, deps } = run;
  if (nothingShown) return await finishNotShown(run, at);
  if (options.notAsked) {
    return await finishUncalled(run, at, { status: "not-reviewed", message: options.notAsked });
  }
  if (at.hit) return await finish(run, at, { answer: at.hit.answer });
  const stop = await budgetStop(options.config, {
    gate: options.gate,
    state: at.state,
    now: deps.now(),
  });
  return stop ? await finishUncalled(run, at, { status: "over-budget", message: stop }) : null;
}

/** Most omitted files a not-reviewed message names. */
const NAMED_IN_MESSAGE = 5;

/**
 * Store a review none of whose change could be shown to the model as `not-reviewed` (exit 3),
 * with a message naming what was left out and why.
 */
async function finishNotShown(
  run: ReviewRun,
  at: { start: RunStart; state: string; change: Change },
): Promise<ReviewOutcome<unknown>> {
  const omitted = at.change.coverage.omitted;
  const named = omitted.slice(0, NAMED_IN_MESSAGE)
    .map((o) => `${JSON.stringify(o.path)} (${OMIT_REASON_TEXT[o.reason]})`);
  const rest = omitted.length - named.length;
  const excluded = at.change.excludedByRule.length
    ? `; excluded by rule: ${excludedList(at.change.excludedByRule)}`
    : "";
  const message = `nothing in this change could be shown to the model, so it was not asked: ${
    named.join(", ")
  }${rest > 0 ? ` and ${rest} more` : ""}${excluded}`;
  return await finishUncalled(run, at, { status: "not-reviewed", message });
}

/** Store a review that ended without a model call (not-reviewed, over-budget) with why. */
async function finishUncalled(
  run: ReviewRun,
  at: { start: RunStart; state: string; change: Change },
  end: { status: "not-reviewed" | "over-budget"; message: string },
): Promise<ReviewOutcome> {
  const { record, warnings } = await storeRun(at.start, {
    ...run.storeAs(at.state),
    status: end.status,
    blocking: false,
    hit: null,
    message: end.message,
    finished: run.deps.now(),
  });
  return {
    record,
    exitCode: exitCodeFor(end.status, false),
    change: at.change,
    ...(warnings.length > 0 ? { storeWarnings: warnings } : {}),
  };
}

/** What {@linkcode finish} needs of the review so far. */
interface Finishing {
  start: RunStart;
  state: string;
  hit: CacheEntry<unknown> | null;
  change: Change;
  acks: ReviewAcks;
  /** The team's guidelines for any of the change's paths (a part's, in a review in parts). */
  guidelines: GuidelineChooser;
}

/**
 * Review the plan's chunks in several calls (lib/review/parts.ts) and store the merged verdict.
 *
 * @throws whatever the state dir or the proof's snapshots throw
 */
async function finishInParts(
  run: ReviewRun,
  at: Finishing & { hit: null; repo: Repo; parts: KindParts },
): Promise<ReviewOutcome<unknown>> {
  const { options, deps } = run;
  const { config } = options;
  const providers = (run.council.length > 0 ? run.council : [run.adapter]).map((adapter) => {
    const bin = resolveBinary(adapter, deps.env, options.cwd);
    return { adapter, bin, missingBinaryMessage: missingBinaryMessage(adapter, bin) };
  });
  deps.onProviderStart?.(providers.map((p) => p.adapter.name).join(", "));
  const waves = Math.ceil(at.change.chunks.length * providers.length / config.jobs);
  const callTimeoutMs = config.timeout_seconds * 1000;
  const deadline = Math.min(options.deadline ?? Infinity, Date.now() + callTimeoutMs * waves);
  const setting = prepareSetting(run, at.repo, at.change.toTree ?? at.change.to);
  const decoder = run.kind.decoder(options.kindInput, at.change);
  const { reviewInParts } = await import("./parts.ts");
  const result = await setting.use((workspace, proof) =>
    reviewInParts({
      change: at.change,
      repo: at.repo,
      providers,
      // a model name is one provider's: a council asks each provider's default model
      model: run.council.length > 0 ? undefined : config.model,
      maxTurns: config.max_turns,
      kind: { ...run.kind, parts: at.parts },
      kindInput: options.kindInput,
      decoder,
      variant: options.kind,
      focus: options.focus,
      agentMessage: options.agentMessage,
      acks: at.acks,
      guidelines: at.guidelines,
      config,
      schemaHash: run.identity.schemaHash,
      templateHash: run.identity.templateHash,
      state: at.state,
      useCache: options.useCache && config.cache,
      runner: loadingJudge(deps.runner, decoder),
      env: deps.env,
      signal: deps.signal,
      deadline,
      callTimeoutMs,
      jobs: config.jobs,
      workspace,
      proof,
      onPartial: options.onPartial ?? "block",
    })
  );
  const planned = at.change.chunks.length;
  const ok = result.answeredBy.size;
  const coverage = { ...result.coverage, chunks: { planned, reviewed: ok, failed: planned - ok } };
  // A part that could not run, or a council member that did not answer a part, is not in the
  // verdict: never reuse it for the whole change (a cache hit recomputes coverage as complete).
  const everyone = [...result.answeredBy.values()].every((by) => by.length >= providers.length);
  const cacheable = ok === planned && everyone;
  return await finish(run, at, {
    answer: result.outcome.answer,
    outcome: result.outcome,
    extras: { coverage, parts: result.parts, findingSources: result.sources, cacheable },
    council: run.council.length > 0
      ? { providers: providers.map((p) => p.adapter.name), answeredBy: result.answeredBy }
      : undefined,
  });
}

/** Decide status and blocking, store the run, and build the outcome. */
async function finish(
  run: ReviewRun,
  at: Finishing,
  result: {
    answer?: unknown;
    outcome?: CallOutcome<unknown>;
    extras?: Pick<FinishedRun, "coverage" | "parts" | "findingSources" | "cacheable">;
    /** A council's providers and, per part, who answered it (each finding's agreement). */
    council?: { providers: string[]; answeredBy: Map<number, string[]> };
  },
): Promise<ReviewOutcome<unknown>> {
  const { outcome } = result;
  const { kind, policy } = run;
  const switches = run.options.switches ?? new Set<string>();
  const status: ReviewStatus = result.answer !== undefined
    ? kind.status(result.answer)
    : outcome!.status as ReviewStatus;
  const sources = result.extras?.findingSources;
  // merged answers (parts, council) are judged per report, by the kind (a council's agreements)
  const council = result.council
    ? { ...result.council, policy: run.options.config.council_policy }
    : undefined;
  const settled = result.answer !== undefined && kind.parts && sources
    ? await kind.parts.settle(result.answer, { sources, policy, council })
    : { answer: result.answer };
  const { answer, agreements } = settled;
  const findingNotes = answer !== undefined && kind.findings
    ? noteFindings(await kind.findings.fingerprints(answer, at.change.tree), at.acks.active)
    : undefined;
  if (findingNotes && agreements) {
    findingNotes.forEach((note, i) => (note.agreement = agreements[i]));
  }
  // A gate with on_partial "block" stops a partially reviewed change: the record says so, so the
  // ledger and `stats` count the block the user saw.
  const partialBlocks = run.options.onPartial === "block" &&
    (result.extras?.coverage ?? at.start.coverage)?.status === "partial";
  const blocking = answer !== undefined
    ? kind.blocking(answer, { policy, switches, notes: findingNotes }) || partialBlocks
    : false;
  const { record, warnings } = await storeRun(at.start, {
    ...run.storeAs(at.state),
    ...result.extras,
    status,
    blocking,
    answer,
    findingNotes,
    outcome,
    hit: at.hit,
    finished: run.deps.now(),
  });
  const last = outcome?.attempts.at(-1);
  const decoder = new TextDecoder();
  return {
    record,
    answer,
    exitCode: exitCodeFor(status, blocking),
    rawOutput: last
      ? { stdout: decoder.decode(last.stdout), stderr: decoder.decode(last.stderr) }
      : undefined,
    change: at.change,
    ...(warnings.length > 0 ? { storeWarnings: warnings } : {}),
  };
}
