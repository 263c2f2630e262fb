/**
 * The formats `review-gate eval` writes (docs/eval.md "The command"), as the command line lists
 * them without loading a renderer.
 *
 * @module
 */

/** Every eval format: a table, the record, a Markdown report, one self-contained HTML page. */
export const EVAL_FORMATS = ["terminal", "json", "markdown", "html"] as const;

/** One eval format. */
export type EvalFormat = typeof EVAL_FORMATS[number];
