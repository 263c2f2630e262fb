/**
 * A small line diff for `--dry-run` output of the installers (pure). Files here are hook scripts and
 * settings JSON, a few hundred lines at most, so a plain LCS table is fine.
 *
 * @module
 */

/**
 * Render the change from `before` to `after` as unified-diff-like lines: `-` removed, `+` added,
 * two-space indent for context; runs of more than 6 unchanged lines are cut to 3 on each side.
 *
 * @param before old text (`""` for a new file)
 * @param after new text (`""` for a removed file)
 * @returns the diff text ending in a newline, or `""` when nothing changed
 */
export function renderLineDiff(before: string, after: string): string {
  if (before === after) return "";
  return collapseContext(diffRows(before, after)).join("\n") + "\n";
}

/**
 * How many lines the change from `before` to `after` adds and removes: the `+` and `-` lines of
 * {@linkcode renderLineDiff} (the same diff, counted).
 *
 * @param before old text (`""` for a new file)
 * @param after new text (`""` for a removed file)
 * @returns the counts of added and removed lines (both 0 when nothing changed)
 */
export function countLineChanges(
  before: string,
  after: string,
): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  if (before === after) return { added, removed };
  for (const row of diffRows(before, after)) {
    if (row.startsWith("+ ")) added++;
    else if (row.startsWith("- ")) removed++;
  }
  return { added, removed };
}

/** Every line of the diff, uncut: `+ `, `- ` or two spaces, then the line. */
function diffRows(before: string, after: string): string[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const lcs: number[][] = Array.from(
    { length: a.length + 1 },
    () => new Array(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const rows: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      rows.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      rows.push(`- ${a[i++]}`);
    } else {
      rows.push(`+ ${b[j++]}`);
    }
  }
  return rows;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else lines[lines.length - 1] += "  (no newline at end of file)";
  return lines;
}

function collapseContext(rows: string[]): string[] {
  const out: string[] = [];
  let k = 0;
  while (k < rows.length) {
    if (!rows[k].startsWith("  ")) {
      out.push(rows[k++]);
      continue;
    }
    let end = k;
    while (end < rows.length && rows[end].startsWith("  ")) end++;
    const run = rows.slice(k, end);
    const head = k === 0 ? 0 : 3;
    const tail = end === rows.length ? 0 : 3;
    if (run.length > head + tail + 1) {
      out.push(
        ...run.slice(0, head),
        `  … ${run.length - head - tail} unchanged lines`,
        ...run.slice(run.length - tail),
      );
    } else out.push(...run);
    k = end;
  }
  return out;
}
