/**
 * Finding fingerprints (docs/design.md "Acknowledgements"): a stable id for "this
 * problem at this code", the identity acknowledgements and code-scanning alerts use. It is the
 * sha256 of the file path, the normalised title and a hash of the lines the finding points at, as
 * they read in the reviewed tree — so it survives the code moving to other line numbers (lines
 * added above it) and changes as soon as a line it points at changes. Whitespace at line ends and
 * blank lines do not count; a finding on a deleted file or past the end of its file hashes no lines
 * (file-level identity).
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
 * The fingerprint of a finding given the text of its file (or `null` when the file is not in the
 * reviewed tree).
 *
 * @returns 64 lowercase hex characters
 */
export async function fingerprintOf(
  finding: Pick<Finding, "file" | "title" | "line_start" | "line_end">,
  fileText: string | null,
): Promise<string> {
  const lines = fileText === null
    ? ""
    : normalizeLines(fileText, finding.line_start, finding.line_end);
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
