/**
 * The model's words stay words in Markdown (README.md "Security model"): every string a model wrote
 * (a summary, a finding's title, body and recommendation, next steps, compliance notes, file paths,
 * rule names…) and every string the change under review can write (branch names, paths, rule files)
 * reaches a Markdown output — `review.md`, the GitHub job summary, `--format markdown`,
 * `compliance.md`, reviewdog's comments — only through {@linkcode inertMarkdown}. There it cannot
 * make an image (a zero-click request carrying whatever the model read), a link, an autolink, an
 * `@mention`, an issue reference, an HTML element or comment, a heading, a list, a quote, a table, a
 * fence with an info string or math, nor end a code span of ours, while plain text still reads as itself:
 *
 * - `[`, `]`, `<`, `|`, `$`, a backslash, a backtick that opens no code span of the same line, and
 *   `&` before an entity name are backslash-escaped (CommonMark "Backslash escapes");
 * - a line's first character that could open a block (`#`, `>`, `-`, `+`, `*`, `=`, `_`, `:`, `~`,
 *   `1.`/`1)`) is escaped, after the line's leading blanks are dropped (no indented code either);
 * - a word GitHub would turn into a link or a notification — one holding `://`, `@`, `www.`,
 *   `mailto:`, `xmpp:`, `#1` or `GH-1` — becomes a code span, where no autolink nor mention applies;
 * - the model's own code spans (matched backtick runs on one line) stay as they are, so identifiers
 *   read as code, and its fenced code blocks stay code blocks, re-fenced with no info string (in
 *   `"block"` text only);
 * - control characters, zero-width characters and bidi controls become a visible `\u{…}`, as on a
 *   terminal (lib/formats/sanitize.ts).
 *
 * Emphasis (`*x*`, `_x_`, `~~x~~`) is left: it changes how words look, never what they do.
 *
 * @module
 */

/** Where a string is put: its own paragraphs, inside one line of ours, or as a code span. */
export type InertPlace = "block" | "line" | "code";

const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/** A word GitHub links or notifies with: a URL, a mention or email, `www.`, an issue reference. */
const LINKISH = /:\/\/|@|(?:^|[^a-z0-9])www\.|mailto:|xmpp:|#\d|(?:^|[^a-z0-9])gh-\d/i;

/** An HTML entity or numeric character reference (`&amp;`, `&#64;`, `&#x40;`). */
const ENTITY = /&(?=#\d|#x[0-9a-f]|[a-z][a-z0-9]*;)/gi;

/**
 * Render untrusted text so that no Markdown or HTML in it takes effect.
 *
 * @param text untrusted text (any characters, any length)
 * @param place `"block"`: paragraphs of their own (line breaks and blank lines kept); `"line"`:
 *   inside one line of ours — a heading, a list item, after a label (line breaks become spaces);
 *   `"code"`: one code span (paths, ids), whatever backticks the text holds
 * @returns Markdown that renders as the text's words; `""` for `""`
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { inertMarkdown } from "./inert_markdown.ts";
 * equal(inertMarkdown("![x](y) `a[0]` @you", "line"), "!\\[x\\](y) `a[0]` `@you`");
 * equal(inertMarkdown("# not a heading", "block"), "\\# not a heading");
 * equal(inertMarkdown("a`b", "code"), "``a`b``");
 * ```
 */
export function inertMarkdown(text: string, place: InertPlace): string {
  const visible = text.replace(/\r\n?/g, "\n").replace(INVISIBLE, escapeCode);
  if (place === "code") return codeSpan(visible.replace(/[\n\t]/g, " "));
  if (place === "line") return inertLine(visible.replace(/[\n\t]/g, " ").trim());
  return inertBlock(visible.split("\n"));
}

/** A fence line the model opened: its character run and whether an info string could follow. */
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;

/**
 * Lines of paragraphs: each line made inert, except the model's fenced code blocks, which are kept
 * as code — re-fenced by us with backticks longer than any run inside and no info string (an info
 * string such as `mermaid` makes GitHub render active content), and always starting a line of their
 * own (a fence can interrupt a paragraph; CommonMark "Fenced code blocks"). Inside a fence nothing
 * is Markdown, so its text is kept as written. A fence the model never closes runs to the end, as
 * CommonMark reads it.
 */
function inertBlock(lines: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i].trim());
    if (!open || (open[1][0] === "`" && open[2].includes("`"))) {
      out.push(inertLine(lines[i].trim()));
      continue;
    }
    const closer = new RegExp(`^${open[1][0]}{${open[1].length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !closer.test(lines[end].trim())) end++;
    const body = lines.slice(i + 1, end);
    const longest = Math.max(
      2,
      ...body.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))),
    );
    const fence = "`".repeat(longest + 1);
    out.push(`${i === 0 ? "\n" : ""}${fence}`, ...body, fence);
    i = end;
  }
  return out.join("\n");
}

/** `\u{200b}` for an invisible or control character. */
function escapeCode(c: string): string {
  return `\\u{${c.charCodeAt(0).toString(16)}}`;
}

/**
 * One code span holding `text` verbatim: delimited by one backtick more than its longest run, and
 * padded with a space where it starts or ends with a backtick or a space (CommonMark "Code spans").
 */
function codeSpan(text: string): string {
  if (text === "") return "";
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A line (no line break in it): code spans kept, the text between them escaped. */
function inertLine(line: string): string {
  const parts = splitCodeSpans(line);
  const out = parts.map((part, i) =>
    part.code ? part.text : inertText(part.text, i > 0, i < parts.length - 1)
  );
  return escapeLineStart(out.join(""));
}

/** A piece of a line: a code span as written (`code`), or text between code spans. */
interface Piece {
  code: boolean;
  text: string;
}

/**
 * Cut a line into code spans and text the way CommonMark reads it: a backtick run opens a code
 * span closed by the next run of exactly its length; a run with no such closer on the line is
 * text (escaped later, so it cannot pair with a run on another line).
 */
function splitCodeSpans(line: string): Piece[] {
  const out: Piece[] = [];
  let textStart = 0;
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    const open = runLength(line, i);
    const close = closerOf(line, i + open, open);
    if (close < 0) {
      i += open;
      continue;
    }
    if (i > textStart) out.push({ code: false, text: line.slice(textStart, i) });
    out.push({ code: true, text: line.slice(i, close + open) });
    i = textStart = close + open;
  }
  if (textStart < line.length) out.push({ code: false, text: line.slice(textStart) });
  return out;
}

function runLength(line: string, at: number): number {
  let end = at;
  while (line[end] === "`") end++;
  return end - at;
}

/** Where the next backtick run of exactly `length` starts at or after `from`, or -1. */
function closerOf(line: string, from: number, length: number): number {
  for (let j = from; j < line.length;) {
    if (line[j] !== "`") {
      j++;
      continue;
    }
    const run = runLength(line, j);
    if (run === length) return j;
    j += run;
  }
  return -1;
}

/**
 * Text between code spans: link-like words as code spans, the rest escaped. A code span of ours
 * that would touch the model's own (no blank between) is set off by a space, or the two backtick
 * runs would join into one.
 *
 * @param text the text
 * @param afterCode a code span comes just before it
 * @param beforeCode a code span comes just after it
 */
function inertText(text: string, afterCode: boolean, beforeCode: boolean): string {
  const words = text.split(/(\s+)/);
  return words.map((word, i) => {
    if (word === "" || /^\s+$/.test(word)) return word;
    if (!LINKISH.test(word)) return escapeInline(word);
    const lead = afterCode && i === 0 ? " " : "";
    const tail = beforeCode && i === words.length - 1 ? " " : "";
    return `${lead}${codeSpan(word)}${tail}`;
  }).join("");
}

/** Backslash-escape what could start a link, image, HTML, table cell, math or code span. */
function escapeInline(word: string): string {
  return word.replace(/[\\`[\]<|$]/g, "\\$&").replace(ENTITY, "\\&");
}

/** Escape a line's first character when it could open a block (heading, list, quote, fence…). */
function escapeLineStart(line: string): string {
  if (/^[#>+\-*=_:~]/.test(line)) return `\\${line}`;
  return line.replace(/^(\d{1,9})([.)])/, "$1\\$2");
}
