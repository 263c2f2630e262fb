/**
 * Ending an opened run without a model call, when it needs none or may make none: none of the
 * change can be shown (`not-reviewed`), the caller says not to ask (`notAsked`: `not-reviewed`),
 * the verdict is cached (judged like a fresh one: lib/review/finish.ts), or a gate's daily budget
 * is spent (`over-budget`, lib/review/budget.ts: loaded only then, after a cache miss).
 *
 * @module
 */
import type { Change } from "../git/types.ts";
import { OMIT_REASON_TEXT } from "../git/coverage_text.ts";
import { excludedList } from "../rules/report.ts";
import { exitCodeFor } from "./exit_code.ts";
import { finish, type Judging, type RunStore } from "./finish.ts";
import { storeRun } from "./store_run.ts";
import type { ReviewOptions, ReviewOutcome } from "./types.ts";

/**
 * End the run without a model call, when it is to end so.
 *
 * @param at whether none of the change can be shown, and the state dir (the budget's ledger)
 * @returns the outcome, or null when the model is to be asked
 */
export async function endWithoutCall(
  store: RunStore,
  judging: Judging,
  options: Pick<ReviewOptions, "notAsked" | "config" | "gate">,
  at: { nothingShown: boolean; state: string },
): Promise<ReviewOutcome<unknown> | null> {
  if (at.nothingShown) return await finishNotShown(store, judging.change);
  if (options.notAsked) {
    return await finishUncalled(store, judging.change, {
      status: "not-reviewed",
      message: options.notAsked,
    });
  }
  if (judging.hit) return await finish(store, judging, { answer: judging.hit.answer });
  const { budgetStop } = await import("./budget.ts");
  const stop = await budgetStop(options.config, {
    gate: options.gate,
    state: at.state,
    now: store.now(),
  });
  return stop
    ? await finishUncalled(store, judging.change, { status: "over-budget", message: stop })
    : null;
}

/** Most omitted files a not-reviewed message names. */
const NAMED_IN_MESSAGE = 5;

/**
 * Store a review none of whose change could be shown to the model as `not-reviewed` (exit 3),
 * with a message naming what was left out and why.
 */
async function finishNotShown(store: RunStore, change: Change): Promise<ReviewOutcome<unknown>> {
  const omitted = change.coverage.omitted;
  const named = omitted.slice(0, NAMED_IN_MESSAGE)
    .map((o) => `${JSON.stringify(o.path)} (${OMIT_REASON_TEXT[o.reason]})`);
  const rest = omitted.length - named.length;
  const excluded = change.excludedByRule.length
    ? `; excluded by rule: ${excludedList(change.excludedByRule)}`
    : "";
  const message = `nothing in this change could be shown to the model, so it was not asked: ${
    named.join(", ")
  }${rest > 0 ? ` and ${rest} more` : ""}${excluded}`;
  return await finishUncalled(store, change, { status: "not-reviewed", message });
}

/** Store a review that ended without a model call (not-reviewed, over-budget) with why. */
async function finishUncalled(
  store: RunStore,
  change: Change,
  end: { status: "not-reviewed" | "over-budget"; message: string },
): Promise<ReviewOutcome<unknown>> {
  const { record, warnings } = await storeRun(store.start, {
    ...store.shared,
    status: end.status,
    blocking: false,
    hit: null,
    message: end.message,
    finished: store.now(),
  });
  return {
    record,
    exitCode: exitCodeFor(end.status, false),
    change,
    ...(warnings.length > 0 ? { storeWarnings: warnings } : {}),
  };
}
