/**
 * What a review is given and gives back (lib/review/run_review.ts `runReview`): its options, the
 * I/O it needs and its outcome. The stages under lib/review/ each take what they use of these.
 *
 * @module
 */
import type { AnswerKind } from "../kinds/registry.ts";
import type { PromptVariant } from "../kinds/definition.ts";
import type { Config } from "../config/config.ts";
import type { Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { WorktreeSnapshot } from "../git/live_tree.ts";
import type { Change, Target } from "../git/types.ts";
import type { RulesOptions } from "../rules/options.ts";
import type { ReviewResult } from "../store/run_record.ts";
import type { Ack } from "../acks/types.ts";
import type { ProofScope } from "../session/proof.ts";
import type { ShardInput, ShardPartResult } from "./shard_file.ts";
import type { ShardSpec } from "../git/shards.ts";

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
  /**
   * Pathspecs relative to the repository's root the change is narrowed to (`review PATH…`,
   * lib/git/pathspecs.ts); absent: the whole change. Said in the change's label and coverage.
   */
  paths?: readonly string[];
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
   * The snapshot of `repo`'s working tree, started by the caller before the review's code loaded
   * (lib/cli/review_ahead.ts); used instead of taking one when the target is the working tree.
   */
  worktreeAhead?: Promise<WorktreeSnapshot>;
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
   * A gate's `on_partial`. A review in several calls, one of which could not run: given, the
   * others' verdict stands with the failed part named as not reviewed (partial coverage); absent
   * (a review by hand), the whole review fails. Given as "block", a verdict that saw only part of
   * the change — a failed part included — is also recorded as blocking.
   */
  onPartial?: "allow" | "block";
  /**
   * What of the repository the read-only proof watches (lib/session/proof.ts `ProofScope`):
   * default `"repository"`; a review made while the agent works proves `"private"` (docs/design.md
   * "Review while working").
   */
  proof?: ProofScope;
  /**
   * The gate asking (`pre-push`, `claude-stop`, `ci`…), recorded in the ledger; a gate's review is
   * held to `budget.usd_per_day` (none when absent: `review` by hand).
   */
  gate?: string;
  /**
   * The asking gate's `mode` (README "Warn first"): with `"warn"` the run's blocking findings do
   * not block it — `blocking` is only what `onPartial` blocks — and the run records what would
   * have (`gateMode`, `wouldBlock`: lib/store/run_record.ts), as its ledger line does. Absent or
   * `"block"`: findings block as the policy says.
   */
  gateMode?: import("../config/config.ts").GateMode;
  /**
   * Why the model must not be asked at all (CI: a fork's pull request has no secrets): the change
   * is collected and the run stored as `not-reviewed` with this message, no model call.
   */
  notAsked?: string;
  /**
   * One shard of a review split across CI runners (README "Review across a CI matrix"): only
   * this shard's parts of the plan are asked (lib/git/shards.ts), the others are named as
   * another shard's, no whole-change verdict is read or written, and the outcome's `sharded` holds
   * what its shard result file needs.
   */
  shard?: ShardSpec;
  /**
   * `review-gate merge`: the parts' answers come from these shard result files (checked against
   * this review's own plan and judged again by the decoder, lib/review/shard_merge.ts) instead of
   * a model; no model is asked, no budget applies, nothing is cached. With `refused`, none was
   * read: every part says why.
   */
  shardResults?: ShardInput;
}

/** What a shard's review or a merge adds to its outcome. */
export interface ShardedOutcome {
  /** The plan identity (lib/review/shard_identity.ts); absent when the review ended before it. */
  identity?: string;
  /** A shard: each of its parts' results, per provider. */
  results?: ShardPartResult[];
  /** A merge: what it found in the files given, one line each (which shard, which parts). */
  notes?: string[];
}

/** The answer type a run record has by default (lib/store/run_record.ts): a review answer. */
export type RecordAnswer = NonNullable<ReviewResult["answer"]>;

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
  /** A shard's review or a merge (`shard`, `shardResults`): what they need beyond the record. */
  sharded?: ShardedOutcome;
}
