/**
 * The skips part of `review-gate stats` (README "Skips"): this repository's skip records of the
 * period (lib/store/skips.ts), per gate and reason, as text under the runs' table and as `skips`
 * in `--json`.
 *
 * @module
 */
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { readSkips, type SkipRecord } from "../store/skips.ts";
import { skipsOfRepo } from "../store/skip_repo.ts";
import {
  type SkipGroup,
  skipsSince,
  type SkipTotals,
  summarizeSkips,
} from "../store/skip_stats.ts";

/** `stats --json`'s `skips`. */
export interface StatsSkips extends SkipTotals {
  /** The records counted, in file order. */
  records: SkipRecord[];
  /** Lines of the user's skip records that are not a record (of no known repository). */
  unreadable: number;
}

/**
 * This repository's skips of the period.
 *
 * @param env where the user's skip records are (`XDG_STATE_HOME`, `HOME`)
 * @param commonDir the repository's git common dir
 * @param since the period's start; none: all time
 * @throws Deno.errors when the records file exists but cannot be read
 */
export async function statsSkips(
  env: Record<string, string | undefined>,
  commonDir: string,
  since?: Date,
): Promise<StatsSkips> {
  const { records, unreadable } = await readSkips(env);
  const counted = skipsSince(await skipsOfRepo(records, commonDir), since);
  return { ...summarizeSkips(counted), records: counted, unreadable };
}

const UNSEEN =
  "git push --no-verify, and HUSKY=0 under husky, run no hook of review-gate's: never counted";

/**
 * The skips as text: a headline with the period they span, then one row per gate and reason
 * (count, latest, who), or one line when there are none.
 */
export function skipsText(skips: StatsSkips): string {
  const unreadable = skips.unreadable > 0
    ? `  ${skips.unreadable} line(s) of the skip records could not be read\n`
    : "";
  if (skips.total === 0) {
    return `skipped without a review: none recorded (${UNSEEN})\n${unreadable}`;
  }
  const span = skips.first === null
    ? ""
    : skips.first === skips.last
    ? ` (${when(skips.first)})`
    : ` (${when(skips.first)} to ${when(skips.last)})`;
  const cells = [
    ["gate", "reason", "count", "last", "who"],
    ...skips.groups.map((g) => [g.gate, reasonText(g), String(g.count), when(g.last), who(g)]),
  ].map((row) => row.map(oneLine)); // the records are anyone's to write: no escape, no line break
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const rows = cells.map((row) =>
    "  " + row.map((cell, i) => i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))
      .join("  ").trimEnd()
  );
  return [
    `skipped without a review: ${skips.total}${span}`,
    ...rows,
    `  (${UNSEEN})`,
  ].join("\n") + "\n" + unreadable;
}

function reasonText(group: SkipGroup): string {
  if (group.reason === "disabled") return "gate disabled";
  if (group.reason === "child") {
    return `REVIEW_GATE_CHILD=${group.values.length > 0 ? group.values.join(",") : "1"}`;
  }
  return `REVIEW_GATE=${group.values.length > 0 ? group.values.join(",") : "0"}`;
}

function who(group: SkipGroup): string {
  const users = group.users.length > 0 ? group.users.join(", ") : "unknown";
  return group.fromAgent > 0 ? `${users} (${group.fromAgent} from an agent session)` : users;
}

/** A record's field as one cell: control characters shown as escapes, line breaks as `\n`. */
function oneLine(cell: string): string {
  return sanitizeForTerminal(cell).replaceAll("\n", "\\n").replaceAll("\t", "\\t");
}

function when(at: string | null): string {
  const date = at === null ? null : new Date(at);
  if (date === null || Number.isNaN(date.getTime())) return "-";
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
