import assert from "node:assert/strict";
import type { RunResult } from "./record.ts";
import type { DefectOutcome, Hit, ScoredFinding } from "./score.ts";
import { METRIC_ROWS } from "./metrics.ts";
import { kindScoresOf, scoresOf, spreadOf, timing, unstableCases } from "./scores.ts";

function f(hallucinated = false): ScoredFinding {
  return {
    file: "a.ts",
    line_start: 1,
    line_end: 1,
    severity: "high",
    category: "bug",
    scope: "introduced",
    confidence: 0.9,
    title: "t",
    blocking: true,
    hit: "none",
    hallucinated,
  };
}

function d(found: Hit): DefectOutcome {
  return { file: "a.ts", line_start: 1, line_end: 1, min_severity: "medium", found };
}

function run(over: Partial<RunResult>): RunResult {
  return {
    case: "c",
    kind: "off-by-one",
    language: "typescript",
    clean: false,
    repeat: 1,
    status: "needs-attention",
    blocking: false,
    partial: false,
    findings: [],
    defects: [],
    reviewMs: 100,
    wallMs: 120,
    ...over,
  };
}

/** Six runs: four of defect cases (five defects), two of clean ones. */
const RUNS: RunResult[] = [
  run({
    case: "d1",
    blocking: true,
    findings: [f(), f(true)],
    defects: [d("line"), d("file")],
    inputTokens: 10,
    outputTokens: 20,
    costUsd: 0.25,
    reviewMs: 100,
  }),
  run({ case: "d2", status: "approved", defects: [d("none")], costUsd: 0.5, reviewMs: 300 }),
  run({ case: "d3", status: "invalid-answer", defects: [d("none")], reviewMs: 200 }),
  run({ case: "d4", status: "timeout", defects: [d("none")], reviewMs: 900 }),
  run({
    case: "c1",
    kind: "refactor",
    clean: true,
    blocking: true,
    findings: [f(true)],
    inputTokens: 5,
    reviewMs: 50,
  }),
  run({ case: "c2", kind: "refactor", clean: true, status: "approved", reviewMs: 400 }),
];

Deno.test("scoresOf() counts hits, blocks, findings, failures, tokens, cost and time exactly", () => {
  assert.deepEqual(scoresOf(RUNS), {
    runs: 6,
    answered: 4,
    defects: 5,
    lineHits: 1,
    fileHits: 2,
    lineRecall: 1 / 5,
    fileRecall: 2 / 5,
    defectRuns: 4,
    blockedDefectRuns: 1,
    blockRate: 1 / 4,
    cleanRuns: 2,
    falseBlocks: 1,
    falseBlockRate: 1 / 2,
    findings: 3,
    findingsPerCase: 3 / 4,
    hallucinated: 2,
    hallucinationRate: 2 / 3,
    invalidAnswers: 1,
    invalidAnswerRate: 1 / 6,
    couldNotRun: 1,
    couldNotRunRate: 1 / 6,
    inputTokens: 15,
    outputTokens: 20,
    tokensPerCase: 35 / 2,
    costUsd: 0.75,
    costPerCase: 0.375,
    costReported: 2,
    fakeRuns: 0,
    reviewMs: { mean: 325, median: 250, max: 900 },
  });
});

Deno.test("scoresOf() and the cost row never count the bundled fake's made-up cost as spend", () => {
  const fake = scoresOf([run({ fake: true }), run({ fake: true, clean: true })]);
  assert.equal(fake.costUsd, null, "the fake's cost is not money spent");
  assert.equal(fake.costReported, 0);
  assert.equal(fake.fakeRuns, 2);
  const cost = METRIC_ROWS.find((r) => r.label === "cost")!;
  assert.equal(cost.cell(fake), "fake (the bundled fake's made-up cost, not counted)");
  const mixed = scoresOf([run({ costUsd: 0.5 }), run({ fake: true })]);
  assert.equal(mixed.costUsd, 0.5);
  assert.equal(
    cost.cell(mixed),
    "$0.5000 ($0.5000/case, 1 of 2 runs reported, 1 by the bundled fake not counted)",
  );
});

Deno.test("scoresOf() says null where there was nothing to count, never 0", () => {
  const clean = scoresOf([run({ clean: true, status: "approved" })]);
  assert.equal(clean.lineRecall, null, "no defect case");
  assert.equal(clean.fileRecall, null);
  assert.equal(clean.blockRate, null);
  assert.equal(clean.falseBlockRate, 0);
  assert.equal(clean.hallucinationRate, null, "no finding");
  assert.equal(clean.inputTokens, null, "no tokens reported");
  assert.equal(clean.costUsd, null, "no cost reported (codex, vibe)");
  assert.equal(clean.costPerCase, null);
  assert.equal(clean.tokensPerCase, null);
  const none = scoresOf([]);
  assert.equal(none.findingsPerCase, null);
  assert.equal(none.invalidAnswerRate, null);
  assert.equal(none.reviewMs, null);
  assert.equal(scoresOf([run({ defects: [d("line")] })]).falseBlockRate, null, "no clean case");
});

Deno.test("spreadOf() gives min, max and standard deviation of each rate over repeats", () => {
  const first = scoresOf([run({ defects: [d("line")] }), run({ defects: [d("line")] })]);
  const second = scoresOf([run({ defects: [d("line")] }), run({ defects: [d("none")] })]);
  const spread = spreadOf([first, second]);
  assert.deepEqual(spread.lineRecall, { min: 0.5, max: 1, stdev: 0.25 });
  assert.deepEqual(spread.invalidAnswerRate, { min: 0, max: 0, stdev: 0 });
  assert.equal(spread.falseBlockRate, undefined, "no repeat had a clean case");
  assert.deepEqual(spreadOf([first]), {}, "one repeat has no spread");
});

Deno.test("unstableCases() names the cases whose outcome changed between repeats", () => {
  const runs = [
    run({ case: "b", defects: [d("line")] }),
    run({ case: "b", repeat: 2, defects: [d("file")] }),
    run({ case: "a", clean: true, status: "approved" }),
    run({ case: "a", clean: true, repeat: 2, status: "needs-attention", blocking: true }),
    run({ case: "c", status: "timeout" }),
    run({ case: "c", repeat: 2, status: "provider-error" }),
    run({ case: "d", findings: [f()] }),
    run({ case: "d", repeat: 2, findings: [f(), f()] }),
  ];
  assert.deepEqual(unstableCases(runs), ["a", "b", "c"]);
});

Deno.test("kindScoresOf() gives recall per defect kind and false blocks per clean kind", () => {
  assert.deepEqual(kindScoresOf(RUNS), [
    {
      kind: "off-by-one",
      cases: 4,
      runs: 4,
      defects: 5,
      lineHits: 1,
      fileHits: 2,
      lineRecall: 0.2,
      fileRecall: 0.4,
      cleanRuns: 0,
      falseBlocks: 0,
      falseBlockRate: null,
    },
    {
      kind: "refactor",
      cases: 2,
      runs: 2,
      defects: 0,
      lineHits: 0,
      fileHits: 0,
      lineRecall: null,
      fileRecall: null,
      cleanRuns: 2,
      falseBlocks: 1,
      falseBlockRate: 0.5,
    },
  ]);
});

Deno.test("timing() gives mean, median and the largest", () => {
  assert.deepEqual(timing([3, 1, 2]), { mean: 2, median: 2, max: 3 });
  assert.deepEqual(timing([4, 1]), { mean: 2.5, median: 2.5, max: 4 });
  assert.equal(timing([]), null);
});
