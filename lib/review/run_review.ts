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
import { getKind } from "../kinds/registry.ts";
import { formatRefusal } from "../answer/refusal.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import type { Config } from "../config/config.ts";
import type { ExecRequest, Runner } from "../exec/exec.ts";
import { collectChange } from "../git/collect.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
import { compareSnapshots, takeSnapshot } from "../git/snapshot.ts";
import { autoTarget } from "../git/target.ts";
import type { Change, Target } from "../git/types.ts";
import { getProvider, missingBinaryMessage, resolveBinary } from "../providers/registry.ts";
import { type CallOutcome, callStructured } from "../session/call.ts";
import { cacheKey, readCache } from "../store/cache.ts";
import { ensureStateDir } from "../store/state.ts";
import { answerStatus, blockingFindings, policyOf } from "../kinds/review/policy.ts";
import { exitCodeFor } from "./exit_code.ts";
import { verdictIdentity } from "./identity.ts";
import {
  buildCorrectivePrompt,
  buildReviewPrompt,
  type ReviewKind,
} from "../kinds/review/prompt.ts";
import { openRun } from "./open_run.ts";
import { storeRun } from "./store_run.ts";
import type { ReviewResult, ReviewStatus } from "../store/run_record.ts";

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
}

/** What to review and how. */
export interface ReviewOptions {
  /** Directory inside the repository. */
  cwd: string;
  /** What to review; `undefined` = the working tree when dirty, else nothing. */
  target?: Target;
  kind: ReviewKind;
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
   * Verdict memo key of an immutable target (lib/store/verdict_memo.ts); on success it is pointed
   * at this verdict, so the next gate run for the same target skips collecting the change.
   */
  memoKey?: string;
}

/** A finished review and its exit code. */
export interface ReviewOutcome extends ReviewResult {
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
export async function runReview(options: ReviewOptions, deps: ReviewDeps): Promise<ReviewOutcome> {
  const { config } = options;
  const started = deps.now();
  const aborted = () => deps.signal?.aborted === true;
  // git calls that only read (collection) may die on an abort; the read-only proof may not.
  const gitRunner = signalled(deps.runner, deps.signal);
  const adapter = getProvider(config.provider);
  const policy = policyOf(config);
  const base = {
    reviewKind: options.kind,
    focus: options.focus,
    provider: adapter.name,
    model: config.model,
    startedAt: started.toISOString(),
    attempts: [],
    cached: false,
  };
  const identity = await verdictIdentity(config, { kind: options.kind, focus: options.focus });
  const early = (
    status: "nothing-to-review" | "interrupted",
    at: { label: string; kind?: string; change?: Change },
  ): ReviewOutcome => ({
    record: {
      ...base,
      id: "",
      status,
      blocking: false,
      target: { kind: at.kind ?? "worktree", label: at.label },
      ...(status === "interrupted" ? { message: EARLY_INTERRUPT } : {}),
      finishedAt: deps.now().toISOString(),
      durationMs: deps.now().getTime() - started.getTime(),
      runDir: "",
    },
    exitCode: exitCodeFor(status, false),
    change: at.change,
  });
  const interrupted = (at: { label: string; kind?: string; change?: Change }) =>
    early("interrupted", at);
  const pending = { label: "change not collected", kind: options.target?.kind };

  let repo: Repo;
  let target: Target | null;
  let change: Change;
  try {
    if (aborted()) return interrupted(pending);
    repo = options.repo ?? await resolveRepo(gitRunner, options.cwd);
    target = options.target ?? await autoTarget(gitRunner, repo);
    if (aborted()) return interrupted({ ...pending, kind: target?.kind });
    if (target === null) return early("nothing-to-review", { label: "working tree (clean)" });
    change = await collectChange(gitRunner, { repo, target, budgets: identity.budgets });
  } catch (error) {
    // a git child killed by the abort fails with a GitError: the abort is the real story
    if (aborted()) return interrupted(pending);
    throw error;
  }
  const collected = { label: change.label, kind: change.target.kind, change };
  if (aborted()) return interrupted(collected);
  if (change.files.length === 0) return early("nothing-to-review", collected);

  const kind = getKind("review");
  const schema = kind.schema;
  const prompt = buildReviewPrompt(change, {
    kind: options.kind,
    schema,
    focus: options.focus,
    agentMessage: options.agentMessage,
  });
  const key = await cacheKey({
    fingerprint: change.fingerprint,
    schemaId: identity.schemaHash,
    promptTemplateHash: identity.templateHash,
    provider: adapter.name,
    model: config.model,
    focus: options.focus,
    reviewKind: options.kind,
  });
  const state = await ensureStateDir(repo.commonDir);
  const hit = options.useCache && config.cache ? await readCache<ReviewAnswer>(state, key) : null;
  if (!hit && aborted()) return interrupted(collected);

  const recordBase = await openRun(state, {
    started,
    base,
    change,
    cacheKey: key,
    cached: hit !== null,
  });

  let outcome: CallOutcome<ReviewAnswer> | undefined;
  let answer: ReviewAnswer | undefined;
  let status: ReviewStatus;
  const storeAs = { state, config, policy, memoKey: options.memoKey, started, signal: deps.signal };
  try {
    if (hit) {
      answer = hit.answer;
      status = answerStatus(answer);
    } else {
      deps.onProviderStart?.(adapter.name);
      const bin = resolveBinary(adapter, deps.env, options.cwd);
      outcome = await callStructured({
        adapter,
        bin,
        request: {
          prompt,
          schema,
          root: repo.root,
          model: config.model,
          maxTurns: config.max_turns,
        },
        correctivePrompt: (refusal) => buildCorrectivePrompt(formatRefusal(refusal), schema),
        decode: async (input) =>
          (await import("../answer/decoder.ts")).decode(kind, input, change.tree),
        runner: deps.runner,
        timeoutMs: config.timeout_seconds * 1000,
        signal: deps.signal,
        env: deps.env,
        proof: { take: () => takeSnapshot(deps.runner, repo), compare: compareSnapshots },
        missingBinaryMessage: missingBinaryMessage(adapter, bin),
      });
      answer = outcome.answer;
      status = outcome.status === "ok" ? answerStatus(outcome.answer!) : outcome.status;
    }
  } catch (error) {
    // the run folder exists: never leave its run.json "running" for a run that has ended
    const message = error instanceof Error ? error.message : String(error);
    await storeRun(recordBase, {
      ...storeAs,
      status: "provider-error",
      blocking: false,
      outcome,
      hit,
      message,
      finished: deps.now(),
    });
    throw error;
  }

  const blocking = answer ? blockingFindings(answer, policy).length > 0 : false;
  const finished = deps.now();
  const { record, warnings } = await storeRun(recordBase, {
    ...storeAs,
    status,
    blocking,
    answer,
    outcome,
    hit,
    finished,
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
    change,
    ...(warnings.length > 0 ? { storeWarnings: warnings } : {}),
  };
}
