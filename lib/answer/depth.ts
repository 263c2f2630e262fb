/**
 * Nesting depth of an answer, measured without recursion so that a hostile answer (`[[[[…]]]]`
 * ten thousand levels deep is 20 KB) cannot overflow the stack of the recursive steps that follow
 * (jsonc-parser's visitor, ajv, coherence). The decoder refuses an answer nested deeper than
 * {@linkcode MAX_ANSWER_DEPTH} before any of them runs. Pure.
 *
 * @module
 */

import type { Refusal } from "./types.ts";

/** Deepest nesting an answer may have; a review answer needs 3 (answer → findings → finding). */
export const MAX_ANSWER_DEPTH = 64;

/**
 * Deepest nesting of objects and arrays in JSON text; brackets inside strings do not count. The text
 * need not be valid JSON (an unbalanced close bracket is ignored).
 *
 * @param text JSON text
 * @returns levels: 0 for a scalar, 1 for `{}` or `[1]`, 2 for `{"a":[]}`
 * @example
 * ```ts
 * import { textDepth } from "./depth.ts";
 * textDepth('{"a":[{"b":"[[["}]}'); // 3
 * ```
 */
export function textDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if ((c === 0x7d || c === 0x5d) && depth > 0) {
      depth--;
    }
  }
  return max;
}

/**
 * Deepest nesting of objects and arrays in a parsed value (iterative walk; no recursion).
 *
 * @param value a JSON value (e.g. Claude's `structured_output`)
 * @returns levels, counted as {@linkcode textDepth} counts them
 */
export function valueDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    const level = depth + 1;
    if (level > max) max = level;
    for (const child of Object.values(item)) {
      if (typeof child === "object" && child !== null) stack.push([child, level]);
    }
  }
  return max;
}

/**
 * The refusal for an answer nested too deeply, or none.
 *
 * @param depth the answer's nesting depth (levels)
 * @param max the most allowed, default {@linkcode MAX_ANSWER_DEPTH}
 * @returns `[]` when `depth ≤ max`, else one whole-answer refusal
 *   ("the answer is nested N levels deep (at most 64)…")
 */
export function depthRefusal(depth: number, max: number = MAX_ANSWER_DEPTH): Refusal[] {
  if (depth <= max) return [];
  return [{
    path: "",
    problem:
      `the answer is nested ${depth} levels deep (at most ${max}): reply with the flat JSON object the schema describes`,
  }];
}
