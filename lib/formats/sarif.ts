/**
 * SARIF 2.1.0 (OASIS; GitHub code scanning and other SARIF consumers), pure: one run whose
 * `tool.driver` has one rule per severity, one result per finding (level from severity,
 * repository-relative `%SRCROOT%` location with a line region, stable `partialFingerprints`,
 * confidence, recommendation, category and scope in `properties`), acknowledged findings as
 * `external` suppressions, and one invocation whose `executionSuccessful` is false for a review
 * that could not run. What was not reviewed is said in `toolExecutionNotifications` (an error when
 * nothing was, a warning per part left out). Checked in tests against the official schema
 * (test/schemas/); GitHub's extra requirements per its "SARIF support for code scanning" page.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { SEVERITIES, type Severity } from "../kinds/review/types.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import type { RunRecord } from "../store/run_record.ts";
import { narrowedLine } from "../git/coverage_text.ts";
import type { RenderInput, RenderOptions } from "./renderer.ts";
import { nonBlockingLevel, pathUri, ruleId, SARIF_LEVEL } from "./levels.ts";
import { buildView, cachedVerdictNote, type FindingView, type ReviewView } from "./view.ts";
import { choiceText } from "../providers/choice.ts";

/** Where review-gate documents itself (the domain its schema `$id`s use). */
export const INFORMATION_URI = "https://review-gate.dev";
/** The `$schema` GitHub's documentation uses for SARIF 2.1.0. */
const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
/** `partialFingerprints` key of our own fingerprint (versioned, SARIF §3.27.17). */
export const FINGERPRINT_KEY = "reviewGate/v1";
/** The base every location is relative to: the repository root. */
const SRCROOT = "%SRCROOT%";

type Json = Record<string, unknown>;

const PROBLEM_SEVERITY: Record<Severity, string> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "recommendation",
};

/** The four rules, one per severity (stable ids: GitHub matches alerts across runs by rule). */
function rules(): Json[] {
  return SEVERITIES.map((severity) => ({
    id: ruleId(severity),
    name: `${severity[0].toUpperCase()}${severity.slice(1)}ReviewFinding`,
    shortDescription: { text: `A ${severity}-severity finding of an AI code review` },
    fullDescription: {
      text:
        `review-gate asked a coding agent to review the change; it reported this ${severity}-severity problem. The decoder checked that it points at lines of the reviewed tree.`,
    },
    help: {
      text:
        `Read the finding and its recommendation. If it is not a problem, accept it with the review-gate ack command in its properties (recorded in .review-gate/acks.json).`,
    },
    defaultConfiguration: { level: SARIF_LEVEL[severity] },
    properties: {
      tags: ["ai-review", severity],
      precision: "medium",
      "problem.severity": PROBLEM_SEVERITY[severity],
    },
  }));
}

/** `Title. Body` then the recommendation: code scanning shows the first sentence as the title. */
function messageText(view: FindingView): string {
  const f = view.finding;
  const title = /[.!?]$/.test(f.title.trim()) ? f.title.trim() : `${f.title.trim()}.`;
  return `${title} ${f.body}\n\nRecommendation: ${f.recommendation}`;
}

function physical(path: string, region?: { startLine: number; endLine: number }): Json {
  return {
    physicalLocation: {
      artifactLocation: { uri: pathUri(path), uriBaseId: SRCROOT },
      ...(region ? { region } : {}),
    },
  };
}

function result(view: FindingView, suppressions: boolean): Json {
  const f = view.finding;
  const properties: Json = {
    severity: f.severity,
    category: f.category,
    scope: f.scope,
    confidence: f.confidence,
    recommendation: f.recommendation,
    blocking: view.blocking,
    ...(view.wouldBlock ? { wouldBlock: true } : {}),
    index: view.index,
  };
  if (view.fingerprint) {
    properties.fingerprint = view.fingerprint;
    if (!view.acknowledged) {
      properties.ackCommand = `review-gate ack ${
        view.fingerprint.slice(0, SHORT_FINGERPRINT)
      } --reason "…"`;
    }
  }
  if (view.acknowledged) properties.acknowledged = view.acknowledged;
  return {
    ruleId: ruleId(f.severity),
    ruleIndex: SEVERITIES.indexOf(f.severity),
    level: view.blocking
      ? SARIF_LEVEL[f.severity]
      : nonBlockingLevel(SARIF_LEVEL[f.severity], "error", "warning"),
    message: { text: messageText(view) },
    locations: [physical(f.file, { startLine: f.line_start, endLine: f.line_end })],
    ...(view.fingerprint
      ? {
        partialFingerprints: {
          primaryLocationLineHash: view.fingerprint,
          [FINGERPRINT_KEY]: view.fingerprint,
        },
      }
      : {}),
    ...(suppressions
      ? {
        suppressions: view.acknowledged
          ? [{
            kind: "external",
            status: "accepted",
            justification: view.acknowledged.reason,
            ...(view.acknowledged.by ? { properties: { by: view.acknowledged.by } } : {}),
          }]
          : [],
      }
      : {}),
    properties,
  };
}

/**
 * What was not reviewed, as notifications: error when nothing was, warnings for parts; a note when
 * the verdict came from the cache.
 */
function notifications(record: RunRecord, view: ReviewView): Json[] {
  if (view.reviewed === "nothing-to-review") {
    return [{ level: "note", message: { text: "Nothing to review: the target has no change." } }];
  }
  const cached = cachedVerdictNote(record);
  const narrowed = record.coverage ? narrowedLine(record.coverage) : "";
  const note = [
    ...(cached ? [{ level: "note", message: { text: `The ${cached}.` } }] : []),
    ...(narrowed ? [{ level: "note", message: { text: `${narrowed}.` } }] : []),
  ];
  const headline = view.unreviewed[0];
  if (!headline) return note;
  return [
    ...note,
    { level: view.reviewed === "none" ? "error" : "warning", message: { text: headline } },
    ...view.unreviewedParts.map((part) => ({
      level: "warning",
      message: { text: part.text },
      locations: [physical(part.path)],
    })),
  ];
}

function runProperties(record: RunRecord, view: ReviewView): Json {
  return {
    status: record.status,
    reviewed: view.reviewed,
    target: record.target.label,
    ...(record.coverage?.paths ? { narrowedTo: record.coverage.paths } : {}),
    provider: record.provider,
    ...(record.providerChoice
      ? { providerChoice: { ...record.providerChoice, text: choiceText(record.providerChoice) } }
      : {}),
    ...(record.model ? { model: record.model } : {}),
    ...(record.id ? { runId: record.id } : {}),
    cached: record.cached,
    ...(record.cachedFrom ? { cachedFrom: record.cachedFrom } : {}),
    blockingFindings: view.blocking,
    ...(record.gateMode === "warn"
      ? { gateMode: record.gateMode, wouldBlockFindings: view.wouldBlock }
      : {}),
    acknowledgedFindings: view.acknowledged,
  };
}

/**
 * Render a finished review as a SARIF 2.1.0 log: the sarif format's `Renderer`
 * (lib/formats/renderer.ts).
 *
 * @param input the run record, the answer when there is one, and the run's exit code
 * @param options `policy` decides which findings block (recorded in each result's properties)
 * @returns the log as pretty JSON ending in a newline
 */
export function renderSarif(input: RenderInput, options: RenderOptions): string {
  const view = buildView(input, options.policy);
  // SARIF §3.27.23: suppressions are on every result of a run or on none.
  const suppressions = view.acknowledged > 0;
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "review-gate",
          semanticVersion: denoJson.version,
          version: denoJson.version,
          informationUri: INFORMATION_URI,
          rules: rules(),
        },
      },
      originalUriBaseIds: { [SRCROOT]: { description: { text: "The repository root." } } },
      invocations: [{
        executionSuccessful: view.reviewed !== "none",
        exitCode: input.exitCode,
        toolExecutionNotifications: notifications(input.record, view),
      }],
      results: view.findings.map((f) => result(f, suppressions)),
      properties: runProperties(input.record, view),
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
