/**
 * jsonc-parser's syntax errors in words (pure): what is wrong, what was found instead, and the
 * line and column where it is, for a person fixing a config or settings file. jsonc-parser reports
 * an error as a `ParseErrorCode` number with an offset and a length (its `ParseErrorCode` enum,
 * jsonc-parser 3.x `main.d.ts`); its own `printParseErrorCode` gives only the code's name
 * (`CloseBraceExpected`).
 *
 * @module
 */

/** One jsonc-parser error: its `ParseErrorCode`, and the offset and length of the text at fault. */
export interface JsoncSyntaxError {
  error: number;
  offset: number;
  length: number;
}

/** What each `ParseErrorCode` means, by its number (jsonc-parser's enum). */
const WORDS: Readonly<Record<number, string>> = {
  1: 'unexpected text (keys and strings need double quotes; a value is a "string", a number, true, false, null, {…} or […])',
  2: "a number is not written the JSON way",
  3: 'expected a key in double quotes (or a "}" closing the object)',
  4: "expected a value",
  5: 'expected ":" after the key',
  6: 'expected "," between two entries',
  7: 'expected "}" to close an object',
  8: 'expected "]" to close a list',
  9: "unexpected text after the end of the JSON value",
  10: "a comment must start with // or /*",
  11: 'a /* comment is not closed with "*/"',
  12: 'a string is not closed with a double quote (")',
  13: "a number is cut off",
  14: "a \\u escape in a string needs four hexadecimal digits",
  15: "a backslash in a string starts no valid escape (write \\\\ for a backslash)",
  16: "a string holds a control character (such as a tab or a line break): write it as an escape",
};

/** Most characters of the text at fault quoted in a message. */
const MAX_FOUND = 24;

/**
 * A syntax error in words, with its place: `line 3, column 1: expected "}" to close an object,
 * found the end of the file`.
 *
 * @param text the whole text parsed
 * @param error the first error jsonc-parser reported
 * @returns the description (no trailing period)
 */
export function describeJsoncError(text: string, error: JsoncSyntaxError): string {
  const what = WORDS[error.error] ?? `syntax error (jsonc-parser code ${error.error})`;
  const { line, column } = lineAndColumn(text, error.offset);
  return `line ${line}, column ${column}: ${what}, found ${foundAt(text, error)}`;
}

/**
 * The text at fault: `the end of the file`, `the string "abc"`, or `"x"` — cut at
 * {@linkcode MAX_FOUND} characters, control characters written as escapes.
 */
function foundAt(text: string, error: JsoncSyntaxError): string {
  if (error.offset >= text.length) return "the end of the file";
  const token = text.slice(error.offset, error.offset + Math.max(1, error.length));
  const cut = token.length > MAX_FOUND ? token.slice(0, MAX_FOUND) + "…" : token;
  // deno-lint-ignore no-control-regex -- the control characters are what this escapes
  const shown = cut.replace(/[\u0000-\u001f\u007f]/g, escapeControl);
  return shown.startsWith('"') ? `the string ${shown}` : `"${shown}"`;
}

/** `\n` → `\\n`, other controls → `\\u00XX` (DEL included, which JSON leaves as it is). */
function escapeControl(c: string): string {
  const json = JSON.stringify(c).slice(1, -1);
  return json === c ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : json;
}

/**
 * The 1-based line and column of an offset (columns count UTF-16 code units, as editors that
 * show a column for JSON do for text without astral characters).
 */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}
