/**
 * The turn gate's review of one agent turn (docs/design.md "Turn gate"): baseline tree → current
 * tree, with the team's guidelines and path filters read from the baseline tree (lib/rules/),
 * bounded by the gate's internal deadline and the hook's abort signal, reduced to the
 * {@linkcode StoredVerdict} the session file keeps. The review pipeline is loaded only here, so the
 * gate's fast paths never pay for it.
 *
 * @module
 */
import type { Config } from "../../config/config.ts";
import type { Repo } from "../../git/repo.ts";
import type { HookInput } from "../hook_io.ts";
import type { StoredVerdict } from "./decision.ts";
import type { RunRecord } from "../../store/run_record.ts";
import type { ReviewOptions } from "../../review/run_review.ts";
import type { Change } from "../../git/types.ts";

/** The turn to review. */
export interface TurnReview {
  repo: Repo;
  config: Config;
  /** Tree id recorded at the start of the turn. */
  baseline: string;
  /** Tree id of the worktree now. */
  current: string;
  /** Epoch ms by which the review must be over (the provider gets the rest, less 2 s). */
  deadline: number;
  /** Target label, e.g. "this Claude turn's changes". */
  label: string;
  /** What the agent said about the change, carried into the prompt as data. */
  agentMessage?: string;
  /** The gate's `on_partial`: whether a multi-call review may stand with a part that failed. */
  onPartial?: "allow" | "block";
  /** The gate's name (`claude-stop`), recorded in the ledger and held to the daily budget. */
  gate: string;
  /**
   * The gate's `mode` at the Stop (README "Warn first"): recorded in the ledger with what would
   * have blocked; the Stop's decision is lib/gates/turn/decision.ts's. Absent for background work.
   */
  gateMode?: import("../../config/config.ts").GateMode;
  /** The hook's time in seconds (the gate's `timeout_seconds`), for "too large to review in N s". */
  seconds?: number;
}

/**
 * Review `baseline → current` with the verdict cache on; the review is aborted at the deadline or
 * when `input.signal` aborts. Acknowledgements come from the worktree, like the config.
 *
 * @returns the verdict (with what was not reviewed when coverage was partial), what each part of
 *   the plan cost ({@linkcode PartUsage}, when the change was collected), and `couldNotRun`
 *   when the review gave no answer (and was neither nothing-to-review nor not-reviewed, which the
 *   same trees give again) or a part of it did not answer, so the verdict must not be reused
 *   (a review the deadline cut before the provider started, or whose step it killed, is
 *   "not-reviewed": too large to review in the hook's time, and `on_partial` decides)
 * @throws whatever lib/review/run_review.ts `runReview` throws (git, usage, store errors), except
 *   a failure after the deadline aborted it
 */
export async function reviewTurn(
  input: HookInput,
  turn: TurnReview,
): Promise<{ verdict: StoredVerdict; couldNotRun: boolean; parts?: PartUsage[] }> {
  const { config } = turn;
  const remaining = (turn.deadline - input.now().getTime()) / 1000;
  const controller = new AbortController();
  let outOfTime = false;
  const timer = setTimeout(() => {
    outOfTime = !input.signal?.aborted;
    controller.abort(new Error("deadline"));
  }, Math.max(1, remaining) * 1000);
  const onAbort = () => controller.abort(input.signal?.reason);
  input.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const { runReview } = await import("../../review/run_review.ts");
    const { blockingFindings, notesByFinding, policyOf } = await import(
      "../../kinds/review/policy.ts"
    );
    const { withFingerprints } = await import("../messages.ts");
    const outcome = await runReview(
      {
        ...turnReviewOptions(turn),
        config: {
          ...config,
          timeout_seconds: Math.max(1, Math.min(config.timeout_seconds, remaining - 2)),
        },
        deadline: turn.deadline - 2000,
      },
      { runner: input.runner, env: input.env, now: input.now, signal: controller.signal },
    ).catch((error: unknown) => {
      // a step our deadline cut (the tree copy's git killed) fails the run: out of time, not broken
      if (!outOfTime) throw error;
      return { record: null, answer: undefined, error };
    });
    if (!outcome.record) return cutShort((outcome as { error: unknown }).error, turn);
    const { record, answer } = outcome;
    const notes = record.findingNotes;
    // Our own deadline aborted the review: that is running out of time, not an interrupt.
    const timedOut = outOfTime && record.status === "interrupted";
    // Cut before the provider started: collecting the change took the whole time — too large to
    // review in the hook's time, so none of it was seen (`on_partial` decides, not `on_error`).
    const tooLarge = timedOut && /before the provider started/.test(record.message ?? "");
    const verdict: StoredVerdict = {
      status: tooLarge ? "not-reviewed" : timedOut ? "timeout" : record.status,
      runDir: record.runDir,
      message: timedOut ? outOfTimeMessage(record.message, turn) : record.message,
      blocking: answer
        ? withFingerprints(
          blockingFindings(answer, policyOf(config), notes),
          notesByFinding(answer, notes),
        )
        : [],
    };
    if (outcome.answer) await nameLeftOut(verdict, record);
    const settled = outcome.answer || record.status === "nothing-to-review" ||
      record.status === "not-reviewed";
    // a part the model did not answer (timeout, crash) is asked again by the next stop — the
    // answered parts from the per-part cache — so a verdict missing it is never remembered
    const failedPart = record.parts?.some((p) => p.status !== "ok") ?? false;
    return { verdict, couldNotRun: !settled || failedPart, parts: partsUsage(outcome) };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * The review options of a turn's change, the same for the Stop's review and the background reviews
 * made while the agent works (lib/gates/turn/work_round.ts): the same target, rules, kind, config
 * and cache, so both plan the same parts and key the same verdicts.
 *
 * @param turn the turn (its `deadline` is not used: each caller bounds its own review)
 */
export function turnReviewOptions(
  turn: Omit<TurnReview, "deadline">,
): ReviewOptions {
  const { repo, baseline, current } = turn;
  return {
    cwd: repo.root,
    repo,
    target: { kind: "tree", from: baseline, to: current, label: turn.label },
    // REVIEW.md and .gitattributes as they were when the turn started: the turn's own edits
    // to them are reviewed like code and apply from the next turn on
    rules: { from: { kind: "tree", tree: baseline, label: "turn baseline" }, untrusted: false },
    kind: "review",
    agentMessage: turn.agentMessage,
    config: turn.config,
    useCache: true,
    onPartial: turn.onPartial,
    gate: turn.gate,
    ...(turn.gateMode ? { gateMode: turn.gateMode } : {}),
  };
}

/** One part of a review's plan: its digest, whether its verdict came from the cache, its calls. */
export interface PartUsage {
  /** sha256 of the part's diff (lib/git/types.ts `ChangeChunk.digest`). */
  digest: string;
  cached: boolean;
  /** Model calls the review made for it (a corrective resume is one more). */
  calls: number;
}

/** What each part of a finished review cost: cached or asked, and how many calls. */
export function partsUsage(
  outcome: { record: Pick<RunRecord, "parts" | "attempts" | "cached">; change?: Change },
): PartUsage[] | undefined {
  const chunks = outcome.change?.chunks;
  if (!chunks || chunks.length === 0) return undefined;
  const { record } = outcome;
  if (!record.parts) {
    // the whole change's verdict from the cache (every part of it), or one call for one part
    if (record.cached) {
      return chunks.map((c) => ({ digest: c.digest ?? "", cached: true, calls: 0 }));
    }
    return [{ digest: chunks[0].digest ?? "", cached: false, calls: record.attempts.length }];
  }
  return chunks.map((chunk, i) => ({
    digest: chunk.digest ?? "",
    cached: record.parts!.find((p) => p.part === i + 1)?.cached === true,
    calls: record.attempts.filter((a) => a.part === i + 1).length,
  }));
}

/** Name on an answered verdict the files left out by rule, and what partial coverage left out. */
async function nameLeftOut(
  verdict: StoredVerdict,
  record: Pick<RunRecord, "rules" | "coverage">,
): Promise<void> {
  const excluded = record.rules?.excluded ?? [];
  if (excluded.length > 0) {
    // a review that left files out by rule names them in the gate's own answer
    verdict.excluded = (await import("../../rules/report.ts")).excludedList(excluded);
  }
  if (record.coverage?.status === "partial") {
    const { partialSummary } = await import("../../git/coverage_text.ts");
    verdict.partial = partialSummary(record.coverage);
  }
}

/**
 * The verdict of a review that failed because the gate's own deadline killed one of its steps (the
 * tree copy's git): too large to review in the hook's time — NOT reviewed, never "the gate failed".
 */
function cutShort(
  error: unknown,
  turn: { gate: string; seconds?: number },
): { verdict: StoredVerdict; couldNotRun: boolean } {
  const why = error instanceof Error ? error.message : String(error);
  const setting = `gates.${turn.gate.replace("-", "_")}.timeout_seconds`;
  const within = turn.seconds ? ` in ${turn.seconds} s` : " in the hook's time";
  const message =
    `too large to review${within}: the Stop hook's deadline cut the review short (${why}); raise ${setting} to give it longer`;
  return {
    verdict: { status: "not-reviewed", runDir: "", message, blocking: [] },
    couldNotRun: true,
  };
}

/**
 * What a review cut by the gate's own deadline says: too large to review in the hook's time when
 * the run never reached the provider, else it ran out of time before the review finished — never
 * "interrupted".
 *
 * @param message the run's message ("Interrupted before the provider started" or another)
 * @param turn the gate's name, for the setting that gives it more time, and the hook's seconds
 */
function outOfTimeMessage(
  message: string | undefined,
  turn: { gate: string; seconds?: number },
): string {
  const setting = `gates.${turn.gate.replace("-", "_")}.timeout_seconds`;
  if (/before the provider started/.test(message ?? "")) {
    const within = turn.seconds ? ` in ${turn.seconds} s` : " in the hook's time";
    return `too large to review${within}: ran out of time before the provider started (collecting the change took the whole time); raise ${setting} to give it longer`;
  }
  return `ran out of time before the review finished: the Stop hook's deadline passed; raise ${setting} to give it longer`;
}
