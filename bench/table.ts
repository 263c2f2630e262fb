/**
 * Render the bench's results as a Markdown table (pure): one row per case, with the ratio of its
 * median wall time and of its peak RSS to the baseline row of its group, then numbered notes.
 *
 * @module
 */

/** One measured case. */
export interface ResultRow {
  group: string;
  name: string;
  baseline: boolean;
  runs: number;
  /** Median wall time, ms. */
  medianMs: number;
  /** Peak RSS, MiB. */
  maxRssMb: number;
  note?: string;
}

function ratio(value: number, base: number | undefined): string {
  return base === undefined || base <= 0
    ? "–"
    : `×${(value / base).toFixed(value / base >= 10 ? 0 : 1)}`;
}

/**
 * Render rows as a Markdown table; a row's ratios are against the `baseline` row of its group
 * ("–" when the group has none).
 *
 * @returns the table, then a "Notes" list for rows that carry a note (numbered as in the table)
 */
export function renderTable(rows: readonly ResultRow[]): string {
  const baseOf = new Map(rows.filter((r) => r.baseline).map((r) => [r.group, r]));
  const lines = [
    "| # | group | case | runs | median ms | × base | max RSS MB | × base |",
    "|--:|-------|------|-----:|----------:|-------:|-----------:|-------:|",
  ];
  const notes: string[] = [];
  rows.forEach((row, i) => {
    const base = baseOf.get(row.group);
    lines.push(
      `| ${i + 1} | ${row.group} | ${row.name} | ${row.runs} | ${row.medianMs.toFixed(1)} | ` +
        `${ratio(row.medianMs, base?.medianMs)} | ${row.maxRssMb.toFixed(1)} | ${
          ratio(row.maxRssMb, base?.maxRssMb)
        } |`,
    );
    if (row.note) notes.push(`- #${i + 1}: ${row.note}`);
  });
  return notes.length > 0
    ? `${lines.join("\n")}\n\nNotes:\n${notes.join("\n")}\n`
    : `${lines.join("\n")}\n`;
}
