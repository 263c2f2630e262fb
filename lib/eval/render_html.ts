/**
 * The eval record as one self-contained HTML page (`--format html`), pure: providers side by side
 * in bar charts of the rates (lib/eval/svg_bars.ts) and in the summary table, bars per kind of
 * case, every case's outcome per provider with its findings, and the notes. Nothing is loaded from
 * anywhere — the style is inline, the charts are inline SVG, there is no script — and every text a
 * case, a provider or a model wrote is HTML-escaped, so a finding's title is only ever text.
 *
 * @module
 */
import { compareCodeUnits } from "../base/compare.ts";
import { METRIC_ROWS, runsText, spreadText } from "./metrics.ts";
import type { EvalReport, ProviderResult, RunResult } from "./record.ts";
import { columnHeading, headline, kindCell } from "./render_terminal.ts";
import { barChart, escapeHtml as esc, SERIES_COLOURS } from "./svg_bars.ts";

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330;
  margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.meta { color: #5a6475; margin: .2rem 0; }
.partial { background: #fff4d6; border: 1px solid #e0b44c; padding: .6rem .8rem; border-radius: 4px; }
table { border-collapse: collapse; margin: .6rem 0; }
th, td { border-bottom: 1px solid #e3e6eb; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f5f6f8; font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.legend span { display: inline-block; margin-right: 1.2rem; }
.legend i { display: inline-block; width: .8rem; height: .8rem; margin-right: .35rem; vertical-align: -1px; }
svg .label { font-size: 12px; fill: #1d2330; } svg .value { font-size: 11px; fill: #5a6475; }
svg .track { fill: #eef0f3; }
details summary { cursor: pointer; } ul.findings { margin: .2rem 0; padding-left: 1.1rem; }
.hallucinated { color: #a33; }
`;

/** The providers' colours as a legend. */
function legend(providers: readonly ProviderResult[]): string {
  return `<p class="legend">${
    providers.map((p, i) =>
      `<span><i style="background:${SERIES_COLOURS[i % SERIES_COLOURS.length]}"></i>${
        esc(columnHeading(p))
      }</span>`
    ).join("")
  }</p>`;
}

/** The rates side by side, then the summary table. */
function summarySection(report: EvalReport): string {
  const { providers } = report;
  const chart = barChart(
    METRIC_ROWS.filter((m) => m.rate).map((m) => ({
      label: m.label,
      values: providers.map((p) => m.rate!(p.scores)),
    })),
    "Rates per provider",
  );
  const rows = METRIC_ROWS.map((m) =>
    `<tr><th>${esc(m.label)}</th>${
      providers.map((p) => {
        const spread = m.spread && report.settings.repeat > 1 ? p.spread?.[m.spread] : undefined;
        return `<td>${esc(m.cell(p.scores))}${
          spread ? `<br><small>over repeats ${esc(spreadText(spread, m.spread!))}</small>` : ""
        }</td>`;
      }).join("")
    }</tr>`
  ).join("\n");
  return `<h2>Providers side by side</h2>${legend(providers)}${chart}
<table><tr><th></th>${
    providers.map((p) => `<th>${esc(columnHeading(p))}</th>`).join("")
  }</tr>\n${rows}</table>`;
}

/** Bars per kind: line recall of defect kinds, blocked clean changes of clean kinds. */
function kindSection(report: EvalReport): string {
  const kinds = [...new Set(report.providers.flatMap((p) => p.kinds.map((k) => k.kind)))]
    .sort(compareCodeUnits);
  const of = (p: ProviderResult, kind: string) => p.kinds.find((k) => k.kind === kind);
  const groups = kinds.map((kind) => {
    const clean = report.providers.every((p) => (of(p, kind)?.defects ?? 0) === 0);
    return {
      label: clean ? `${kind} (clean)` : kind,
      values: report.providers.map((p) => {
        const k = of(p, kind);
        return k === undefined ? null : clean ? k.falseBlockRate : k.lineRecall;
      }),
    };
  });
  const rows = kinds.map((kind) =>
    `<tr><th>${esc(kind)}</th>${
      report.providers.map((p) => `<td>${esc(kindCell(of(p, kind)))}</td>`).join("")
    }</tr>`
  ).join("\n");
  return `<h2>By kind</h2><p class="meta">Defect kinds: line recall (more is better). Clean kinds: clean changes blocked (less is better).</p>
${legend(report.providers)}${barChart(groups, "Per kind of case")}
<table><tr><th>kind</th>${
    report.providers.map((p) => `<th>${esc(p.label)}</th>`).join("")
  }</tr>\n${rows}</table>`;
}

/** One run's findings as a list. */
function findingList(run: RunResult): string {
  if (run.findings.length === 0) return run.message ? `<small>${esc(run.message)}</small>` : "";
  return `<ul class="findings">${
    run.findings.map((f) =>
      `<li${f.hallucinated ? ' class="hallucinated"' : ""}>[${esc(f.severity)}] <code>${
        esc(`${f.file}:${f.line_start}-${f.line_end}`)
      }</code> ${esc(f.title)}${f.hit !== "none" ? ` <b>(${esc(f.hit)} hit)</b>` : ""}${
        f.hallucinated ? " (hallucinated)" : ""
      }</li>`
    ).join("")
  }</ul>`;
}

/** Every case, one column per provider, findings folded. */
function caseSection(report: EvalReport): string {
  const all = report.providers.flatMap((p) => p.runs);
  const ids = [...new Set(all.map((r) => r.case))].sort(compareCodeUnits);
  const rows = ids.map((id) => {
    const some = all.find((r) => r.case === id)!;
    const cells = report.providers.map((p) => {
      const runs = p.runs.filter((r) => r.case === id);
      const details = runs.map(findingList).join("");
      return `<td>${esc(runsText(runs))}${
        details ? `<details><summary>findings</summary>${details}</details>` : ""
      }</td>`;
    });
    return `<tr><td><code>${esc(id)}</code></td><td>${esc(some.kind)}${
      some.clean ? " (clean)" : ""
    }</td>${cells.join("")}</tr>`;
  }).join("\n");
  return `<h2>Cases</h2><table><tr><th>case</th><th>kind</th>${
    report.providers.map((p) => `<th>${esc(p.label)}</th>`).join("")
  }</tr>\n${rows}</table>`;
}

/**
 * Render the record as one HTML page.
 *
 * @param report the eval record
 * @returns the page, ending in a newline
 */
export function renderEvalHtml(report: EvalReport): string {
  const partial = report.stopped
    ? `<p class="partial"><b>PARTIAL:</b> ${report.stopped.notRun} runs did not run (${
      report.stopped.reason === "budget" ? "stopped by --budget" : "interrupted"
    }): the scores cover only the runs that did.</p>`
    : "";
  const unstable = report.providers.filter((p) => p.unstable.length > 0).map((p) =>
    `<li>${esc(p.label)}: ${p.unstable.map((id) => `<code>${esc(id)}</code>`).join(", ")}</li>`
  );
  const notes = report.notes.map((n) => `<li>${esc(n)}</li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>review-gate eval</title><style>${STYLE}</style></head><body>
<h1>review-gate eval</h1>
<p class="meta">${esc(headline(report))}</p>
<p class="meta">Suite <code>${esc(report.suite.path)}</code> · fail_on ${
    esc(report.settings.failOn)
  } · min_confidence ${report.settings.minConfidence} · ${esc(report.startedAt)}</p>
${partial}
${summarySection(report)}
${kindSection(report)}
${caseSection(report)}
${unstable.length ? `<h2>Changed between repeats</h2><ul>${unstable.join("")}</ul>` : ""}
${notes.length ? `<h2>Notes</h2><ul>${notes.join("")}</ul>` : ""}
</body></html>
`;
}
