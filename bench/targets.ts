/**
 * The bench's targets (pure): a row held to a speed target is judged against its floor row,
 * measured in the same run, and a row held to a memory limit against its peak RSS. Every target
 * prints its verdict — met, MISSED, or why it could not be judged (no floor row, a floor whose git
 * calls are not the row's) — so no row can hide a miss. The targets are issue 26's: `review
 * --no-cache` ≤ 1.5× its one-shot floor, a cache hit ≤ 2×, `--plan-only` at scale ≤ 1.5× `git
 * diff`, peak RSS ≤ 150 MB (bench/README.md "Targets").
 *
 * @module
 */

/** A speed target: the row's median ÷ the median of the row named `floor` (same group) ≤ `max`. */
export interface SpeedTarget {
  /** Short name shown in the table ("T1"). */
  id: string;
  /** The name of the floor row, in the same group. */
  floor: string;
  /** The largest ratio that meets the target. */
  max: number;
}

/** What a target needs of a measured row. */
export interface TargetedRow {
  group: string;
  name: string;
  medianMs: number;
  maxRssMb: number;
  speedTarget?: SpeedTarget;
  /** Most peak RSS that meets the memory target, MiB. */
  rssLimitMb?: number;
  /** Why the row's floor does not stand for it (its git calls differ), when it does not. */
  floorProblem?: string;
}

/** One judged target. */
export interface TargetVerdict {
  /** Row index (0-based) of the judged row. */
  row: number;
  id: string;
  /** "met", "MISSED" or "NOT JUDGED". */
  verdict: "met" | "MISSED" | "NOT JUDGED";
  /** One line: ratio or size against the limit, and why when not judged. */
  text: string;
}

function ratioText(ratio: number): string {
  return `×${ratio.toFixed(2)}`;
}

/**
 * Judge every target of `rows`.
 *
 * @returns the verdicts in row order, speed before memory for one row
 */
export function judgeTargets(rows: readonly TargetedRow[]): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  rows.forEach((row, i) => {
    const t = row.speedTarget;
    if (t) {
      const floor = rows.findIndex((r) => r.group === row.group && r.name === t.floor);
      if (floor < 0) {
        verdicts.push({
          row: i,
          id: t.id,
          verdict: "NOT JUDGED",
          text: `floor row "${t.floor}" not measured`,
        });
      } else {
        const ratio = row.medianMs / rows[floor].medianMs;
        const base = `${ratioText(ratio)} of #${floor + 1} (≤ ×${t.max})`;
        verdicts.push(
          row.floorProblem
            ? {
              row: i,
              id: t.id,
              verdict: "NOT JUDGED",
              text: `${base}; floor stale: ${row.floorProblem}`,
            }
            : { row: i, id: t.id, verdict: ratio <= t.max ? "met" : "MISSED", text: base },
        );
      }
    }
    if (row.rssLimitMb !== undefined) {
      verdicts.push({
        row: i,
        id: "RSS",
        verdict: row.maxRssMb <= row.rssLimitMb ? "met" : "MISSED",
        text: `${row.maxRssMb.toFixed(1)} MB (≤ ${row.rssLimitMb} MB)`,
      });
    }
  });
  return verdicts;
}

/** The table cell of one row's verdicts: `T1 ×2.51 of #4 (≤ ×1.5) MISSED; RSS 70.0 MB … met`. */
export function targetCell(verdicts: readonly TargetVerdict[], row: number): string {
  return verdicts.filter((v) => v.row === row).map((v) => `${v.id} ${v.text} ${v.verdict}`)
    .join("; ");
}
