/**
 * Markdown rendering of a finished review: the `review.md` stored beside `answer.json`, the
 * `--format markdown` output and the GitHub job summary. A review that could not run renders as
 * "NOT reviewed" with the reason, never as findings nor a pass. Another answer kind's markdown
 * (`compliance.md`) is its title, facts and body (lib/kinds/definition.ts) under the same facts of
 * the run. Every string a model or the change wrote goes through lib/base/inert_markdown.ts
 * (README.md "Security model": the model's words stay words). Pure.
 *
 * @module
 */
import { UsageError } from "../base/errors.ts";
import type { KindRenderers } from "../kinds/definition.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import { excludedLine, narrowedLine, omittedLines, reviewedAmount } from "../git/coverage_text.ts";
import type { Policy } from "../kinds/review/policy.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import type { RunRecord } from "../store/run_record.ts";
import type { RenderInput, RenderOptions } from "./renderer.ts";
import { inertMarkdown } from "../base/inert_markdown.ts";
import {
  buildView,
  cachedVerdictNote,
  type FindingView,
  hiddenNote,
  location,
  partsFromCache,
  unreviewedLines,
  warnModeNote,
} from "./view.ts";
import { providerLabel } from "../providers/choice.ts";

/** Untrusted text inside one line of ours. */
const line = (text: string) => inertMarkdown(text, "line");
/** Untrusted text as paragraphs of its own. */
const block = (text: string) => inertMarkdown(text, "block");
/** Untrusted text as a code span (paths, ids). */
const code = (text: string) => inertMarkdown(text, "code");

/**
 * ` (blocking)`, ` (would block: warn mode)` for a gate in warn mode (README "Warn first"),
 * ` (acknowledged)` or why it does not block, after the severity in a finding's heading.
 */
function findingState(view: FindingView): string {
  if (view.acknowledged) return " (acknowledged)";
  if (view.wouldBlock) return " (would block: warn mode)";
  if (!view.blocking) return ` (not blocking: ${view.notBlocking})`;
  return " (blocking)";
}

/**
 * Render any finished review: {@linkcode renderMarkdown} when it has an answer, else a short page
 * saying it was NOT reviewed and why (or that there was nothing to review). The markdown format's
 * `Renderer` (lib/formats/renderer.ts).
 *
 * @param result the run record and, on success, the answer
 * @param options `policy` marks blocking findings
 * @returns Markdown text ending in a newline
 */
export function renderMarkdownResult(result: RenderInput, options: RenderOptions): string {
  const { record, answer } = result;
  if (answer) return renderMarkdown(record, answer, options.policy);
  if (record.status === "nothing-to-review") {
    return `# Review: nothing to review\n\n- Change: ${line(record.target.label)}\n`;
  }
  // "NOT reviewed — not-reviewed" said it twice: the status only follows when it adds a reason
  const out = [
    record.status === "not-reviewed"
      ? "# Review: NOT reviewed"
      : `# Review: NOT reviewed — ${record.status}`,
    "",
  ];
  out.push(`- Change: ${line(record.target.label)}`);
  out.push(providerLine(record));
  if (record.id) out.push(`- Run: ${code(record.id)}`);
  out.push("", ...unreviewedLines(record).map((text) => `> ${line(text)}`), "");
  out.push("No verdict: this change was not reviewed, so nothing here approves it.", "");
  return out.join("\n");
}

/** `- Provider: claude (model)`, or a council's providers and policy. */
function providerLine(record: RunRecord): string {
  const { council } = record;
  return council
    ? `- Council: ${line(council.providers.join(", "))} (council_policy ${council.policy})`
    : `- Provider: ${line(providerLabel(record.provider, record.providerChoice))}${
      record.model ? ` (${line(record.model)})` : ""
    }`;
}

/** The list of the run's facts under the title: change, provider, session, run, coverage. */
function runFacts(record: RunRecord): string[] {
  const out: string[] = [];
  out.push(`- Change: ${line(record.target.label)}`);
  out.push(providerLine(record));
  if (record.sessionId) out.push(`- Session: ${code(record.sessionId)}`);
  out.push(`- Run: ${code(record.id)}`);
  const warn = warnModeNote(record);
  if (warn) out.push(`- Gate: ${warn}`);
  const cached = cachedVerdictNote(record);
  if (cached) out.push(`- Verdict: ${line(cached)}`);
  const reused = partsFromCache(record);
  if (reused) out.push(`- Parts: ${reused}`);
  if (record.coverage) {
    const { coverage } = record;
    const ruled = record.rules?.excluded.length ?? 0;
    // "complete" covers what the rules kept: the files they left out are said here too
    const left = ruled > 0
      ? `; ${ruled} ${ruled === 1 ? "file" : "files"} excluded by rule, not reviewed (listed below)`
      : "";
    out.push(`- Coverage: ${coverage.status} — ${reviewedAmount(coverage)}${left}`);
    for (const text of omittedLines(coverage)) out.push(`  - not reviewed: ${line(text)}`);
    const excluded = excludedLine(coverage);
    if (excluded) out.push(`- ${line(excluded)}`);
    const narrowed = narrowedLine(coverage);
    if (narrowed) out.push(`- ${line(narrowed)}`);
  }
  out.push(...rulesFacts(record.rules));
  return out;
}

/**
 * What the team's rules did: where they came from, guidelines sent, files excluded by rule, and
 * the notes (e.g. a file named like a default exclude, reviewed because of its content).
 */
function rulesFacts(r: RunRecord["rules"]): string[] {
  if (!r) return [];
  const out = [
    `- Rules from: ${line(r.from)}${r.untrusted ? " (untrusted repository)" : ""}`,
  ];
  for (const g of r.guidelines) {
    out.push(
      `  - guideline ${code(g.source)} (${line(g.appliesTo)})${
        g.cut ? `, cut: ${line(g.cut)}` : ""
      }`,
    );
  }
  for (const g of r.guidelinesLeftOut) {
    out.push(`  - guideline left out: ${code(g.source)} (${line(g.reason)})`);
  }
  for (const e of r.excluded) {
    out.push(`  - excluded by rule: ${code(e.path)} (${line(e.rule)})`);
  }
  for (const f of r.editedRuleFiles) out.push(`  - this change edits the rule file ${code(f)}`);
  for (const note of r.notes ?? []) out.push(`  - note: ${line(note)}`);
  return out;
}

/**
 * Render the markdown file of another answer kind: its title, the run's facts and its own, then
 * its body. The markdown format's `KindFrame` (lib/formats/renderer.ts).
 *
 * @param input the run record and the answer
 * @param _options unused: a kind's markdown marks what blocks itself
 * @param render the kind's renderers: its markdown one gives the title, facts and body
 * @returns Markdown text ending in a newline
 * @throws {UsageError} for a run with no answer (one that could not run): there is nothing to frame
 */
export function renderKindMarkdown(
  input: RenderInput<unknown>,
  _options: RenderOptions,
  render: KindRenderers,
): string {
  const { record, answer } = input;
  if (answer === undefined) {
    throw new UsageError(
      `The markdown format needs a review that produced an answer (this one is ${record.status})`,
    );
  }
  const parts = render.markdown(record, answer);
  const body = parts.body.endsWith("\n") ? parts.body : parts.body + "\n";
  return [`# ${parts.title}`, "", ...runFacts(record), ...parts.facts, "", body].join("\n");
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
  const view = buildView({ record, answer }, policy);
  const out: string[] = [];
  const partial = record.coverage?.status === "partial" ? " (partially reviewed)" : "";
  out.push(`# Review: ${record.status}${partial}`, "");
  out.push(...runFacts(record));
  out.push("", "## Summary", "", block(answer.summary), "");
  out.push(`## Findings (${answer.findings.length})`, "");
  if (answer.findings.length === 0) out.push("None.", "");
  for (const v of view.findings) {
    const f = v.finding;
    out.push(`### ${f.severity.toUpperCase()}${findingState(v)}: ${line(f.title)}`, "");
    const id = v.fingerprint
      ? ` · fingerprint \`${v.fingerprint.slice(0, SHORT_FINGERPRINT)}\``
      : "";
    out.push(`${code(location(f))} · confidence ${f.confidence.toFixed(2)}${id}`, "");
    if (v.agreement) out.push(`Council: ${line(v.agreement)}`, "");
    out.push(block(f.body), "", `**Recommendation:** ${block(f.recommendation)}`, "");
    if (v.acknowledged) {
      out.push(`**Acknowledged** (${line(v.acknowledged.reason)}): never blocks.`, "");
    } else if (v.fingerprint && (v.blocking || v.wouldBlock)) {
      const ack = `review-gate ack ${v.fingerprint.slice(0, SHORT_FINGERPRINT)} --reason "…"`;
      out.push(`Not a problem? Accept it: \`${ack}\``, "");
    }
  }
  if (view.hidden > 0) out.push(hiddenNote(view.hidden, policy), "");
  if (answer.next_steps.length > 0) {
    out.push("## Next steps", "", ...answer.next_steps.map((s) => `- ${line(s)}`), "");
  }
  return out.join("\n");
}
