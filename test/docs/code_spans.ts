/**
 * Inline code spans that start on one line and end on the next (pure). CommonMark joins such a
 * span, but some viewers render it broken — a command a reader copies from the README must be on
 * one line. Fenced blocks are skipped; a span is a run of backticks closed by a run of the same
 * length (CommonMark "Code spans"), a backslash before a backtick outside a span escapes it.
 *
 * @module
 */

/** A code span that holds a line break: where it starts (1-based line) and its text. */
export interface BrokenSpan {
  line: number;
  text: string;
  /** Offsets of the span (its backticks included) in the text given. */
  start: number;
  end: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Every code span of a Markdown text that holds a line break.
 *
 * @param text Markdown
 * @returns the broken spans, in order
 */
export function brokenSpans(text: string): BrokenSpan[] {
  const out: BrokenSpan[] = [];
  // blank out fenced blocks (same length, so offsets and line numbers stay)
  let fence: string | null = null;
  const prose = text.split("\n").map((line) => {
    const open = FENCE.exec(line);
    if (fence === null && open) {
      fence = open[1];
      return " ".repeat(line.length);
    }
    if (fence !== null) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
      return " ".repeat(line.length);
    }
    return line;
  }).join("\n");
  // a blank line ends a paragraph: a span never runs past it
  let i = 0;
  while (i < prose.length) {
    const c = prose[i];
    if (c === "\\" && prose[i + 1] === "`") {
      i += 2;
      continue;
    }
    if (c !== "`") {
      i++;
      continue;
    }
    let n = 0;
    while (prose[i + n] === "`") n++;
    const run = "`".repeat(n);
    let j = i + n;
    let close = -1;
    while (j < prose.length) {
      const k = prose.indexOf(run, j);
      const blank = prose.slice(j).search(/\n[ \t]*\n/);
      if (k === -1 || (blank !== -1 && j + blank < k)) break;
      if (prose[k + n] === "`") {
        j = k + n;
        while (prose[j] === "`") j++;
        continue;
      }
      close = k;
      break;
    }
    if (close === -1) {
      i += n;
      continue;
    }
    const span = prose.slice(i, close + n);
    if (span.includes("\n")) {
      out.push({
        line: prose.slice(0, i).split("\n").length,
        text: span,
        start: i,
        end: close + n,
      });
    }
    i = close + n;
  }
  return out;
}
