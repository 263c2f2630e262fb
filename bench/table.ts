/**
 * Render the bench's results as a Markdown table (pure): one row per case, with the ratio of its
 * median wall time and of its peak RSS to the baseline row of its group and the verdict of every
 * target it is held to (bench/targets.ts), then numbered notes and the targets' summary.
 *
 * @module
 */
import { judgeTargets, type SpeedTarget, targetCell } from "./targets.ts";

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
  /** The speed target the row is held to (its floor row is in the same group). */
  speedTarget?: SpeedTarget;
  /** Most peak RSS the row may have, MiB. */
  rssLimitMb?: number;
  /** Why the row's floor does not stand for it, when it does not (the target is not judged). */
  floorProblem?: string;
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
 * @returns the table, then a "Notes" list for rows that carry a note (numbered as in the table),
 *   then a "Targets" list with every verdict and the count of targets met
 */
export function renderTable(rows: readonly ResultRow[]): string {
  const baseOf = new Map(rows.filter((r) => r.baseline).map((r) => [r.group, r]));
  const verdicts = judgeTargets(rows);
  const lines = [
    "| # | group | case | runs | median ms | × base | max RSS MB | × base | target |",
    "|--:|-------|------|-----:|----------:|-------:|-----------:|-------:|--------|",
  ];
  const notes: string[] = [];
  rows.forEach((row, i) => {
    const base = baseOf.get(row.group);
    lines.push(
      `| ${i + 1} | ${row.group} | ${row.name} | ${row.runs} | ${row.medianMs.toFixed(1)} | ` +
        `${ratio(row.medianMs, base?.medianMs)} | ${row.maxRssMb.toFixed(1)} | ${
          ratio(row.maxRssMb, base?.maxRssMb)
        } | ${targetCell(verdicts, i)} |`,
    );
    if (row.note) notes.push(`- #${i + 1}: ${row.note}`);
  });
  const parts = [lines.join("\n")];
  if (notes.length > 0) parts.push(`Notes:\n${notes.join("\n")}`);
  if (verdicts.length > 0) {
    const met = verdicts.filter((v) => v.verdict === "met").length;
    parts.push(
      `Targets: ${met} of ${verdicts.length} met\n` +
        verdicts.map((v) => `- #${v.row + 1} ${rows[v.row].name}: ${v.id} ${v.text} ${v.verdict}`)
          .join("\n"),
    );
  }
  return `${parts.join("\n\n")}\n`;
}
