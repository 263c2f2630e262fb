import { deepEqual, equal } from "node:assert/strict";
import type { Finding, ReviewAnswer } from "./types.ts";
import { blockingFindings, policyOf, sortFindings } from "./policy.ts";
import { DEFAULT_CONFIG } from "../../config/config.ts";

/** The policy of the default config (`fail_on` "high", `min_confidence` 0.5). */
const DEFAULT_POLICY = policyOf(DEFAULT_CONFIG);

function finding(severity: Finding["severity"], confidence: number, file = "a.ts"): Finding {
  return {
    severity,
    category: "bug",
    scope: "introduced",
    confidence,
    file,
    title: severity,
    body: "b",
    line_start: 1,
    line_end: 1,
    recommendation: "r",
  };
}

function answer(verdict: ReviewAnswer["verdict"], findings: Finding[]): ReviewAnswer {
  return { verdict, summary: "s", findings, next_steps: [] };
}

Deno.test("blockingFindings() applies severity threshold and confidence floor", async (t) => {
  const cases: [string, Finding[], string[]][] = [
    ["high at 0.9 blocks", [finding("high", 0.9)], ["high"]],
    ["critical at 0.5 blocks (floor inclusive)", [finding("critical", 0.5)], ["critical"]],
    ["high at 0.49 does not block", [finding("high", 0.49)], []],
    ["medium never blocks at fail_on high", [finding("medium", 1)], []],
  ];
  for (const [name, findings, expected] of cases) {
    await t.step(name, () => {
      const got = blockingFindings(answer("needs-attention", findings), DEFAULT_POLICY);
      deepEqual(got.map((f) => f.severity), expected);
    });
  }
  await t.step("fail_on medium makes medium block", () => {
    const got = blockingFindings(answer("needs-attention", [finding("medium", 0.8)]), {
      failOn: "medium",
      minConfidence: 0.5,
    });
    equal(got.length, 1);
  });
  await t.step("an acknowledged finding never blocks; the others still do", () => {
    const both = answer("needs-attention", [
      finding("critical", 1, "a.ts"),
      finding("high", 1, "b.ts"),
    ]);
    const notes = [{ fingerprint: "f1", acknowledged: { reason: "accepted" } }, {
      fingerprint: "f2",
    }];
    deepEqual(blockingFindings(both, DEFAULT_POLICY, notes).map((f) => f.file), ["b.ts"]);
    deepEqual(blockingFindings(both, DEFAULT_POLICY).map((f) => f.file), ["a.ts", "b.ts"]);
  });
  await t.step("approve never blocks", () => {
    equal(
      blockingFindings(answer("approve", [finding("medium", 1)]), {
        failOn: "low",
        minConfidence: 0,
      }).length,
      0,
    );
  });
});

Deno.test("sortFindings() puts the most severe, most confident first", () => {
  const sorted = sortFindings([
    finding("low", 1),
    finding("high", 0.6),
    finding("high", 0.9),
    finding("critical", 0.1),
  ]);
  deepEqual(sorted.map((f) => `${f.severity}:${f.confidence}`), [
    "critical:0.1",
    "high:0.9",
    "high:0.6",
    "low:1",
  ]);
});

Deno.test("policyOf() takes fail_on and min_confidence from the config", () => {
  deepEqual(policyOf({ fail_on: "medium", min_confidence: 0.8 }), {
    failOn: "medium",
    minConfidence: 0.8,
  });
  deepEqual(DEFAULT_POLICY, { failOn: "high", minConfidence: 0.5 });
});
