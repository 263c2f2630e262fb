/**
 * Gemini CLI and Qwen Code (a fork of it) read an unescaped `@path` in their input as a file to
 * attach — their at-command processor runs in headless mode too, and appends the file's content
 * after the prompt under "--- Content from referenced files ---", outside the diff's markers. A
 * diff line such as `+see @some-file` would then steer the reviewer with text the prompt never
 * fenced. Both leave `\@` as it is (docs/providers.md "Gemini CLI", "Qwen Code").
 *
 * @module
 */

/**
 * Escape every `@` as `\@`, so no part of a prompt is read as an at-command.
 *
 * @param text any prompt text
 * @returns the text with each `@` preceded by a backslash
 */
export function escapeAtCommands(text: string): string {
  return text.replaceAll("@", "\\@");
}

/** The line after an escaped prompt that tells the model what the backslashes are. */
export const ESCAPED_AT_NOTE =
  "\n(Every at sign in this message is written with a backslash before it.)";
