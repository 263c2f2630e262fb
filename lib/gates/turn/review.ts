/**
 * The turn gate's review of one agent turn (DESIGN.md "Gates"): baseline tree → current tree, with
 * the team's guidelines and path filters read from the baseline tree (lib/rules/),
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
}

/**
 * Review `baseline → current` with the verdict cache on; the review is aborted at the deadline or
 * when `input.signal` aborts. Acknowledgements come from the worktree, like the config.
 *
 * @returns the verdict (with what was not reviewed when coverage was partial), and `couldNotRun`
 *   when the review gave no answer (and was neither nothing-to-review nor not-reviewed, which the
 *   same trees give again), so the verdict must not be reused
 * @throws whatever lib/review/run_review.ts `runReview` throws (git, usage, store errors)
 */
export async function reviewTurn(
  input: HookInput,
  turn: TurnReview,
): Promise<{ verdict: StoredVerdict; couldNotRun: boolean }> {
  const { repo, config, baseline, current } = turn;
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
        cwd: repo.root,
        repo,
        target: { kind: "tree", from: baseline, to: current, label: turn.label },
        // REVIEW.md and .gitattributes as they were when the turn started: the turn's own edits
        // to them are reviewed like code and apply from the next turn on
        rules: { from: { kind: "tree", tree: baseline, label: "turn baseline" }, untrusted: false },
        kind: "review",
        agentMessage: turn.agentMessage,
        config: {
          ...config,
          timeout_seconds: Math.max(1, Math.min(config.timeout_seconds, remaining - 2)),
        },
        useCache: true,
        deadline: turn.deadline - 2000,
        onPartial: turn.onPartial,
        gate: turn.gate,
      },
      { runner: input.runner, env: input.env, now: input.now, signal: controller.signal },
    );
    const { record, answer } = outcome;
    const notes = record.findingNotes;
    // Our own deadline aborted the review: that is running out of time, not an interrupt.
    const timedOut = outOfTime && record.status === "interrupted";
    const verdict: StoredVerdict = {
      status: timedOut ? "timeout" : record.status,
      runDir: record.runDir,
      message: timedOut ? outOfTimeMessage(record.message, turn.gate) : record.message,
      blocking: answer
        ? withFingerprints(
          blockingFindings(answer, policyOf(config), notes),
          notesByFinding(answer, notes),
        )
        : [],
    };
    const excluded = record.rules?.excluded ?? [];
    if (outcome.answer && excluded.length > 0) {
      // a review that left files out by rule names them in the gate's own answer
      verdict.excluded = (await import("../../rules/report.ts")).excludedList(excluded);
    }
    if (outcome.answer && record.coverage?.status === "partial") {
      const { partialSummary } = await import("../../git/coverage_text.ts");
      verdict.partial = partialSummary(record.coverage);
    }
    const settled = outcome.answer || record.status === "nothing-to-review" ||
      record.status === "not-reviewed";
    return { verdict, couldNotRun: !settled };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * What a review cut by the gate's own deadline says: it ran out of time (before the provider
 * started, when the run never reached it), never "interrupted".
 *
 * @param message the run's message ("Interrupted before the provider started" or another)
 * @param gate the gate's name, for the setting that gives it more time
 */
function outOfTimeMessage(message: string | undefined, gate: string): string {
  const when = /before the provider started/.test(message ?? "")
    ? "before the provider started (collecting the change took the whole time)"
    : "before the review finished";
  return `ran out of time ${when}: the Stop hook's deadline passed; raise gates.${
    gate.replace("-", "_")
  }.timeout_seconds to give it longer`;
}
