/**
 * How review-gate writes how long something took, so every command rounds alike (`review` and
 * `result` print a review's time, `status` a job's): tenths of a second.
 *
 * @module
 */

/**
 * A duration in seconds with one decimal, e.g. `0.8 s`, `12.0 s`.
 *
 * @param ms milliseconds (negative reads as 0)
 */
export function secondsText(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}
