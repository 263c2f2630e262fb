/**
 * Citations of the repository's Markdown docs, and what is wrong with them. A citation is a
 * `.md` file name in a comment (or in a Markdown file's prose), optionally followed by the sections
 * it points at in double quotes: `docs/design.md "Gates"`, `docs/design.md "Gates" → "Installer"`,
 * `docs/providers.md "Codex", "Claude Code"`; `README "Security model"` is short for `README.md`. A name
 * resolves against the citing file's directory, then the repository root; a section must be a
 * heading of the file (`#` headings outside code fences, or a paragraph's bold run-in title such
 * as `**Guard (optional).**`), compared without backticks and a trailing period, with or without
 * its closing parenthetical.
 *
 * Names of files review-gate reads or writes in the user's repository (`REVIEW.md`, `review.md`,
 * `AGENTS.md`, …) are the product's vocabulary, not citations: {@linkcode NOT_CITATIONS}.
 *
 * @module
 */
import { dirname, join, normalize } from "node:path";

/** Base names that name files of a reviewed repository or a run, never a doc of this one. */
export const NOT_CITATIONS: ReadonlySet<string> = new Set([
  "REVIEW.md", // team guidelines in the reviewed repository
  "review.md", // a run's rendered review
  "compliance.md", // a run's rendered compliance review
  "PLAN.md", // the plan a compliance review checks
  "AGENTS.md", // agent instructions in a reviewed repository
  "AGENTS.override.md",
  "CLAUDE.md",
  "CLAUDE.local.md",
  "SKILL.md", // agent skills in a reviewed repository
  "QWEN.md", // Qwen Code's context file in a reviewed repository
  "GEMINI.md", // Gemini CLI's context file in a reviewed repository
  "copilot-instructions.md", // Copilot CLI's instructions file (.github/) in a reviewed repository
]);

/** One citation found in a file. */
export interface Citation {
  /** Repository-relative path of the citing file. */
  from: string;
  line: number;
  /** The name as written (`docs/design.md`, `fixtures/fake/README.md`, `README`). */
  name: string;
  /** The quoted sections after it, in order. */
  sections: string[];
}

const NAME =
  /(?<![\w./-])((?:[\w.-]+\/)*[\w.-]*[\w-]\.md|\/(?:[\w.-]+\/)*[\w.-]*[\w-]\.md|README)(?![\w/-])/g;
const SECTIONS = /^(?:\s*[(,]?\s*"([^"]+)")((?:\s*(?:,|→)\s*"[^"]+")*)/;

/**
 * Comment text as prose: JSDoc `*` margins, `//` and `#` markers dropped, line breaks kept (a
 * citation broken across lines still reads whole: sections are compared with blanks collapsed).
 */
export function proseOf(comment: string): string {
  return comment.split("\n").map((line) =>
    line.replace(/^\s*(?:\/\*\*?|\*\/|\*(?!\*)|\/\/+|#+(?![\w#]))\s?/, "").replace(/\*\/\s*$/, "")
  ).join("\n");
}

/**
 * The citations in one piece of prose.
 *
 * @param from repository-relative path of the citing file
 * @param line the line the prose starts on
 * @param prose comment text from {@linkcode proseOf}
 * @returns the citations, `README` only when a quoted section follows it
 */
export function citationsIn(from: string, line: number, prose: string): Citation[] {
  const out: Citation[] = [];
  for (const match of prose.matchAll(NAME)) {
    const name = match[1];
    const base = name.slice(name.lastIndexOf("/") + 1);
    if (NOT_CITATIONS.has(base)) continue;
    const rest = prose.slice(match.index! + name.length);
    const found = SECTIONS.exec(rest);
    const sections = found
      ? [found[1], ...[...found[2].matchAll(/"([^"]+)"/g)].map((m) => m[1])]
        .map((section) => section.replace(/\s+/g, " ").trim())
      : [];
    if (name === "README" && sections.length === 0) continue;
    const at = line + (prose.slice(0, match.index).match(/\n/g)?.length ?? 0);
    out.push({ from, line: at, name, sections });
  }
  return out;
}

/**
 * The sections a Markdown text has: its `#` headings outside code fences and the bold run-in
 * titles that open a paragraph or list item, each normalised (no backticks, no trailing period),
 * plus each of them without a closing parenthetical (`Guard (optional)` → `Guard`).
 *
 * @param markdown the file's text
 * @returns the set of citable section names
 */
export function sectionsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1] ??
      /^(?:[-*]\s+)?\*\*(.+?)\*\*/.exec(line)?.[1];
    if (heading === undefined) continue;
    const plain = heading.replaceAll("`", "").replace(/[.:]$/, "").trim();
    out.add(plain);
    out.add(plain.replace(/\s*\([^)]*\)$/, ""));
  }
  return out;
}

/**
 * What is wrong with one citation, if anything.
 *
 * @param root absolute repository root
 * @param citation the citation
 * @param read reads a repository file's text, or returns undefined when there is no such file
 * @returns a message naming the file, line and the missing doc or section; undefined when it holds
 */
export function problemOf(
  root: string,
  citation: Citation,
  read: (absolute: string) => string | undefined,
): string | undefined {
  const where = `${citation.from}:${citation.line}`;
  const name = citation.name === "README" ? "README.md" : citation.name;
  if (name.startsWith("/")) return `${where} cites ${name}, a path outside the repository`;
  const candidates = [join(root, dirname(citation.from), name), join(root, name)]
    .map((path) => normalize(path))
    .filter((path) => path === root || path.startsWith(root + "/"));
  const target = candidates.find((path) => read(path) !== undefined);
  if (target === undefined) return `${where} cites ${citation.name}, which the repository lacks`;
  const sections = sectionsOf(read(target)!);
  const missing = citation.sections.filter((section) => !sections.has(section));
  if (missing.length === 0) return undefined;
  return `${where} cites ${citation.name} ${
    missing.map((s) => `"${s}"`).join(", ")
  }, which it has no heading for`;
}
