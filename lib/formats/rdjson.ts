/**
 * reviewdog's Diagnostic Format (proto/rdf in github.com/reviewdog/reviewdog), pure: `rdjson` (one
 * `DiagnosticResult`) and `rdjsonl` (one `Diagnostic` per line), so `reviewdog -f=rdjson` can post
 * the findings as pull-request review comments on GitHub, GitLab, Gitea or Bitbucket. Each finding
 * is a diagnostic with a line range (lines only: reviewdog then covers start..end inclusive), a
 * severity, `code` = the rule id, and a message ending with its fingerprint and ack command. An
 * acknowledged finding is INFO, its message starting "acknowledged (reason)". What was not reviewed
 * is a WARNING on each file left out and one diagnostic with no location saying NOT reviewed or
 * partially reviewed (an ERROR when the review could not run or the result blocks, else a
 * WARNING); a verdict taken from the cache is an INFO diagnostic with no location saying so.
 * Messages are capped so every rdjsonl line stays far below the 64 KiB reviewdog
 * reads per line. A message is Markdown where reviewdog posts it (a review comment), so every
 * string the model or the change wrote goes through lib/base/inert_markdown.ts (README.md "Security
 * model": the model's words stay words); the location's path stays data. Checked in tests against
 * reviewdog's published JSON Schemas (test/schemas/).
 *
 * @module
 */
import { inertMarkdown } from "../base/inert_markdown.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import type { RunRecord } from "../store/run_record.ts";
import { narrowedLine } from "../git/coverage_text.ts";
import type { RenderInput, RenderOptions } from "./renderer.ts";
import { nonBlockingLevel, RDJSON_SEVERITY, ruleId } from "./levels.ts";
import { INFORMATION_URI } from "./sarif.ts";
import { buildView, cachedVerdictNote, type FindingView, WOULD_BLOCK } from "./view.ts";

/** Longest diagnostic message, characters (reviewdog's rdjsonl reader stops at a 64 KiB line). */
export const MAX_MESSAGE_CHARS = 16_000;

const SOURCE = { name: "review-gate", url: INFORMATION_URI };

type Diagnostic = Record<string, unknown>;

/** Longest one-line string (a title, a reason) kept before it is made inert, in characters. */
const MAX_LINE_CHARS = 1000;

/**
 * A message of at most {@linkcode MAX_MESSAGE_CHARS}, cut at a line break: each line of inert
 * Markdown closes its own code spans, so a cut there leaves none open.
 */
function cap(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const cut = text.lastIndexOf("\n", MAX_MESSAGE_CHARS - 2);
  return `${text.slice(0, Math.max(cut, 0))}\n…`;
}

/** One line of untrusted text, at most {@linkcode MAX_LINE_CHARS} of it, made inert. */
function line(text: string): string {
  const kept = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS - 1)}…` : text;
  return inertMarkdown(kept, "line");
}

function findingDiagnostic(view: FindingView): Diagnostic {
  const f = view.finding;
  const head = view.acknowledged
    ? `acknowledged (${line(view.acknowledged.reason)}): [${f.severity}] ${line(f.title)}`
    : `[${f.severity}${view.blocking ? ", blocking" : view.wouldBlock ? `, ${WOULD_BLOCK}` : ""}] ${
      line(f.title)
    }`;
  const id = view.fingerprint?.slice(0, SHORT_FINGERPRINT);
  const tail = !id
    ? ""
    : view.acknowledged
    ? `\n\nreview-gate fingerprint ${id}`
    : `\n\nreview-gate fingerprint ${id}; not a problem? review-gate ack ${id} --reason "…"`;
  return {
    message: cap(
      `${head}\n\n${inertMarkdown(f.body, "block")}\n\nRecommendation: ${
        inertMarkdown(f.recommendation, "block")
      }\n(${f.category}, ${f.scope}, confidence ${f.confidence.toFixed(2)})${tail}`,
    ),
    location: {
      path: f.file,
      range: { start: { line: f.line_start }, end: { line: f.line_end } },
    },
    severity: view.acknowledged
      ? "INFO"
      : view.blocking
      ? RDJSON_SEVERITY[f.severity]
      : nonBlockingLevel(RDJSON_SEVERITY[f.severity], "ERROR", "WARNING"),
    source: SOURCE,
    code: { value: ruleId(f.severity), url: INFORMATION_URI },
  };
}

/** The diagnostics of a finished review, in display order. */
export function diagnostics(
  input: { record: RunRecord; answer?: ReviewAnswer },
  policy: Policy,
): Diagnostic[] {
  const view = buildView(input, policy);
  const out: Diagnostic[] = [];
  const cached = cachedVerdictNote(input.record);
  if (cached) out.push({ message: `review-gate: ${cached}`, severity: "INFO", source: SOURCE });
  const narrowed = input.record.coverage ? narrowedLine(input.record.coverage) : "";
  if (narrowed) {
    out.push({ message: `review-gate: ${line(narrowed)}`, severity: "INFO", source: SOURCE });
  }
  // the overall line, NOT reviewed or partially reviewed: an error when it is why nothing passes
  const [headline] = view.unreviewed;
  if (headline) {
    out.push({
      message: cap(`review-gate: ${line(headline)}`),
      severity: view.reviewed === "none" || input.record.blocking ? "ERROR" : "WARNING",
      source: SOURCE,
    });
  }
  for (const part of view.unreviewedParts) {
    out.push({
      message: cap(`review-gate: ${line(part.text)}`),
      location: { path: part.path },
      severity: "WARNING",
      source: SOURCE,
    });
  }
  for (const finding of view.findings) out.push(findingDiagnostic(finding));
  return out;
}

/**
 * `rdjson`: one `DiagnosticResult`. The rdjson format's `Renderer` (lib/formats/renderer.ts).
 *
 * @param input the run record and the answer when there is one
 * @param options `policy` decides which findings block
 * @returns pretty JSON ending in a newline
 */
export function renderRdjson(input: RenderInput, options: RenderOptions): string {
  const result = { source: SOURCE, diagnostics: diagnostics(input, options.policy) };
  return JSON.stringify(result, null, 2) + "\n";
}

/**
 * `rdjsonl`: one `Diagnostic` per line (no line for a review with nothing to say). The rdjsonl
 * format's `Renderer` (lib/formats/renderer.ts).
 *
 * @param input the run record and the answer when there is one
 * @param options `policy` decides which findings block
 * @returns JSON Lines, each ending in a newline
 */
export function renderRdjsonl(input: RenderInput, options: RenderOptions): string {
  return diagnostics(input, options.policy).map((d) => JSON.stringify(d) + "\n").join("");
}
