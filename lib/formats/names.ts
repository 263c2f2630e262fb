/**
 * The output formats' names, without their renderers: what the command line offers as choices
 * loads this alone. `lib/formats/registry.ts` maps each name to its renderer (the compiler checks
 * that the two agree).
 *
 * @module
 */

/** Names of the output formats, in the order help lists them. */
export const FORMAT_NAMES = [
  "terminal",
  "json",
  "markdown",
  "sarif",
  "rdjson",
  "rdjsonl",
  "github",
] as const;

/** Names of the output formats. */
export type FormatName = typeof FORMAT_NAMES[number];
