/**
 * What `review-gate stats` prints of the gates' modes (README "Warn first"): per gate and mode, the
 * reviews with a verdict, how many blocked or — in warn mode — would have, and how many had an
 * acknowledged finding, each with its share of the reviews, so a team can flip a gate from warn to
 * block on evidence. Printed once any gate ran in warn mode in the span (lib/store/mode_stats.ts).
 *
 * @module
 */
import type { ModeRow } from "../store/mode_stats.ts";

/** `n (p%)` of `of`. */
function share(n: number, of: number): string {
  return `${n} (${Math.round((100 * n) / of)}%)`;
}

/**
 * The table of the gates by mode.
 *
 * @param rows lib/store/mode_stats.ts `modeRows`
 * @returns the lines, ending in a newline; `""` when no row is in warn mode
 */
export function modesText(rows: readonly ModeRow[]): string {
  if (!rows.some((r) => r.mode === "warn")) return "";
  const cells = [
    ["gate", "mode", "reviews", "blocked", "would block", "acknowledged"],
    ...rows.map((r) => [
      r.gate,
      r.mode,
      String(r.reviews),
      share(r.blocked, r.reviews),
      r.mode === "warn" ? share(r.wouldBlock, r.reviews) : "-",
      share(r.acknowledged, r.reviews),
    ]),
  ];
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const lines = cells.map((row) =>
    "  " +
    row.map((cell, i) => i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ")
      .trimEnd()
  );
  return [
    "gates by mode (reviews that gave a verdict; acknowledged: with a finding the team accepted):",
    ...lines,
  ].join("\n") + "\n";
}
