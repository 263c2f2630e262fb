/**
 * Terminal rendering of a finished review (pure: data in, text out): status line, loud coverage
 * warning when partial (how much was reviewed in lines and bytes, and every part that was not), severity-sorted findings with `file:start-end`, confidence and
 * recommendation, next steps, and where the run folder is. "Could not run" is never rendered as
 * findings nor as a pass.
 *
 * @module
 */
import { formatRefusal } from "../answer/refusal.ts";
import type { Policy } from "../kinds/review/policy.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import { COULD_NOT_RUN, type ReviewResult } from "../store/run_record.ts";
import { excludedLine, omittedLines, reviewedAmount } from "../git/coverage_text.ts";
import { buildView, type FindingView, location } from "./view.ts";
import { sanitizeForTerminal as clean } from "./sanitize.ts";
import { type Paint, plain } from "./style.ts";

const SEVERITY_FORMAT = {
  critical: ["red", "bold"],
  high: ["red"],
  medium: ["yellow"],
  low: ["gray"],
} as const;

export { location } from "./view.ts";

/** The tag after a finding's title: BLOCKING, acknowledged (reason), or nothing. */
function findingTag(view: FindingView, paint: Paint): string {
  if (view.acknowledged) {
    return paint(["green"], ` acknowledged (${clean(view.acknowledged.reason)})`);
  }
  return view.blocking ? paint(["red", "bold"], " BLOCKING") : "";
}

/** `  src/a.ts:5-7  confidence 0.80  id 3f2a9c1b0d4e` */
function findingWhere(view: FindingView, paint: Paint): string {
  const id = view.fingerprint ? `  id ${view.fingerprint.slice(0, SHORT_FINGERPRINT)}` : "";
  return `  ${paint(["cyan"], clean(location(view.finding)))}  confidence ${
    view.finding.confidence.toFixed(2)
  }${id}`;
}

function indent(text: string, prefix: string): string {
  return text.split("\n").map((line) => line === "" ? line : prefix + line).join("\n");
}

/**
 * Render a review for a terminal.
 *
 * @param result the run record and, on success, the answer
 * @param options `policy` marks blocking findings; `paint` adds colour (default none)
 * @returns text ending in a newline
 */
export function renderTerminal(
  result: ReviewResult,
  options: { policy: Policy; paint?: Paint },
): string {
  const paint = options.paint ?? plain;
  const { record, answer } = result;
  const out: string[] = [];
  const took = record.cached
    ? "cached verdict, no model call"
    : `${(record.durationMs / 1000).toFixed(1)} s`;
  const via = `${record.provider}${record.model ? ` ${record.model}` : ""}, ${took}`;

  if (record.status === "nothing-to-review") {
    return `review-gate: nothing to review (${record.target.label})\n`;
  }
  if (record.status === "not-reviewed") {
    out.push(
      paint(
        ["red", "bold"],
        "review-gate: NOT reviewed — none of this change could be shown to the model",
      ) +
        ` (no model call)`,
    );
    out.push(`Change: ${clean(record.target.label)}`);
    if (record.coverage) out.push(...omittedLines(record.coverage).map((l) => `  ${clean(l)}`));
    if (record.runDir) out.push(`Run folder: ${record.runDir}`);
    return out.join("\n") + "\n";
  }
  if (COULD_NOT_RUN.has(record.status) || record.status === "interrupted") {
    out.push(paint(["red", "bold"], `review-gate: NOT reviewed — ${record.status}`) + ` (${via})`);
    out.push(`Change: ${clean(record.target.label)}`);
    if (record.message) out.push(indent(clean(record.message), "  "));
    if (record.refusal?.length) {
      out.push("The answer was refused:", indent(clean(formatRefusal(record.refusal)), "  "));
    }
    if (record.runDir) out.push(`Transcript: ${record.runDir}/transcript/`);
    return out.join("\n") + "\n";
  }
  if (!answer) return `review-gate: ${record.status}\n`;

  const view = buildView(result, options.policy);
  const headline = record.status === "approved"
    ? paint(["green", "bold"], "review-gate: approved")
    : paint(["yellow", "bold"], "review-gate: needs attention");
  const counts = `${answer.findings.length} finding${answer.findings.length === 1 ? "" : "s"}` +
    (view.blocking > 0 ? `, ${view.blocking} blocking` : "") +
    (view.acknowledged > 0 ? `, ${view.acknowledged} acknowledged` : "");
  out.push(`${headline} — ${counts} (${via})`);
  out.push(`Change: ${clean(record.target.label)}`);
  if (record.coverage?.status === "partial") {
    out.push(
      paint(["yellow", "bold"], "WARNING: partially reviewed") +
        ` — ${reviewedAmount(record.coverage)}. Not reviewed:`,
    );
    out.push(...omittedLines(record.coverage).map((l) => `  ${clean(l)}`));
  }
  const excluded = record.coverage ? excludedLine(record.coverage) : "";
  if (excluded) out.push(clean(excluded));
  out.push("", clean(answer.summary));
  for (const v of view.findings) {
    const f = v.finding;
    const tag = paint([...SEVERITY_FORMAT[f.severity]], `[${f.severity.toUpperCase()}]`);
    out.push("", `${tag} ${clean(f.title)}${findingTag(v, paint)}`);
    out.push(findingWhere(v, paint));
    out.push(indent(clean(f.body), "  "));
    out.push(indent(`Fix: ${clean(f.recommendation)}`, "  "));
  }
  if (answer.next_steps.length > 0) {
    out.push("", "Next steps:", ...answer.next_steps.map((s) => `  - ${clean(s)}`));
  }
  out.push("", `Run folder: ${record.runDir}`);
  return out.join("\n") + "\n";
}
