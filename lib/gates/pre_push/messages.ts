/**
 * What the pre-push gate prints (pure): blocks with the skip hint, the loud "NOT reviewed" and
 * "only PARTIALLY reviewed" warnings,
 * and one report per reviewed ref update whether its verdict came from the memo, the cache or the
 * model ({@linkcode renderVerdict}), each naming the reviewer that gave the verdict. Control and bidi characters are neutralised: labels and
 * provider messages are untrusted.
 *
 * @module
 */
import type { FindingNote, ReviewAnswer } from "../../kinds/review/types.ts";
import { ACKS_FILE } from "../../acks/types.ts";
import { omittedLines, reviewedAmount } from "../../git/coverage_text.ts";
import { sanitizeForTerminal } from "../../formats/sanitize.ts";
import type { Coverage, ExcludedFile } from "../../git/types.ts";
import { type GateMode, REPO_CONFIG_FILE } from "../../config/config.ts";
import { excludedList } from "../../rules/report.ts";
import {
  type GateFinding,
  listFindings,
  MAX_LISTED_FINDINGS,
  plural,
  renderFindingLine,
} from "../messages.ts";
import { type ProviderChoice, providerLabel } from "../../providers/choice.ts";

/** The skip hint every pre-push block carries. */
export const PRE_PUSH_SKIP_HINT =
  "To push anyway: git push --no-verify (skips all pre-push hooks) or REVIEW_GATE=0 git push";

/**
 * How every answer taken from a cached verdict says so, whether the verdict memo or the cache found
 * it, and whichever gate (a push, a Stop) stored it: the same words on a pass, a block and a
 * partial review.
 */
export const CACHED = " (cached verdict, no model call)";

/** Extra hint when a block comes from a cached verdict: how to have the commits reviewed again. */
export const PRE_PUSH_RECHECK_HINT =
  "This verdict is cached for these commits; to review them again: REVIEW_GATE_CACHE=0 git push";

/** What a push's findings report is given: the ref update, its findings, the review, who reviewed. */
interface FindingsReport {
  label: string;
  findings: readonly GateFinding[];
  reviewPath: string;
  reviewer?: PushReviewer;
}

/**
 * The findings report both a block and warn mode print: the headline (`push blocked` or `would
 * block`), the findings, the review, the ack hint when a finding can be accepted, and its last line.
 */
function findingsReport(verb: string, input: FindingsReport, last: string): string {
  const acks = input.findings.some((f) => f.fingerprint) ? [PRE_PUSH_ACK_HINT] : [];
  const by = input.reviewer ? `; reviewed by ${reviewerText(input.reviewer)}` : "";
  return sanitizeForTerminal(
    [
      `review-gate: ${verb}: ${
        plural(input.findings.length, "blocking finding")
      } in ${input.label}${by}`,
      ...listFindings(input.findings).map((l) => `  ${l}`),
      `Full review: ${input.reviewPath}`,
      ...acks,
      last,
    ].join("\n") + "\n",
  );
}

/**
 * Pre-push stderr text when blocking findings stop the push.
 *
 * @param input what was reviewed (e.g. `refs/heads/main a1b2c3d..e4f5a6b`), the blocking findings,
 *   the run's review.md, who reviewed it
 * @returns lines ending in a newline
 */
export function renderPrePushBlock(input: FindingsReport): string {
  return findingsReport("push blocked", input, PRE_PUSH_SKIP_HINT);
}

/**
 * Pre-push stderr text when a gate in warn mode lets through a push its blocking findings would
 * have stopped (README "Warn first"): the same findings and review as a block, said as "would
 * block", and how to make such findings block.
 *
 * @param input what was reviewed, the findings that would block, the run's review.md, who
 *   reviewed it
 * @returns lines ending in a newline, control and bidi characters neutralised
 */
export function renderPrePushWouldBlock(
  input: FindingsReport & { modeFrom?: WarnModeFrom },
): string {
  return findingsReport("would block", input, prePushWarnNote(input.modeFrom));
}

/**
 * Which config chose a push's warn mode: the user's own (`user`) or the `.review-gate.json` the
 * remote has (`repo`); the environment sets no mode (lib/config/config.ts `ENV_KEYS`).
 */
export type WarnModeFrom = "user" | "repo";

/**
 * The last line of a push warn mode let through: where warn mode was set, and the `gate block`
 * command that undoes it there: `--user` for the user config; without it, the worktree's
 * `.review-gate.json`, whose `block` is stricter than the remote's `warn` and so applies to the
 * user's pushes at once, and to the team's once that file is on the remote
 * (lib/gates/pre_push/rules.ts).
 */
export function prePushWarnNote(from: WarnModeFrom = "repo"): string {
  const where = from === "user" ? "your user config" : `the ${REPO_CONFIG_FILE} the remote has`;
  const command = from === "user"
    ? "review-gate gate block pre-push --user"
    : `review-gate gate block pre-push (your pushes block at once; commit ${REPO_CONFIG_FILE} and push it so everyone's do)`;
  return `The push goes ahead: gates.pre_push.mode is "warn" in ${where}, so review-gate only says what it would block. To have such findings block: ${command}`;
}

/**
 * What accepting a finding does, after the ack commands of a pre-push block: a push counts the
 * acknowledgements the remote already has (lib/gates/pre_push/rules.ts), like CI.
 */
export const PRE_PUSH_ACK_HINT =
  "Accepting a finding (if it is not a problem) records it in .review-gate/acks.json: commit that file so your team and CI share it; a push counts it once the remote has that file";

/**
 * Pre-push stderr text when the review could not run, or none of the change could be shown to the
 * model. Loud on purpose: never mistaken for a pass.
 *
 * @param input what was not reviewed, why, where the run record is, and whether the push is
 *   blocked for it by `setting` (`on_error`, the default, or `on_partial`)
 * @returns lines ending in a newline, control and bidi characters neutralised
 */
export function renderNotReviewed(
  input: {
    label: string;
    reason: string;
    runPath?: string;
    blocked: boolean;
    setting?: "on_error" | "on_partial";
  },
): string {
  const setting = input.setting ?? "on_error";
  const lines = [
    `review-gate: WARNING: ${input.label} was NOT reviewed: ${input.reason}`,
    ...(input.runPath ? [`Details: ${input.runPath}`] : []),
    input.blocked
      ? `The push is blocked because gates.pre_push.${setting} is "block". ${PRE_PUSH_SKIP_HINT}`
      : "The push goes ahead unreviewed.",
  ];
  return sanitizeForTerminal(lines.join("\n") + "\n");
}

/** Most omitted parts a partial-coverage warning names in the push output. */
const NAMED_PARTS = 10;

/**
 * Pre-push stderr text when only part of a ref update reached the model.
 *
 * @param input what was reviewed, its coverage, the run's review.md, and whether
 *   `on_partial: block` stops the push
 * @returns lines ending in a newline, control and bidi characters neutralised
 */
export function renderPartial(
  input: {
    label: string;
    coverage: Coverage;
    reviewPath: string;
    blocked: boolean;
    reviewer?: PushReviewer;
  },
): string {
  const { coverage } = input;
  const omitted = omittedLines({ ...coverage, omitted: coverage.omitted.slice(0, NAMED_PARTS) });
  const rest = coverage.omitted.length - NAMED_PARTS;
  if (rest > 0) omitted.push(`… and ${rest} more (see the review)`);
  const lines = [
    `review-gate: WARNING: ${input.label} was only PARTIALLY reviewed${
      input.reviewer ? ` by ${reviewerText(input.reviewer)}` : ""
    }: ${reviewedAmount(coverage)}. Not reviewed:`,
    ...omitted.map((l) => `  ${l}`),
    `Review: ${input.reviewPath}`,
    input.blocked
      ? `The push is blocked because gates.pre_push.on_partial is "block". ${PRE_PUSH_SKIP_HINT}`
      : "The push goes ahead; the parts above were not reviewed.",
  ];
  return sanitizeForTerminal(lines.join("\n") + "\n");
}

/** Who gave a push's verdict, as its run record names them. */
export interface PushReviewer {
  /** The provider (the first of a council). */
  provider: string;
  /** The model, when the provider named it or the config chose it. */
  model?: string;
  /** The bundled fake provider answered (lib/providers/bundled_fake.ts). */
  fake?: boolean;
  /** A council's providers. */
  council?: readonly string[];
  /** How `provider: "auto"` chose the provider, when it did (lib/providers/choice.ts). */
  choice?: ProviderChoice;
}

/**
 * How a push names its reviewer, as `review`'s headline does: `claude sonnet`, `council claude,
 * codex`, with `(the bundled fake)` when the fake answered.
 */
export function reviewerText(reviewer: PushReviewer): string {
  const who = reviewer.council && reviewer.council.length > 1
    ? `council ${reviewer.council.join(", ")}`
    : providerLabel(reviewer.provider, reviewer.choice, reviewer.model);
  return `${who}${reviewer.fake ? " (the bundled fake)" : ""}`;
}

/** Who gave a run's verdict, from its record (a fresh run's, or the cache entry's). */
export function reviewerOf(record: {
  provider: string;
  model?: string;
  fakeProvider?: boolean;
  council?: { providers: readonly string[] };
  providerChoice?: ProviderChoice;
}): PushReviewer {
  return {
    provider: record.provider,
    ...(record.model ? { model: record.model } : {}),
    ...(record.fakeProvider ? { fake: true } : {}),
    ...(record.council ? { council: record.council.providers } : {}),
    ...(record.providerChoice && !record.council ? { choice: record.providerChoice } : {}),
  };
}

/** A ref update's verdict, for {@linkcode renderVerdict}. */
export interface PushVerdict {
  /** The ref update and its commit count, e.g. `refs/heads/main (2 commits)`. */
  label: string;
  /**
   * Where the verdict came from: the verdict memo (no change collected), the verdict cache (the
   * change was collected) or the model.
   */
  source: "memo" | "cache" | "model";
  answer: ReviewAnswer;
  /** The run folder holding the verdict's `review.md`. */
  runDir?: string;
  /** The verdict's status (`approved`, `needs-attention`). */
  status: string;
  /** The blocking findings, most severe first (empty when the verdict does not block). */
  findings: readonly GateFinding[];
  /** What the review saw; a partial one is reported as such. */
  coverage?: Coverage;
  /** `gates.pre_push.on_partial`: whether a partial review (without blocking findings) blocks. */
  onPartial: "allow" | "block";
  /** The answer's findings' notes, index for index: which are acknowledged, and by whom. */
  findingNotes?: readonly FindingNote[];
  /** The files the team's rules left out of the review: named in the report, never silent. */
  excluded?: readonly ExcludedFile[];
  /** `gates.pre_push.mode`: in `warn` blocking findings are said as "would block" and let through. */
  mode?: GateMode;
  /** In warn mode, which config chose it (names the `gate block` command that undoes it). */
  modeFrom?: WarnModeFrom;
  /** Who gave the verdict (named on every report, cached or not). */
  reviewer?: PushReviewer;
}

/**
 * The report of one reviewed ref update, whatever the verdict's source: a block (with the recheck
 * hint when the verdict was cached), a loud note (or, with `on_partial: block`, a block) when only
 * part of the change was reviewed, or one line saying it passes. The files the rules left out are
 * named: on the pass line (`approved; excluded by rule: …`), else on a line of their own. In warn
 * mode blocking findings are said as "would block" and do not block (a partial review still
 * follows `on_partial`).
 *
 * @returns the text (lines ending in a newline), whether it blocks the push, and in warn mode how
 *   many findings would have blocked it (`wouldBlock`, absent when none)
 */
export function renderVerdict(
  verdict: PushVerdict,
): { text: string; blocked: boolean; wouldBlock?: number } {
  const { label, source, answer } = verdict;
  const cached = source !== "model";
  const excluded = verdict.excluded?.length ? excludedList(verdict.excluded) : "";
  const excludedLine = excluded
    ? sanitizeForTerminal(`Excluded by rule (not reviewed): ${excluded}\n`)
    : "";
  if (verdict.findings.length > 0 && verdict.mode === "warn") {
    const text = renderPrePushWouldBlock({
      label: cached ? `${label}${CACHED}` : label,
      findings: verdict.findings,
      reviewPath: `${verdict.runDir}/review.md`,
      reviewer: verdict.reviewer,
      modeFrom: verdict.modeFrom,
    });
    const partial = verdict.coverage?.status === "partial"
      ? renderVerdict({ ...verdict, findings: [], mode: undefined })
      : { text: excludedLine, blocked: false };
    return {
      text: text + partial.text + (cached ? `${PRE_PUSH_RECHECK_HINT}\n` : ""),
      blocked: partial.blocked,
      wouldBlock: verdict.findings.length,
    };
  }
  if (verdict.findings.length > 0) {
    const text = renderPrePushBlock({
      label: cached ? `${label}${CACHED}` : label,
      findings: verdict.findings,
      reviewPath: `${verdict.runDir}/review.md`,
      reviewer: verdict.reviewer,
    });
    return {
      text: text + excludedLine + (cached ? `${PRE_PUSH_RECHECK_HINT}\n` : ""),
      blocked: true,
    };
  }
  if (verdict.coverage?.status === "partial") {
    const blocked = verdict.onPartial === "block";
    const text = renderPartial({
      label: cached ? `${label}${CACHED}` : label,
      coverage: verdict.coverage,
      reviewPath: `${verdict.runDir}/review.md`,
      blocked,
      reviewer: verdict.reviewer,
    });
    return { text: text + excludedLine, blocked };
  }
  const acknowledged = acknowledgedFindings(answer, verdict.findingNotes);
  const others = answer.findings.length - acknowledged.length;
  const counts = [
    acknowledged.length > 0 ? plural(acknowledged.length, "acknowledged finding") : "",
    others > 0
      ? plural(others, `${acknowledged.length > 0 ? "other " : ""}non-blocking finding`)
      : "",
  ].filter(Boolean);
  const from = cached ? CACHED : "";
  const by = verdict.reviewer ? `; reviewed by ${reviewerText(verdict.reviewer)}` : "";
  const head = `review-gate: ${label}: ${verdict.status}${
    counts.map((c) => `, ${c}`).join("")
  }${from}${by}${excluded ? `; excluded by rule: ${excluded}` : ""}`;
  return {
    text: sanitizeForTerminal([head, ...acknowledgedLines(acknowledged)].join("\n") + "\n"),
    blocked: false,
  };
}

/** A finding the team acknowledged, with its acknowledgement. */
type AcknowledgedFinding = {
  finding: ReviewAnswer["findings"][number];
  ack: NonNullable<FindingNote["acknowledged"]>;
};

/** The answer's acknowledged findings, in answer order. */
function acknowledgedFindings(
  answer: ReviewAnswer,
  notes: readonly FindingNote[] | undefined,
): AcknowledgedFinding[] {
  return answer.findings.flatMap((finding, i) => {
    const ack = notes?.[i]?.acknowledged;
    return ack ? [{ finding, ack }] : [];
  });
}

/**
 * Two lines per acknowledged finding (at most {@linkcode MAX_LISTED_FINDINGS}, then a count): the
 * finding, and that it is acknowledged in the acks file, by whom, until when and why.
 */
function acknowledgedLines(acknowledged: readonly AcknowledgedFinding[]): string[] {
  const lines = acknowledged.slice(0, MAX_LISTED_FINDINGS).flatMap(({ finding, ack }) => [
    `  - ${renderFindingLine(finding)}`,
    `    acknowledged in ${ACKS_FILE}${ack.by ? ` by ${ack.by}` : ""}${
      ack.expires ? ` until ${ack.expires}` : ""
    }: ${JSON.stringify(ack.reason.replace(/\s+/g, " ").trim())}`,
  ]);
  const rest = acknowledged.length - MAX_LISTED_FINDINGS;
  if (rest > 0) lines.push(`  … and ${rest} more acknowledged (see ${ACKS_FILE})`);
  return lines;
}

/**
 * The one line a push prints when rule changes were not applied to it: a push is judged by the
 * rules the remote already has (lib/gates/pre_push/rules.ts).
 *
 * @param input the remote (`$1`) and what was not applied (`src/.gitattributes (pushed)`)
 * @returns one line ending in a newline, control and bidi characters neutralised
 */
export function renderRulesNotApplied(input: { remote: string; items: readonly string[] }): string {
  return sanitizeForTerminal(
    `review-gate: this push is judged by the rules ${input.remote} already has; not applied to it: ${
      input.items.join(", ")
    } (pushed edits to rule files are reviewed as code and apply once they are on the remote; the worktree's config may only make a push stricter)\n`,
  );
}
