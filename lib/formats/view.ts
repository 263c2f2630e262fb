/**
 * What every format shows of a finished review, computed once (pure): the findings in display
 * order, each with its place in the answer, fingerprint, acknowledgement and whether it blocks; and
 * the plain-words statements of what was NOT reviewed (first rule: a format that shows a review
 * says so whenever part of the change did not reach the model or the review could not run).
 *
 * @module
 */
import type { Finding, FindingNote, ReviewAnswer } from "../kinds/review/types.ts";
import {
  blockingFindings,
  notBlockingReason,
  type Policy,
  shownFindings,
} from "../kinds/review/policy.ts";
import type { RunRecord } from "../store/run_record.ts";
import { describeOmitted, quotePath, reviewedAmount } from "../git/coverage_text.ts";
import { agreementText } from "../kinds/review/council.ts";

/** One finding as the formats show it. */
export interface FindingView {
  finding: Finding;
  /** Its place in the stored answer, from 1 (`review-gate ack <run-id>:<n>`). */
  index: number;
  /** 64 hex characters, when known. */
  fingerprint?: string;
  /** The acknowledgement that covers it: it never blocks. */
  acknowledged?: FindingNote["acknowledged"];
  /**
   * True when it blocks under the policy — never in a warn-mode gate's run, whose findings that the
   * policy blocks are {@linkcode FindingView.wouldBlock} instead (the run exits 0).
   */
  blocking: boolean;
  /**
   * In a warn-mode gate's run (README "Warn first"): it would block, and warn mode let it through.
   * Formats say {@linkcode WOULD_BLOCK}, never "blocking", and give it a non-blocking level.
   */
  wouldBlock?: true;
  /** Why it does not block, in a few words (absent when it blocks or would block). */
  notBlocking?: string;
  /** In a council review: who reported it, in words (`agreed: claude, codex (2 of 2)`). */
  agreement?: string;
}

/** How much of the change a review saw. */
export type Reviewed =
  /** Every part of the change reached the model. */
  | "complete"
  /** Some parts did not: `unreviewed` names them. */
  | "partial"
  /** The review could not run (or none of the change could be shown): nothing was reviewed. */
  | "none"
  /** The target had no change. */
  | "nothing-to-review";

/** A finished review as the formats show it. */
export interface ReviewView {
  record: RunRecord;
  answer?: ReviewAnswer;
  reviewed: Reviewed;
  /**
   * Plain-words lines on what was not reviewed, first line the headline (`NOT reviewed: …`,
   * `Partially reviewed: …`); empty when everything was.
   */
  unreviewed: string[];
  /** The parts left out, each with its path (for formats that can point at files). */
  unreviewedParts: UnreviewedPart[];
  /**
   * The answer's findings to show: blocking ones first, then the most severe, at most the policy's
   * `maxFindings` (empty without an answer).
   */
  findings: FindingView[];
  /** Findings not shown because of `maxFindings` (0 when all are). */
  hidden: number;
  /** How many of them block (0 in a warn-mode gate's run). */
  blocking: number;
  /** In a warn-mode gate's run, how many would block (0 otherwise). */
  wouldBlock: number;
  /** How many are acknowledged. */
  acknowledged: number;
}

/** What every format calls a finding a warn-mode gate let through: never "blocking". */
export const WOULD_BLOCK = "would block (warn mode)";

/** The line saying how many findings `max_findings` left out. */
export function hiddenNote(hidden: number, policy: Policy): string {
  return `… and ${hidden} more finding${
    hidden === 1 ? "" : "s"
  }, less severe (max_findings ${policy.maxFindings}); all are in answer.json`;
}

/**
 * How many parts of a review in parts came from the verdict cache: `7 of 8 parts from the cache`
 * (a council's part reviews: `3 of 4 part reviews from the cache`), or `""` when none did, or the
 * whole verdict was cached (the renderers say so on their own).
 *
 * @param record the run
 */
export function partsFromCache(record: Pick<RunRecord, "parts" | "cached" | "council">): string {
  const parts = record.parts ?? [];
  const cached = parts.filter((p) => p.cached).length;
  if (record.cached || cached === 0) return "";
  return `${cached} of ${parts.length} ${record.council ? "part reviews" : "parts"} from the cache`;
}

/**
 * What a gate in warn mode did with the run (README "Warn first"): `warn mode — 1 finding would
 * have blocked; the gate let the change through`, `warn mode — nothing would have blocked`; `""`
 * when the run was not a warn-mode gate's. Its findings are then said as "would block", never
 * "blocking": such a run exits 0 (docs/design.md "Statuses and exit codes": its `blocking` is only
 * what `on_partial` blocks).
 *
 * @param record the run
 */
export function warnModeNote(record: Pick<RunRecord, "gateMode" | "wouldBlock">): string {
  if (record.gateMode !== "warn") return "";
  const n = record.wouldBlock ?? 0;
  return n > 0
    ? `warn mode — ${n} ${
      n === 1 ? "finding" : "findings"
    } would have blocked; the gate let the change through`
    : "warn mode — nothing would have blocked";
}

/**
 * One plain sentence for a verdict taken from the cache: `cached verdict: no model call this run
 * (reviewed by run 20261201-… at 2026-12-01T04:40:12.000Z)`, the parenthesis only when the record
 * names that run; `""` when the model was asked this run.
 *
 * @param record the run
 */
export function cachedVerdictNote(record: Pick<RunRecord, "cached" | "cachedFrom">): string {
  if (!record.cached) return "";
  const from = record.cachedFrom;
  const when = from?.reviewedAt ? ` at ${from.reviewedAt}` : "";
  return `cached verdict: no model call this run${
    from ? ` (reviewed by run ${from.runId}${when})` : ""
  }`;
}

/**
 * `file:start-end` (or `file:line` when one line); a file name holding a control character or a
 * quote is JSON-quoted, as the prompt writes it, so a name cannot print as a line of its own.
 */
export function location(finding: Pick<Finding, "file" | "line_start" | "line_end">): string {
  const file = quotePath(finding.file);
  return finding.line_end > finding.line_start
    ? `${file}:${finding.line_start}-${finding.line_end}`
    : `${file}:${finding.line_start}`;
}

const VERDICTS: ReadonlySet<string> = new Set(["approved", "needs-attention", "nothing-to-review"]);

/**
 * True for a record whose review gave no verdict: it could not run (`COULD_NOT_RUN`), was
 * interrupted, or none of the change could be shown to the model.
 */
export function couldNotRun(record: Pick<RunRecord, "status">): boolean {
  return !VERDICTS.has(record.status);
}

/** A part of the change that did not reach the model, in plain words. */
export interface UnreviewedPart {
  /** Repository-relative path of the file (or part of it) left out. */
  path: string;
  /** e.g. `not reviewed: big.json: lines 12-51 (over the size limit, max_calls × budgets.total_bytes; 40 lines, 2.1 KB)` */
  text: string;
}

/** The parts of a run's change that did not reach the model (empty when every part did). */
export function unreviewedParts(record: RunRecord): UnreviewedPart[] {
  const verb = couldNotRun(record) ? "not shown to the model" : "not reviewed";
  return (record.coverage?.omitted ?? []).map((o) => ({
    path: o.path,
    text: `${verb}: ${quotePath(o.path)}: ${describeOmitted(o)}`,
  }));
}

/**
 * Why a `not-reviewed` run asked no model: none of its change could be shown (its plan shows not a
 * line or byte of it: every file omitted), or the caller's own reason, kept in its message (CI: a
 * fork's pull request has no secrets; a merge: the shards whose parts have no answer). A file left
 * out of an otherwise shown change (a binary) does not make the reason "none could be shown".
 */
export function notAskedBecause(record: Pick<RunRecord, "message" | "coverage">): string {
  const coverage = record.coverage;
  const nothingShown = !record.message ||
    (coverage !== undefined && coverage.omitted.length > 0 && coverage.reviewedLines === 0 &&
      coverage.reviewedBytes === 0);
  return nothingShown ? "none of this change could be shown to the model" : record.message!;
}

/**
 * The headline of what was not reviewed: `NOT reviewed: …` for a review that gave no verdict,
 * `Partially reviewed: …` when parts of the change did not reach the model, else undefined.
 */
export function unreviewedHeadline(record: RunRecord): string | undefined {
  if (record.status === "nothing-to-review") return undefined;
  if (record.status === "not-reviewed") return `NOT reviewed: ${notAskedBecause(record)}`;
  if (couldNotRun(record)) {
    return `NOT reviewed: ${record.status}${record.message ? `: ${record.message}` : ""}`;
  }
  const coverage = record.coverage;
  if (!coverage || coverage.status !== "partial") return undefined;
  return `Partially reviewed: ${reviewedAmount(coverage)}`;
}

/**
 * What was not reviewed, in plain words: the headline, then one line per part left out.
 *
 * @returns the lines; empty when the whole change was reviewed or had nothing
 */
export function unreviewedLines(record: RunRecord): string[] {
  const headline = unreviewedHeadline(record);
  return headline ? [headline, ...unreviewedParts(record).map((p) => p.text)] : [];
}

/**
 * Build the view of a finished review.
 *
 * @param input the run record and, on success, the answer
 * @param policy decides which findings block (acknowledged ones never do)
 */
export function buildView(
  input: { record: RunRecord; answer?: ReviewAnswer },
  policy: Policy,
): ReviewView {
  const { record, answer } = input;
  const notes = record.findingNotes;
  const blocking = new Set(answer ? blockingFindings(answer, policy, notes) : []);
  const warn = record.gateMode === "warn";
  const index = new Map<Finding, number>(answer?.findings.map((f, i) => [f, i]) ?? []);
  const shown = answer ? shownFindings(answer, policy, notes) : { shown: [], hidden: 0 };
  const findings = answer
    ? shown.shown.map((finding): FindingView => {
      const i = index.get(finding)!;
      const note = notes?.[i];
      return {
        finding,
        index: i + 1,
        ...(note ? { fingerprint: note.fingerprint } : {}),
        ...(note?.acknowledged ? { acknowledged: note.acknowledged } : {}),
        ...(note?.agreement && record.council
          ? { agreement: agreementText(note.agreement, record.council.policy) }
          : {}),
        blocking: blocking.has(finding) && !warn,
        ...(blocking.has(finding) && warn ? { wouldBlock: true as const } : {}),
        ...(blocking.has(finding) ? {} : {
          notBlocking: notBlockingReason(finding, { verdict: answer.verdict, policy, note }) ??
            "not blocking under the policy",
        }),
      };
    })
    : [];
  const unreviewed = unreviewedLines(record);
  const reviewed: Reviewed = record.status === "nothing-to-review"
    ? "nothing-to-review"
    : couldNotRun(record) || !answer
    ? "none"
    : unreviewed.length > 0
    ? "partial"
    : "complete";
  return {
    record,
    answer,
    reviewed,
    unreviewed,
    unreviewedParts: unreviewed.length > 0 ? unreviewedParts(record) : [],
    findings,
    hidden: shown.hidden,
    blocking: warn ? 0 : blocking.size,
    wouldBlock: warn ? blocking.size : 0,
    acknowledged: findings.filter((f) => f.acknowledged).length,
  };
}
