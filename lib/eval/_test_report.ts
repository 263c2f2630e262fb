/**
 * Test helper: a small eval record with two provider columns over three cases and two repeats — a
 * finding with a hostile title, a run that could not run, a budget stop — for the renderers' tests.
 *
 * @module
 */
import type { EvalReport, RunResult } from "./record.ts";
import { providerResult } from "./report.ts";
import type { ScoredFinding } from "./score.ts";

/** A title a model could write to break out of any format. */
export const HOSTILE_TITLE =
  `<img src=x onerror=alert(1)> ![pixel](https://evil.example/p.png) [click](https://evil.example) @team \x1b[2J`;

function finding(over: Partial<ScoredFinding>): ScoredFinding {
  return {
    file: "src/a.ts",
    line_start: 3,
    line_end: 3,
    severity: "high",
    category: "bug",
    scope: "introduced",
    confidence: 0.9,
    title: "Off by one",
    blocking: true,
    hit: "line",
    hallucinated: false,
    ...over,
  };
}

function run(over: Partial<RunResult>): RunResult {
  return {
    case: "ts/off-by-one",
    kind: "off-by-one",
    language: "typescript",
    clean: false,
    repeat: 1,
    status: "needs-attention",
    blocking: true,
    partial: false,
    findings: [],
    defects: [],
    reviewMs: 1500,
    wallMs: 1600,
    ...over,
  };
}

const defect = { file: "src/a.ts", line_start: 3, line_end: 3, min_severity: "medium" as const };

/** Runs of one column: caught in repeat 1, missed in repeat 2 (so its case is unstable). */
function claudeRuns(): RunResult[] {
  return [1, 2].flatMap((repeat) => [
    run({
      repeat,
      findings: repeat === 1 ? [finding({ title: HOSTILE_TITLE })] : [],
      defects: [{ ...defect, found: repeat === 1 ? "line" : "none" }],
      blocking: repeat === 1,
      status: repeat === 1 ? "needs-attention" : "approved",
      inputTokens: 10,
      outputTokens: 20,
      costUsd: 0.25,
      model: "claude-x",
    }),
    run({
      case: "ts/refactor",
      kind: "refactor",
      clean: true,
      repeat,
      status: "approved",
      blocking: false,
      costUsd: 0.25,
      model: "claude-x",
    }),
  ]);
}

/** The record. */
export function testReport(): EvalReport {
  const codex = [
    run({
      status: "timeout",
      blocking: false,
      message: "the provider passed 600 s",
      defects: [{ ...defect, found: "none" }],
    }),
    run({
      case: "ts/refactor",
      kind: "refactor",
      clean: true,
      findings: [finding({ hit: "none", hallucinated: true, line_start: 1, line_end: 1 })],
    }),
  ];
  return {
    version: 1,
    tool: { name: "review-gate", version: "0.0.0" },
    suite: {
      path: "/suites/mine",
      cases: 2,
      total: 5,
      clean: 1,
      languages: ["typescript"],
      kinds: ["off-by-one", "refactor"],
    },
    settings: { repeat: 2, jobs: 1, budgetUsd: 1, failOn: "high", minConfidence: 0.5 },
    startedAt: "2026-12-03T10:00:00.000Z",
    finishedAt: "2026-12-03T10:00:12.000Z",
    durationMs: 12_000,
    stopped: { reason: "budget", notRun: 2 },
    notes: ["stopped by --budget 1 USD after 1.0000 USD reported"],
    providers: [
      providerResult({ label: "claude", provider: "claude" }, claudeRuns(), 2),
      providerResult({ label: "codex:gpt-5", provider: "codex", model: "gpt-5" }, codex, 2),
    ],
  };
}
