/**
 * Rendering an eval record in one of its formats (lib/eval/format_names.ts), each renderer loaded
 * when asked for: `terminal` (lib/eval/render_terminal.ts), `json` (the record itself,
 * schemas/eval_report.schema.json), `markdown` (lib/eval/render_markdown.ts) and `html`
 * (lib/eval/render_html.ts).
 *
 * @module
 */
import type { Paint } from "../formats/style.ts";
import type { EvalFormat } from "./format_names.ts";
import type { EvalReport } from "./record.ts";

/**
 * Render the record.
 *
 * @param format the format
 * @param report the record
 * @param paint colours for the terminal format (the others ignore it)
 * @returns the text, ending in a newline
 */
export async function renderEval(
  format: EvalFormat,
  report: EvalReport,
  paint?: Paint,
): Promise<string> {
  switch (format) {
    case "terminal":
      return (await import("./render_terminal.ts")).renderEvalTerminal(report, paint);
    case "json":
      return JSON.stringify(report, null, 2) + "\n";
    case "markdown":
      return (await import("./render_markdown.ts")).renderEvalMarkdown(report);
    case "html":
      return (await import("./render_html.ts")).renderEvalHtml(report);
  }
}
