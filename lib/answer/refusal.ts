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
