/**
 * Test helper: the coverage invariant every plan keeps — the diff bytes it reports reviewed plus
 * those it reports left out never exceed the diff's own size (nothing is counted twice, however
 * often a part repeats a header, a context line or a long line). Test-only; never imported by lib
 * code.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Coverage } from "./types.ts";

/** Reasons whose bytes are sizes of content git did not print as diff text (blob sizes). */
const OUTSIDE_THE_DIFF = new Set(["binary", "undecodable", "submodule"]);

/**
 * Assert that `coverage` counts no more bytes than the diff has.
 *
 * @param coverage a plan's (or a review's) coverage
 * @param diffBytes bytes of the diff text as git printed it (headers and hunks of every file)
 * @throws {assert.AssertionError} when reviewed plus omitted diff bytes exceed `diffBytes`, or a
 *   count is negative
 */
export function assertCoverageWithinDiff(coverage: Coverage, diffBytes: number): void {
  const outside = coverage.omitted
    .filter((o) => OUTSIDE_THE_DIFF.has(o.reason))
    .reduce((n, o) => n + o.bytes, 0);
  const omitted = coverage.omittedBytes - outside;
  assert.ok(coverage.reviewedBytes >= 0 && omitted >= 0, JSON.stringify(coverage));
  assert.ok(
    coverage.reviewedBytes + omitted <= diffBytes,
    `coverage counts ${coverage.reviewedBytes} reviewed + ${omitted} omitted bytes of a ` +
      `${diffBytes}-byte diff`,
  );
}
