/**
 * Terminal rendering of a finished review (pure: data in, text out): status line, loud coverage
 * warning when partial (how much was reviewed in lines and bytes, and every part that was not), severity-sorted findings with `file:start-end`, confidence and
 * recommendation, next steps, and where the run folder is. "Could not run" is never rendered as
 * findings nor as a pass. A run of another answer kind gets the same frame around the kind's own
 * headline and body ({@linkcode renderKindTerminal}; lib/kinds/definition.ts).
 *
 * @module
 */
import { secondsText } from "../base/duration.ts";
import { formatRefusal } from "../answer/refusal.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import type { KindRenderers, Tone } from "../kinds/definition.ts";
import { COULD_NOT_RUN, type ReviewResult, type RunRecord } from "../store/run_record.ts";
import { excludedLine, narrowedLine, omittedLines, reviewedAmount } from "../git/coverage_text.ts";
import {
  buildView,
  cachedVerdictNote,
  type FindingView,
  hiddenNote,
  location,
  notAskedBecause,
  partsFromCache,
  warnModeNote,
  WOULD_BLOCK,
} from "./view.ts";
import { sanitizeForTerminal as clean } from "./sanitize.ts";
import type { RenderInput, RenderOptions } from "./renderer.ts";
import { type Paint, plain } from "./style.ts";
import { providerLabel } from "../providers/choice.ts";

const SEVERITY_FORMAT = {
  critical: ["red", "bold"],
  high: ["red"],
  medium: ["yellow"],
  low: ["gray"],
} as const;

export { location } from "./view.ts";

/**
 * The tag after a finding's title: BLOCKING (`would block (warn mode)` for a warn-mode gate's run,
 * which exits 0), acknowledged (reason), or why it does not block.
 */
function findingTag(view: FindingView, paint: Paint): string {
  if (view.acknowledged) {
    return paint(["green"], ` acknowledged (${clean(view.acknowledged.reason)})`);
  }
  if (view.wouldBlock) return paint(["yellow", "bold"], ` ${WOULD_BLOCK}`);
  if (view.blocking) return paint(["red", "bold"], " BLOCKING");
  return paint(["dim"], ` (not blocking: ${clean(view.notBlocking ?? "")})`);
}

/** `  src/a.ts:5-7  confidence 0.80  id 3f2a9c1b0d4e` */
function findingWhere(view: FindingView, paint: Paint): string {
  const id = view.fingerprint ? `  id ${view.fingerprint.slice(0, SHORT_FINGERPRINT)}` : "";
  return `  ${paint(["cyan"], clean(location(view.finding)))}  confidence ${
    view.finding.confidence.toFixed(2)
  }${id}`;
}

/** What the team's rules did, a few lines (none when they did nothing worth saying). */
function rulesLines(rules: RunRecord["rules"], paint: Paint): string[] {
  if (!rules) return [];
  const out: string[] = [];
  const from = rules.from === "worktree" ? "" : clean(rules.from);
  if (rules.guidelines.length > 0) {
    const cut = rules.guidelines.some((g) => g.cut) || rules.guidelinesLeftOut.length > 0;
    out.push(
      `Guidelines${from ? ` (rules read from ${from})` : ""}: ${
        rules.guidelines.map((g) => clean(g.source)).join(", ")
      }` +
        (cut ? " (some cut to fit: see run.json)" : ""),
    );
  } else if (from) out.push(`Rules read from ${from}: no guideline applies`);
  if (rules.excluded.length > 0) {
    const shown = rules.excluded.slice(0, 10).map((e) => `${clean(e.path)} (${clean(e.rule)})`);
    const more = rules.excluded.length > 10 ? `, and ${rules.excluded.length - 10} more` : "";
    out.push(`Excluded by rule (not reviewed): ${shown.join(", ")}${more}`);
  }
  if (rules.editedRuleFiles.length > 0) {
    out.push(
      paint(
        ["yellow"],
        `This change edits review rules: ${rules.editedRuleFiles.map(clean).join(", ")}${
          from ? "; they do not apply to its own review" : ""
        }`,
      ),
    );
  }
  for (const note of rules.notes) out.push(paint(["yellow"], clean(note)));
  return out;
}

function indent(text: string, prefix: string): string {
  return text.split("\n").map((line) => line === "" ? line : prefix + line).join("\n");
}

/** How each tone of a kind's renderer looks on a terminal. */
const TONE_FORMAT: Record<Tone, Parameters<Paint>[0]> = {
  good: ["green", "bold"],
  warn: ["yellow", "bold"],
  bad: ["red", "bold"],
  muted: ["gray"],
  strong: ["bold"],
  accent: ["cyan"],
};

/** Map a kind renderer's tones to this paint. */
export function toneWith(paint: Paint): (tone: Tone, text: string) => string {
  return (tone, text) => paint(TONE_FORMAT[tone], text);
}

/**
 * "claude sonnet, 2.3 s", "claude, 2.3 s, 7 of 8 parts from the cache" or "claude, cached verdict,
 * no model call".
 */
function via(record: RunRecord): string {
  const reused = partsFromCache(record);
  const took = record.cached
    ? "cached verdict, no model call"
    : `${secondsText(record.durationMs)}${reused ? `, ${reused}` : ""}`;
  const who = record.council
    ? `council ${record.council.providers.join(", ")}, council_policy ${record.council.policy}`
    : providerLabel(record.provider, record.providerChoice, record.model);
  // as a push names it (lib/gates/pre_push/messages.ts `reviewerText`)
  const fake = record.fakeProvider ? " (the bundled fake)" : "";
  return `${clean(who)}${fake}, ${took}`;
}

/** The loud warning of a partial review (how much, and every part left out) and exclusions. */
function coverageLines(record: RunRecord, paint: Paint): string[] {
  const out: string[] = [];
  // which earlier run the cached verdict is (the headline says it is one)
  if (record.cached && record.cachedFrom) {
    const note = cachedVerdictNote(record);
    out.push(clean(note.charAt(0).toUpperCase() + note.slice(1)));
  }
  if (record.coverage?.status === "partial") {
    out.push(
      paint(["yellow", "bold"], "WARNING: partially reviewed") +
        ` — ${reviewedAmount(record.coverage)}. Not reviewed:`,
    );
    out.push(...omittedLines(record.coverage).map((l) => `  ${clean(l)}`));
  }
  const excluded = record.coverage ? excludedLine(record.coverage) : "";
  if (excluded) out.push(clean(excluded));
  const narrowed = record.coverage ? narrowedLine(record.coverage) : "";
  if (narrowed) out.push(clean(narrowed));
  return out;
}

/**
 * The terminal text of a run that has no answer to show (nothing to review, not reviewed, could
 * not run, interrupted), or `null` when it has one. Shared by every answer kind.
 */
function renderWithoutAnswer(result: ReviewResult<unknown>, paint: Paint): string | null {
  const { record } = result;
  const out: string[] = [];
  if (record.status === "nothing-to-review") {
    const why = record.message ? ` — ${clean(record.message)}` : "";
    return `review-gate: nothing to review (${clean(record.target.label)})${why}\n`;
  }
  if (record.status === "not-reviewed") {
    out.push(
      paint(["red", "bold"], `review-gate: NOT reviewed — ${clean(notAskedBecause(record))}`) +
        ` (no model call)`,
    );
    out.push(`Change: ${clean(record.target.label)}`);
    if (record.coverage) out.push(...omittedLines(record.coverage).map((l) => `  ${clean(l)}`));
    if (record.runDir) out.push(`Run folder: ${record.runDir}`);
    return out.join("\n") + "\n";
  }
  if (COULD_NOT_RUN.has(record.status) || record.status === "interrupted") {
    out.push(
      paint(["red", "bold"], `review-gate: NOT reviewed — ${record.status}`) + ` (${via(record)})`,
    );
    out.push(`Change: ${clean(record.target.label)}`);
    out.push(...refusalLines(record));
    if (record.runDir) out.push(`Transcript: ${record.runDir}/transcript/`);
    return out.join("\n") + "\n";
  }
  if (result.answer === undefined) return `review-gate: ${record.status}\n`;
  return null;
}

/**
 * The message of a review that could not run, and the refusal one problem a line. The message of
 * a refused answer (lib/session/call.ts) already lists the problems on one line: then only its
 * head ("The provider's answer was refused after the corrective resume") is kept, so each problem
 * is printed once.
 */
function refusalLines(record: RunRecord): string[] {
  const refusal = record.refusal?.length ? formatRefusal(record.refusal) : "";
  const message = record.message ?? "";
  const head = refusal && message.startsWith("The provider's answer was refused")
    ? message.slice(0, message.indexOf(": ") + 1 || undefined)
    : "";
  if (head) return [clean(head), indent(clean(refusal), "  ")];
  return [
    ...(message ? [indent(clean(message), "  ")] : []),
    ...(refusal ? ["The answer was refused:", indent(clean(refusal), "  ")] : []),
  ];
}

/**
 * Render a run of another answer kind (lib/kinds/definition.ts) for a terminal: the kind's
 * headline and body inside the parts every kind shares (provider and time, change, coverage
 * warning, run folder; or the not-reviewed text when there is no answer). The terminal format's
 * `KindFrame` (lib/formats/renderer.ts).
 *
 * @param input the run record and the answer
 * @param options `paint` adds colour (default none)
 * @param render the kind's renderers: its terminal one is given the tone painter and the cleaner
 * @returns text ending in a newline
 */
export function renderKindTerminal(
  input: RenderInput<unknown>,
  options: RenderOptions,
  render: KindRenderers,
): string {
  const paint = options.paint ?? plain;
  const without = renderWithoutAnswer(input, paint);
  if (without !== null) return without;
  const { record } = input;
  const parts = render.terminal(record, input.answer, { tone: toneWith(paint), clean });
  return [
    `${parts.headline} (${via(record)})`,
    `Change: ${clean(record.target.label)}`,
    ...coverageLines(record, paint),
    ...parts.body,
    "",
    `Run folder: ${record.runDir}`,
  ].join("\n") + "\n";
}

/**
 * Render a review for a terminal: the terminal format's `Renderer` (lib/formats/renderer.ts).
 *
 * @param result the run record and, on success, the answer
 * @param options `policy` marks blocking findings; `paint` adds colour (default none)
 * @returns text ending in a newline
 */
export function renderTerminal(result: RenderInput, options: RenderOptions): string {
  const paint = options.paint ?? plain;
  const without = renderWithoutAnswer(result, paint);
  if (without !== null) return without;
  const { record } = result;
  const answer = result.answer!;
  const out: string[] = [];
  const view = buildView(result, options.policy);
  const partial = record.coverage?.status === "partial";
  const headline = record.status === "approved"
    ? (partial
      ? paint(["yellow", "bold"], "review-gate: approved (partially reviewed)")
      : paint(["green", "bold"], "review-gate: approved"))
    : paint(["yellow", "bold"], "review-gate: needs attention");
  const counts = `${answer.findings.length} finding${answer.findings.length === 1 ? "" : "s"}` +
    (view.blocking > 0 ? `, ${view.blocking} blocking` : "") +
    (view.wouldBlock > 0 ? `, ${view.wouldBlock} ${WOULD_BLOCK}` : "") +
    (view.acknowledged > 0 ? `, ${view.acknowledged} acknowledged` : "");
  out.push(`${headline} — ${counts} (${via(record)})`);
  out.push(`Change: ${clean(record.target.label)}`);
  const warn = warnModeNote(record);
  if (warn) out.push(`Gate: ${warn}`);
  out.push(...coverageLines(record, paint));
  out.push(...rulesLines(record.rules, paint));
  out.push("", clean(answer.summary));
  for (const v of view.findings) {
    const f = v.finding;
    const tag = paint([...SEVERITY_FORMAT[f.severity]], `[${f.severity.toUpperCase()}]`);
    // A title is one line: a newline in it could print a line that looks like ours.
    out.push(
      "",
      `${tag} ${clean(f.title.replace(/\s+/g, " ").trim())}${findingTag(v, paint)}`,
    );
    out.push(findingWhere(v, paint));
    if (v.agreement) out.push(`  Council: ${clean(v.agreement)}`);
    out.push(indent(clean(f.body), "  "));
    out.push(indent(`Fix: ${clean(f.recommendation)}`, "  "));
  }
  if (view.hidden > 0) out.push("", hiddenNote(view.hidden, options.policy));
  if (answer.next_steps.length > 0) {
    out.push("", "Next steps:", ...answer.next_steps.map((s) => `  - ${clean(s)}`));
  }
  out.push("", `Run folder: ${record.runDir}`);
  return out.join("\n") + "\n";
}
