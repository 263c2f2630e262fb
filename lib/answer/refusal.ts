/**
 * Refusal text: the lines the corrective prompt lists and the terminal prints when the decoder
 * refuses an answer. Pure.
 *
 * @module
 */

import type { Refusal } from "./types.ts";

/**
 * Render refusals one per line as "`/path`: problem"; the whole-answer path "" is shown as
 * "(answer): problem".
 *
 * @param refusal the decoder's refusal list
 * @returns the lines joined with "\n" (no trailing newline); "" for an empty list
 * @example
 * ```ts
 * import { formatRefusal } from "./refusal.ts";
 * formatRefusal([{ path: "/findings/0/line_end", problem: "must be >= 1" }]);
 * // "`/findings/0/line_end`: must be >= 1"
 * ```
 */
export function formatRefusal(refusal: readonly Refusal[]): string {
  return refusal
    .map(({ path, problem }) => `${path === "" ? "(answer)" : "`" + path + "`"}: ${problem}`)
    .join("\n");
}

/**
 * Keep the first `max` refusals and replace the rest with one whole-answer line counting them, so
 * a hostile answer cannot make the terminal, the transcript or the corrective prompt huge.
 *
 * @param refusal the decoder's refusal list
 * @param max how many problems to keep (≥ 1)
 * @returns the list itself when it has at most `max` entries, else `max` entries plus
 *   `{path: "", problem: "… and N more problems"}`
 */
export function capRefusal(refusal: readonly Refusal[], max: number): Refusal[] {
  if (refusal.length <= max) return [...refusal];
  const more = refusal.length - max;
  return [
    ...refusal.slice(0, max),
    { path: "", problem: `… and ${more} more problem${more === 1 ? "" : "s"}` },
  ];
}
