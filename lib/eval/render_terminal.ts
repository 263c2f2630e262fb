/**
 * The eval record as a table for the terminal (`--format terminal`, the default), pure: a header
 * naming the suite and what was run, the summary rows of lib/eval/metrics.ts with one column per
 * provider (and each rate's spread over `--repeat` runs), the same per kind of case, the cases whose
 * outcome changed between repeats, the runs that could not run with their message, and the notes.
 * Every text a case, a provider or a model wrote goes through lib/formats/sanitize.ts.
 *
 * @module
 */
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { type Paint, plain } from "../formats/style.ts";
import { duration, fraction, METRIC_ROWS, spreadText } from "./metrics.ts";
import type { EvalReport, KindScores, ProviderResult } from "./record.ts";

/** Rows of cells as aligned text, two blanks between columns. */
export function alignRows(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, [...cell].length));
  }
  return rows.map((row) =>
    row.map((cell, i) =>
      i === row.length - 1 ? cell : cell + " ".repeat(widths[i] - [...cell].length)
    )
      .join("  ").trimEnd()
  ).join("\n") + "\n";
}

/** A column's heading: its label and the model its runs reported. */
export function columnHeading(p: ProviderResult): string {
  const reported = p.reportedModel && p.reportedModel !== p.model ? ` (${p.reportedModel})` : "";
  return `${p.label}${reported}`;
}

/** What the eval ran, in one line. */
export function headline(report: EvalReport): string {
  const { suite, settings } = report;
  const chosen = suite.cases === suite.total ? "" : ` of ${suite.total}`;
  const repeats = settings.repeat === 1 ? "1 run" : `${settings.repeat} runs`;
  return `${suite.cases}${chosen} cases (${
    suite.cases - suite.clean
  } with defects, ${suite.clean} clean), ${repeats} of each per provider, in ${
    duration(report.durationMs)
  }`;
}

/** A kind's cell: recall for defects, blocks for clean changes. */
export function kindCell(k: KindScores | undefined): string {
  if (!k) return "—";
  const parts = [
    ...(k.defects > 0 ? [`caught ${fraction(k.lineHits, k.defects)}`] : []),
    ...(k.cleanRuns > 0 ? [`blocked ${fraction(k.falseBlocks, k.cleanRuns)}`] : []),
  ];
  return parts.join("; ") || "—";
}

/** The summary table, with spread rows under the rates that varied over repeats. */
function summaryRows(report: EvalReport): string[][] {
  const providers = report.providers;
  const rows: string[][] = [["", ...providers.map(columnHeading)]];
  for (const metric of METRIC_ROWS) {
    rows.push([metric.label, ...providers.map((p) => metric.cell(p.scores))]);
    const key = metric.spread;
    if (report.settings.repeat > 1 && key && providers.some((p) => p.spread?.[key])) {
      rows.push([
        "  over repeats",
        ...providers.map((p) => p.spread?.[key] ? spreadText(p.spread[key]!, key) : "—"),
      ]);
    }
  }
  return rows;
}

/** One row per kind, one cell per provider. */
function kindRows(report: EvalReport): string[][] {
  const kinds = [...new Set(report.providers.flatMap((p) => p.kinds.map((k) => k.kind)))];
  return [
    ["by kind", ...report.providers.map((p) => p.label)],
    ...kinds.map((kind) => {
      const first = report.providers.flatMap((p) => p.kinds).find((k) => k.kind === kind)!;
      return [
        `${kind} (${first.cases})`,
        ...report.providers.map((p) => kindCell(p.kinds.find((k) => k.kind === kind))),
      ];
    }),
  ];
}

/** The runs that could not run or answered invalidly, with why (at most `limit` per provider). */
function failureLines(report: EvalReport, limit = 5): string[] {
  return report.providers.flatMap((p) => {
    const failed = p.runs.filter((r) => r.status !== "approved" && r.status !== "needs-attention");
    const lines = failed.slice(0, limit).map((r) =>
      `  ${p.label} ${r.case}${report.settings.repeat > 1 ? ` #${r.repeat}` : ""}: ${r.status}${
        r.message ? ` — ${r.message.split("\n")[0]}` : ""
      }`
    );
    if (failed.length > limit) lines.push(`  ${p.label}: ${failed.length - limit} more`);
    return lines;
  });
}

/**
 * Render the record for a terminal.
 *
 * @param report the eval record
 * @param paint colours (plain when not a terminal, or with NO_COLOR)
 * @returns the text, ending in a newline
 */
export function renderEvalTerminal(report: EvalReport, paint: Paint = plain): string {
  const safe = sanitizeForTerminal;
  const out: string[] = [];
  out.push(paint("bold", `review-gate eval: ${headline(report)}`) + "\n");
  out.push(safe(`Suite: ${report.suite.path}\n`));
  if (report.stopped) {
    const why = report.stopped.reason === "budget" ? "stopped by --budget" : "interrupted";
    out.push(
      paint(
        ["bold", "yellow"],
        `PARTIAL: ${report.stopped.notRun} runs did not run (${why}): the scores cover only the runs that did`,
      ) + "\n",
    );
  }
  out.push(safe("\n" + alignRows(summaryRows(report)) + "\n" + alignRows(kindRows(report))));
  const unstable = report.providers.filter((p) => p.unstable.length > 0);
  if (unstable.length > 0) {
    out.push("\nChanged between repeats:\n");
    for (const p of unstable) out.push(safe(`  ${p.label}: ${p.unstable.join(", ")}\n`));
  }
  const failures = failureLines(report);
  if (failures.length > 0) out.push(safe("\nNot answered:\n" + failures.join("\n") + "\n"));
  if (report.notes.length > 0) {
    out.push(safe("\nNotes:\n" + report.notes.map((n) => `  - ${n}`).join("\n") + "\n"));
  }
  return out.join("");
}
