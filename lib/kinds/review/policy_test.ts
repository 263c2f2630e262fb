import { deepEqual, equal } from "node:assert/strict";
import type { Finding, ReviewAnswer } from "./types.ts";
import { blockingFindings, policyOf, shownFindings, sortFindings } from "./policy.ts";
import { DEFAULT_CONFIG } from "../../config/config.ts";

/** The policy of the default config (`fail_on` "high", `min_confidence` 0.5). */
const DEFAULT_POLICY = policyOf(DEFAULT_CONFIG);

function finding(
  severity: Finding["severity"],
  confidence: number,
  file = "a.ts",
  extra: Partial<Finding> = {},
): Finding {
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
    ...extra,
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

Deno.test("policyOf() takes the policy keys from the config", () => {
  deepEqual(policyOf({ fail_on: "medium", min_confidence: 0.8 }), {
    failOn: "medium",
    minConfidence: 0.8,
    blockOnPreexisting: false,
  });
  deepEqual(
    policyOf({
      fail_on: "low",
      min_confidence: 0,
      categories: ["security"],
      block_on_preexisting: true,
      max_findings: 3,
    }),
    {
      failOn: "low",
      minConfidence: 0,
      categories: ["security"],
      blockOnPreexisting: true,
      maxFindings: 3,
    },
  );
  deepEqual(DEFAULT_POLICY, {
    failOn: "high",
    minConfidence: 0.5,
    categories: ["bug", "security", "performance", "reliability", "maintainability", "style"],
    blockOnPreexisting: false,
  });
});

Deno.test("blockingFindings() blocks only the categories allowed and, by default, introduced findings", async (t) => {
  const blocks = (f: Finding, policy = DEFAULT_POLICY) =>
    blockingFindings(answer("needs-attention", [f]), policy).length === 1;
  await t.step("every category blocks by default", () => {
    equal(blocks(finding("high", 0.9, "a.ts", { category: "style" })), true);
  });
  await t.step("a category left out of categories never blocks", () => {
    const policy = policyOf({ ...DEFAULT_CONFIG, categories: ["bug", "security"] });
    equal(blocks(finding("critical", 1, "a.ts", { category: "style" }), policy), false);
    equal(blocks(finding("high", 0.9, "a.ts", { category: "security" }), policy), true);
  });
  await t.step("pre-existing and outside findings block only with block_on_preexisting", () => {
    for (const scope of ["pre-existing-touched", "outside"] as const) {
      const f = finding("critical", 1, "a.ts", { scope });
      equal(blocks(f), false, scope);
      equal(blocks(f, policyOf({ ...DEFAULT_CONFIG, block_on_preexisting: true })), true, scope);
    }
  });
});

Deno.test("shownFindings() keeps blocking findings first, then the most severe, up to max_findings", () => {
  const policy = policyOf({ ...DEFAULT_CONFIG, max_findings: 2 });
  const style = finding("critical", 1, "s.ts", { category: "style", scope: "outside" });
  const high = finding("high", 0.6, "h.ts");
  const findings = [finding("low", 1, "l.ts"), style, finding("medium", 1, "m.ts"), high];
  const { shown, hidden } = shownFindings(answer("needs-attention", findings), policy);
  deepEqual(shown.map((f) => f.file), ["h.ts", "s.ts"], "the blocking high before the critical");
  equal(hidden, 2);
  const all = shownFindings(answer("needs-attention", findings), DEFAULT_POLICY);
  deepEqual([all.shown.length, all.hidden], [4, 0]);
});

Deno.test("sortFindings() orders files by code units, the same on every machine", () => {
  const files = ["é.ts", "f.ts", "B.ts", "a.ts"].map((file) => ({ ...finding("high", 0.9), file }));
  deepEqual(sortFindings(files).map((f) => f.file), ["B.ts", "a.ts", "f.ts", "é.ts"]);
});
