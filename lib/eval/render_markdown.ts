/**
 * The eval record as Markdown (`--format markdown`), pure: the summary table with one column per
 * provider, the kinds of case, every case's outcome per provider, the cases that changed between
 * repeats, and the notes. Every text a case, a provider or a model wrote reaches it only through
 * lib/base/inert_markdown.ts (docs/design.md "Output formats"): no link, image, mention or HTML of
 * theirs takes effect.
 *
 * @module
 */
import { inertMarkdown } from "../base/inert_markdown.ts";
import { compareCodeUnits } from "../base/compare.ts";
import { METRIC_ROWS, runsText, spreadText } from "./metrics.ts";
import type { EvalReport } from "./record.ts";
import { columnHeading, headline, kindCell } from "./render_terminal.ts";

/** Text for one table cell (a line of ours: no block, no pipe of its own). */
function cell(text: string): string {
  return inertMarkdown(text, "line");
}

/** A Markdown table from a header and rows of cells (already inert). */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n") + "\n";
}

/** The summary rows, with the spread over repeats in the same cell. */
function summaryTable(report: EvalReport): string {
  const rows = METRIC_ROWS.map((metric) => [
    metric.label,
    ...report.providers.map((p) => {
      const key = metric.spread;
      const spread = key && report.settings.repeat > 1 ? p.spread?.[key] : undefined;
      const text = metric.cell(p.scores) +
        (spread ? `, over repeats ${spreadText(spread, key!)}` : "");
      return cell(text);
    }),
  ]);
  return table(["", ...report.providers.map((p) => cell(columnHeading(p)))], rows);
}

/** One row per kind. */
function kindTable(report: EvalReport): string {
  const kinds = [...new Set(report.providers.flatMap((p) => p.kinds.map((k) => k.kind)))]
    .sort(compareCodeUnits);
  const rows = kinds.map((kind) => [
    cell(kind),
    String(report.providers.flatMap((p) => p.kinds).find((k) => k.kind === kind)?.cases ?? 0),
    ...report.providers.map((p) => cell(kindCell(p.kinds.find((k) => k.kind === kind)))),
  ]);
  return table(["kind", "cases", ...report.providers.map((p) => cell(p.label))], rows);
}

/** One row per case. */
function caseTable(report: EvalReport): string {
  const ids = [...new Set(report.providers.flatMap((p) => p.runs.map((r) => r.case)))]
    .sort(compareCodeUnits);
  const rows = ids.map((id) => {
    const some = report.providers.flatMap((p) => p.runs).find((r) => r.case === id)!;
    return [
      inertMarkdown(id, "code"),
      cell(some.clean ? `${some.kind} (clean)` : some.kind),
      ...report.providers.map((p) => cell(runsText(p.runs.filter((r) => r.case === id)))),
    ];
  });
  return table(["case", "kind", ...report.providers.map((p) => cell(p.label))], rows);
}

/**
 * Render the record as Markdown.
 *
 * @param report the eval record
 * @returns the document, ending in a newline
 */
export function renderEvalMarkdown(report: EvalReport): string {
  const out = [`# review-gate eval\n\n${cell(headline(report))}.\n`];
  out.push(`Suite: ${inertMarkdown(report.suite.path, "code")}.\n`);
  if (report.stopped) {
    out.push(
      `**PARTIAL:** ${report.stopped.notRun} runs did not run (${
        report.stopped.reason === "budget" ? "stopped by --budget" : "interrupted"
      }): the scores cover only the runs that did.\n`,
    );
  }
  out.push(
    summaryTable(report),
    "## By kind\n",
    kindTable(report),
    "## Cases\n",
    caseTable(report),
  );
  const unstable = report.providers.filter((p) => p.unstable.length > 0);
  if (unstable.length > 0) {
    out.push("## Changed between repeats\n");
    for (const p of unstable) {
      out.push(
        `- ${cell(p.label)}: ${p.unstable.map((id) => inertMarkdown(id, "code")).join(", ")}`,
      );
    }
    out.push("");
  }
  if (report.notes.length > 0) {
    out.push("## Notes\n", ...report.notes.map((n) => `- ${cell(n)}`), "");
  }
  return out.join("\n");
}
