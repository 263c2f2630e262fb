/**
 * Markdown rendering of a successful review: the `review.md` stored beside `answer.json`. Pure.
 *
 * @module
 */
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { blockingFindings, type Policy, sortFindings } from "../kinds/review/policy.ts";
import type { RunRecord } from "../store/run_record.ts";
import { excludedLine, omittedLines, reviewedAmount } from "../git/coverage_text.ts";
import { location } from "./terminal.ts";

function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, "\\$1").replaceAll("\n", " ");
}

/**
 * Render `review.md`.
 *
 * @param record the run record (status, target, provider, coverage)
 * @param answer the decoded answer
 * @param policy marks blocking findings
 * @returns Markdown text ending in a newline
 */
export function renderMarkdown(record: RunRecord, answer: ReviewAnswer, policy: Policy): string {
  const blocking = new Set(blockingFindings(answer, policy));
  const out: string[] = [];
  out.push(`# Review: ${record.status}`, "");
  out.push(`- Change: ${escapeInline(record.target.label)}`);
  out.push(`- Provider: ${record.provider}${record.model ? ` (${record.model})` : ""}`);
  if (record.sessionId) out.push(`- Session: \`${record.sessionId}\``);
  out.push(`- Run: \`${record.id}\``);
  if (record.coverage) {
    const { coverage } = record;
    out.push(`- Coverage: ${coverage.status} — ${reviewedAmount(coverage)}`);
    for (const line of omittedLines(coverage)) out.push(`  - not reviewed: ${escapeInline(line)}`);
    const excluded = excludedLine(coverage);
    if (excluded) out.push(`- ${escapeInline(excluded)}`);
  }
  out.push("", "## Summary", "", answer.summary, "");
  out.push(`## Findings (${answer.findings.length})`, "");
  if (answer.findings.length === 0) out.push("None.", "");
  for (const f of sortFindings(answer.findings)) {
    out.push(
      `### ${f.severity.toUpperCase()}${blocking.has(f) ? " (blocking)" : ""}: ${
        escapeInline(f.title)
      }`,
      "",
    );
    out.push(`\`${location(f)}\` · confidence ${f.confidence.toFixed(2)}`, "");
    out.push(f.body, "", `**Recommendation:** ${f.recommendation}`, "");
  }
  if (answer.next_steps.length > 0) {
    out.push("## Next steps", "", ...answer.next_steps.map((s) => `- ${s}`), "");
  }
  return out.join("\n");
}
