/**
 * The status → exit code map of a review (docs/design.md "Statuses and exit codes", contract).
 * Pure.
 *
 * @module
 */
import { ExitCode } from "../base/errors.ts";
import type { ReviewStatus } from "../store/run_record.ts";

/**
 * Exit code of `review` for a finished run (contract): 0 approved / non-blocking / nothing to
 * review, 1 blocking, 3 could not run, nothing of the change could be shown (not-reviewed) or the
 * daily budget stopped a gate (over-budget), 130 interrupted.
 */
export function exitCodeFor(status: ReviewStatus, blocking: boolean): number {
  switch (status) {
    case "approved":
    case "nothing-to-review":
      return ExitCode.ok;
    case "needs-attention":
      return blocking ? ExitCode.blocking : ExitCode.ok;
    case "interrupted":
      return ExitCode.interrupted;
    case "invalid-answer":
    case "provider-error":
    case "timeout":
    case "not-reviewed":
    case "over-budget":
      return ExitCode.couldNotRun;
  }
}
