/**
 * Finding fingerprints (docs/design.md "Acknowledgements"): a stable id for "this
 * problem at this code", the identity acknowledgements and code-scanning alerts use. It is the
 * sha256 of the file path, the normalised title and a hash of the lines the finding points at, as
 * they read in the reviewed tree — so it survives the code moving to other line numbers (lines
 * added above it) and changes as soon as a line it points at changes. Whitespace at line ends and
 * blank lines do not count; a finding on a deleted file or past the end of its file hashes no lines
 * (file-level identity). A finding whose lines are all blank is anchored instead to the nearest
 * non-blank line above and below them (README.md "Acknowledged findings": a blank line elsewhere in the
 * file is another place, not the same one).
 *
 * @module
 */
import type { TreeView } from "../../answer/types.ts";
import { sha256Hex } from "../../base/sha256.ts";
import type { Finding } from "./types.ts";

/** Characters of a fingerprint shown to users (and the shortest prefix `ack` accepts is 8). */
export const SHORT_FINGERPRINT = 12;

const QUOTES = /^["'`\u201c\u201d\u2018\u2019\s]+|["'`\u201c\u201d\u2018\u2019\s]+$/g;

/**
 * A title as the fingerprint sees it: NFKC, lower case, whitespace collapsed, surrounding quotes
 * and backticks and trailing punctuation dropped. Digits and inner punctuation stay ("sha1" is not
 * "sha256").
 *
 * @example
 * ```ts
 * import { normalizeTitle } from "./fingerprint.ts";
 * import { equal } from "node:assert/strict";
 * equal(normalizeTitle("  Off  by ONE in page offset.\n"), "off by one in page offset");
 * equal(normalizeTitle("\u201cSQL injection\u201d!"), "sql injection");
 * ```
 */
export function normalizeTitle(title: string): string {
  let out = title.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  for (let previous = ""; previous !== out;) {
    previous = out;
    out = out.replace(QUOTES, "").replace(/[.!?:;,\u2026]+$/, "").trim();
  }
  return out;
}

/**
 * The lines `start..end` (1-based, inclusive) of a file's text as the fingerprint sees them: CRLF
 * read as LF, each line trimmed, blank lines dropped, joined by `\n`. Lines past the end are
 * simply absent.
 */
export function normalizeLines(text: string, start: number, end: number): string {
  return text.split("\n").slice(start - 1, end)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * What stands for lines `start..end` that are all blank: the nearest non-blank line above and below
 * them (trimmed; `""` at either end of the file). It starts with a line feed, which
 * {@linkcode normalizeLines} never gives, so it never reads as the text of non-blank lines. Lines
 * past the end of the file (after its last line feed) are no place in it: `""`, the file-level
 * identity.
 */
export function blankAnchor(text: string, start: number, end: number): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop(); // the empty rest after a final line feed is no line
  const first = Math.max(1, start);
  if (first > lines.length || end < first) return "";
  const trimmed = (i: number) => lines[i]?.trim() ?? "";
  let above = "";
  for (let i = first - 2; i >= 0 && above === ""; i--) above = trimmed(i);
  let below = "";
  for (let i = end; i < lines.length && below === ""; i++) below = trimmed(i);
  return `\nblank lines between\n${above}\n${below}`;
}

/**
 * The fingerprint of a finding given the text of its file (or `null` when the file is not in the
 * reviewed tree). Findings on non-blank lines keep the fingerprint they always had (acks.json's);
 * one on blank lines only is anchored by {@linkcode blankAnchor}.
 *
 * @returns 64 lowercase hex characters
 */
export async function fingerprintOf(
  finding: Pick<Finding, "file" | "title" | "line_start" | "line_end">,
  fileText: string | null,
): Promise<string> {
  let lines = fileText === null
    ? ""
    : normalizeLines(fileText, finding.line_start, finding.line_end);
  if (lines === "" && fileText !== null) {
    lines = blankAnchor(fileText, finding.line_start, finding.line_end); // trimmed: CRLF as LF
  }
  return await sha256Hex(
    ["rg-fp-v1", finding.file, normalizeTitle(finding.title), await sha256Hex(lines)].join("\0"),
  );
}

/**
 * The fingerprints of every finding of an answer, in order, reading each file once from the
 * reviewed tree.
 *
 * @param findings the decoded findings (repo-relative paths)
 * @param tree the reviewed tree the decoder judged them against
 * @returns one fingerprint per finding
 * @throws what the tree view's `text` throws (a git failure)
 */
export async function fingerprintFindings(
  findings: readonly Finding[],
  tree: Pick<TreeView, "text">,
): Promise<string[]> {
  const texts = new Map<string, string | null>();
  const out: string[] = [];
  for (const finding of findings) {
    if (!texts.has(finding.file)) texts.set(finding.file, await tree.text(finding.file));
    out.push(await fingerprintOf(finding, texts.get(finding.file)!));
  }
  return out;
}
