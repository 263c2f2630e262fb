/**
 * String order that is the same on every machine (pure): UTF-16 code units, as `Array.prototype.sort`
 * orders strings by default and as git orders the paths it lists (byte order, the same for ASCII).
 * `localeCompare` with the default locale orders by the machine's language instead (`é` before or
 * after `f`, case folded or not), so a file written in that order changes from one machine to the
 * next (`.review-gate/acks.json` churn) and output differs per user.
 *
 * @module
 */

/**
 * Compare two strings by their UTF-16 code units, for `Array.prototype.sort`.
 *
 * @returns a negative number when `a` sorts first, a positive one when `b` does, 0 when equal
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(["é", "f", "B", "a"].sort(compareCodeUnits), ["B", "a", "f", "é"]);
 * ```
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
