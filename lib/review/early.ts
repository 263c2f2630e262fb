/**
 * The outcome of a review that ends before its run folder exists (no run is stored): interrupted
 * before the provider started, nothing to review, or every changed file excluded by rule — which is
 * `not-reviewed`, never "nothing": no model saw any of it.
 *
 * @module
 */
import type { Change, ExcludedFile } from "../git/types.ts";
import { excludedLine } from "../git/coverage_text.ts";
import { excludedList } from "../rules/report.ts";
import { PLATFORM_METADATA } from "../rules/filters.ts";
import { exitCodeFor } from "./exit_code.ts";
import type { RunBase } from "./open_run.ts";
import type { ReviewOutcome } from "./types.ts";

/** How a review ended early, and what it had got to. */
export interface EarlyEnd {
  status: "nothing-to-review" | "not-reviewed" | "interrupted";
  /** The target's label ("working tree", "change not collected", the change's own). */
  label: string;
  /** The target's kind, when known. */
  kind?: string;
  /** The collected change, when it was. */
  change?: Change;
  message?: string;
}

const EARLY_INTERRUPT = "Interrupted before the provider started";

/** Why a plain `review` of a clean working tree has nothing to review, and what to run instead. */
export const CLEAN_WORKTREE =
  "it has no uncommitted changes; to review this branch's commits use --base <ref> (e.g. --base main), --commit <rev> or --range A..B";

/**
 * A collected change's early end: `interrupted`, or — when no file is left to review —
 * `not-reviewed` when rules excluded them, else `nothing-to-review` (also when the only files
 * excluded are the OS's own metadata: lib/rules/filters.ts `PLATFORM_METADATA`).
 */
export function changeEnd(change: Change, interrupted: boolean): EarlyEnd {
  // the OS's own metadata (Finder's .DS_Store) is no code: a change of only that is nothing
  const code = change.excludedByRule.filter((e) => e.rule !== `default: ${PLATFORM_METADATA}`);
  const status = interrupted
    ? "interrupted"
    : code.length > 0
    ? "not-reviewed"
    : "nothing-to-review";
  return { status, label: change.label, kind: change.target.kind, change };
}

/**
 * The outcome of a review that ended early (exit 0, 3 or 130), its record unstored (`id` and
 * `runDir` empty).
 *
 * @param base the record fields known when it ended (the rules report once the change is collected)
 * @param end how it ended
 * @param at when the review started, the gate asking (none: by hand), the clock
 */
export function endEarly(
  base: RunBase,
  end: EarlyEnd,
  at: { started: Date; gate?: string; now: () => Date },
): ReviewOutcome<unknown> {
  const { status } = end;
  return {
    record: {
      ...base,
      id: "",
      status,
      blocking: false,
      target: { kind: end.kind ?? "worktree", label: end.label },
      ...(status === "interrupted" ? { message: EARLY_INTERRUPT } : {}),
      ...(status !== "interrupted" && end.change ? nothingMessage(end.change, at.gate) : {}),
      ...(end.message ? { message: end.message } : {}),
      finishedAt: at.now().toISOString(),
      durationMs: at.now().getTime() - at.started.getTime(),
      runDir: "",
    },
    exitCode: exitCodeFor(status, false),
    change: end.change,
  };
}

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
