/**
 * The work of `review-gate stats`, loaded when it runs (lib/cli/stats.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import { formatCount } from "../base/text.ts";
import { resolveRepo } from "../git/repo.ts";
import { readRecords } from "../store/records.ts";
import { stateDir } from "../store/state.ts";
import { aggregate, type GroupBy, type Totals } from "../store/stats.ts";
import { readWorkTallies, sumTallies, type WorkTotals } from "../store/work_ledger.ts";
import { modeRows } from "../store/mode_stats.ts";
import { modesText } from "./stats_modes.ts";
import type { CliDeps } from "./deps.ts";
import { skipsText, statsSkips } from "./stats_skips.ts";

/**
 * Read `--since`: a span back from now (`7d`, `24h`, `2w`) or a day (`2026-11-01`, UTC midnight).
 *
 * @throws {UsageError} for another form
 */
export function parseSince(text: string, now: Date): Date {
  const span = /^(\d{1,5})([hdw])$/.exec(text.trim());
  if (span) {
    const hours = Number(span[1]) * { h: 1, d: 24, w: 168 }[span[2] as "h" | "d" | "w"];
    return new Date(now.getTime() - hours * 3_600_000);
  }
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? new Date(`${text.trim()}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime())) {
    throw new UsageError(
      `Invalid --since "${text}": give a span (7d, 24h, 2w) or a day (2026-11-01)`,
    );
  }
  return day;
}

const COLUMNS: [string, (t: Totals) => string][] = [
  ["runs", (t) => String(t.runs)],
  ["calls", (t) => String(t.calls)],
  ["cached", (t) => String(t.cacheHits)],
  ["blocks", (t) => String(t.blocks)],
  ["not reviewed", (t) => String(t.notReviewed)],
  ["acks", (t) => String(t.acknowledged)],
  ["tokens in", (t) => formatCount(t.inputTokens)],
  ["tokens out", (t) => formatCount(t.outputTokens)],
  ["cache read", (t) => formatCount(t.cachedTokens)],
  ["cost USD", costText],
  ["time", (t) => `${(t.wallMs / 1000).toFixed(1)} s`],
];

/** The cost cell: the reported cost, "fake" for runs of the bundled fake only, else "not reported". */
function costText(t: Totals): string {
  if (t.costReported > 0) return t.costUsd.toFixed(4);
  return t.fakeRuns > 0 ? "fake" : "not reported";
}

function table(rows: { key: string; totals: Totals }[]): string {
  const cells = [
    ["", ...COLUMNS.map(([name]) => name)],
    ...rows.map((r) => [r.key, ...COLUMNS.map(([, f]) => f(r.totals))]),
  ];
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) =>
    row.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ")
      .trimEnd()
  ).join("\n") + "\n";
}

/** `stats`: the command's work (lib/cli/stats.ts parses its arguments). */
export async function statsAction(
  flags: { since?: string; by?: GroupBy; json?: boolean },
  deps: CliDeps,
): Promise<void> {
  const now = deps.now();
  const since = flags.since === undefined ? undefined : parseSince(flags.since, now);
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const state = stateDir(repo.commonDir);
  const lines = await readRecords(state, since);
  const { total, groups } = aggregate(lines, flags.by);
  const work = sumTallies(await readWorkTallies(state), since);
  const modes = modeRows(lines);
  const skips = await statsSkips(deps.env, repo.commonDir, since);
  if (flags.json) {
    deps.stdout.write(
      JSON.stringify(
        {
          since: since?.toISOString() ?? null,
          by: flags.by ?? null,
          total,
          groups,
          work,
          modes,
          skips,
        },
        null,
        2,
      ) + "\n",
    );
    return;
  }
  const span = since
    ? `since ${since.toISOString().slice(0, 16).replace("T", " ")} UTC`
    : "all time";
  deps.stdout.write(`review-gate stats, ${span}: ${total.runs} run(s)\n`);
  deps.stdout.write(table([...groups, { key: "total", totals: total }]));
  if (total.fakeRuns > 0) {
    deps.stdout.write(
      `${total.fakeRuns} run(s) by the bundled fake provider: its cost is made up and not counted\n`,
    );
  }
  deps.stdout.write(modesText(modes));
  if (work.turns > 0) deps.stdout.write(workText(work));
  deps.stdout.write(skipsText(skips));
}

/**
 * The background reviews' lines (`review_while_working`): per turn, what they cost and what the
 * Stop reused; the runs themselves are in the table above under the gate `<agent>-work`.
 */
export function workText(w: WorkTotals): string {
  const per = (n: number) => (n / w.turns).toFixed(1);
  const asked = w.backgroundCalls + w.stopCalls;
  return [
    `reviewed while working: ${w.turns} turn(s)`,
    `  background calls  ${w.backgroundCalls} (${
      per(w.backgroundCalls)
    } a turn, most ${w.maxBackgroundCalls})`,
    `  reused verdicts   ${w.reused} of ${w.parts} part(s) at the Stops`,
    `  wasted calls      ${w.wasted} (${
      per(w.wasted)
    } a turn, most ${w.maxWasted}): superseded, killed, failed or reverted`,
    `  calls at Stop     ${w.stopCalls}`,
    `  model calls       ${asked} for ${w.parts} part(s) (${
      w.parts > 0 ? (asked / w.parts).toFixed(2) : "-"
    }× one call a part at the Stop)`,
    `  waited at Stop    ${(w.waitedMs / 1000).toFixed(1)} s in all${
      w.unsettled > 0 ? `; ${w.unsettled} Stop(s) stopped waiting before the work settled` : ""
    }`,
  ].join("\n") + "\n";
}
