/**
 * Neutralise control characters in text that came from a model (or a repository) before it reaches
 * a terminal: ANSI escape sequences could otherwise recolour, move the cursor, rewrite earlier lines
 * (hiding a finding) or set the window title, and Unicode bidi controls could reorder what is shown
 * (Trojan Source). Newlines and tabs stay; every other C0/C1 control character, DEL, the bidi
 * embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069) and the LRM/RLM marks
 * (U+200E, U+200F) become a visible `\u{…}` escape.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Make text safe to print on a terminal.
 *
 * @param text untrusted text
 * @returns the same text with control characters (except `\n`, `\t`) and bidi controls shown as
 *   `\u{1b}`, `\u{202e}` etc.
 * @example
 * ```ts
 * import { sanitizeForTerminal } from "./sanitize.ts";
 * import { equal } from "node:assert/strict";
 * equal(sanitizeForTerminal("a\x1b[2Jb\n"), "a\\u{1b}[2Jb\n");
 * ```
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(CONTROL, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

const LINE_BREAKS = /[\t\n\r\u0085\u2028\u2029]/g;

/**
 * Make untrusted text safe as one line of a log: {@linkcode sanitizeForTerminal}, and line breaks
 * and tabs too (`\n` → `\u{a}`, also CR, NEL, U+2028/U+2029), so no part of it starts a line of
 * its own — under GitHub Actions a line of stderr that starts with `::` is a workflow command
 * (`::error …`, `::stop-commands::`), so a shard file's message must never begin one.
 *
 * @param text untrusted text (a shard file's message, a file name, a change's label)
 * @returns one line, no control character left
 * @example
 * ```ts
 * import { sanitizeLine } from "./sanitize.ts";
 * import { equal } from "node:assert/strict";
 * equal(sanitizeLine("x\n::error::y"), "x\\u{a}::error::y");
 * ```
 */
export function sanitizeLine(text: string): string {
  return sanitizeForTerminal(text).replace(
    LINE_BREAKS,
    (c) => `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
}
