import assert from "node:assert/strict";
import { mergeAnswers, sameIssue } from "./merge.ts";
import type { Finding, ReviewAnswer } from "./types.ts";

function finding(over: Partial<Finding>): Finding {
  return {
    severity: "medium",
    category: "bug",
    scope: "introduced",
    title: "Off by one in the page count",
    body: "b",
    file: "src/page.ts",
    line_start: 10,
    line_end: 12,
    confidence: 0.6,
    recommendation: "r",
    ...over,
  };
}

function answer(findings: Finding[], summary = "s", steps: string[] = []): ReviewAnswer {
  return {
    verdict: findings.length > 0 ? "needs-attention" : "approve",
    summary,
    findings,
    next_steps: steps,
  };
}

Deno.test("sameIssue() matches exact duplicates and overlapping reports of one issue only", () => {
  const a = finding({});
  assert.ok(sameIssue(a, finding({})));
  assert.ok(
    sameIssue(a, finding({ line_start: 12, line_end: 20, title: "Off-by-one in page count" })),
  );
  assert.ok(!sameIssue(a, finding({ line_start: 13, line_end: 20 })), "no overlap");
  assert.ok(!sameIssue(a, finding({ file: "src/other.ts" })));
  assert.ok(!sameIssue(a, finding({ title: "SQL injection through the sort key" })));
});

Deno.test("mergeAnswers() collapses duplicates, keeps the most severe report whole, records sources", () => {
  const merged = mergeAnswers([
    {
      answer: answer([finding({})], "first part fine", ["Add a test"]),
      part: 1,
      provider: "claude",
    },
    {
      answer: answer(
        [
          finding({
            severity: "high",
            confidence: 0.5,
            line_start: 11,
            title: "Page count off by one",
          }),
          finding({ file: "src/b.ts", title: "Unchecked error", severity: "low" }),
        ],
        "second part",
        ["Add a test", "Handle the error"],
      ),
      part: 2,
      provider: "claude",
    },
    { answer: answer([]), part: 3, provider: "claude" },
  ], { count: 3, by: "part" });
  assert.equal(merged.answer.verdict, "needs-attention");
  assert.equal(merged.answer.findings.length, 2);
  const [top, low] = merged.answer.findings;
  assert.equal(top.severity, "high");
  assert.equal(top.title, "Page count off by one");
  assert.equal(top.confidence, 0.5, "the confidence of that same report, never mixed");
  assert.equal(low.file, "src/b.ts");
  assert.deepEqual(merged.sources.map((s) => s.versions?.map((v) => v.part)), [[1, 2], [2]]);
  assert.deepEqual(merged.sources.map(({ parts, providers }) => ({ parts, providers })), [
    { parts: [1, 2], providers: ["claude"] },
    { parts: [2], providers: ["claude"] },
  ]);
  assert.deepEqual(merged.answer.next_steps, ["Add a test", "Handle the error"]);
  assert.match(merged.answer.summary, /^Part 1 of 3: first part fine\n\nPart 2 of 3: second part/);
  const clean = mergeAnswers([{ answer: answer([]), part: 1, provider: "codex" }], {
    count: 1,
    by: "part",
  });
  assert.equal(clean.answer.verdict, "approve");
  assert.equal(clean.answer.summary, "s");
});
