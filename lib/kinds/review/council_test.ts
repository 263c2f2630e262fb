import assert from "node:assert/strict";
import { agreements, agreementText, enoughAgree } from "./council.ts";
import { blockingFindings, policyOf } from "./policy.ts";
import { DEFAULT_CONFIG } from "../../config/config.ts";
import type { Finding } from "./types.ts";

Deno.test("enoughAgree: any, majority and all of the providers that reviewed a part", () => {
  const table: [number, number, boolean, boolean, boolean][] = [
    // agreed, of, any, majority, all
    [1, 1, true, true, true],
    [1, 2, true, false, false],
    [2, 2, true, true, true],
    [1, 3, true, false, false],
    [2, 3, true, true, false],
    [3, 3, true, true, true],
    [0, 2, false, false, false],
  ];
  for (const [agreed, of, any, majority, all] of table) {
    assert.equal(enoughAgree(agreed, of, "any"), any, `${agreed}/${of} any`);
    assert.equal(enoughAgree(agreed, of, "majority"), majority, `${agreed}/${of} majority`);
    assert.equal(enoughAgree(agreed, of, "all"), all, `${agreed}/${of} all`);
  }
});

Deno.test("agreements count only the providers that answered the finding's part", () => {
  const council = {
    providers: ["claude", "codex", "vibe"],
    // codex failed on part 2 (on_partial allow): it never saw those lines
    answeredBy: new Map([[1, ["claude", "codex", "vibe"]], [2, ["claude", "vibe"]]]),
  };
  const sources = [
    { parts: [1], providers: ["codex", "claude"] },
    { parts: [2], providers: ["vibe"] },
    { parts: [2], providers: ["claude", "vibe"] },
  ];
  const all = agreements(sources, council, "all");
  assert.deepEqual(all, [
    { agreed: ["claude", "codex"], of: ["claude", "codex", "vibe"], enough: false },
    { agreed: ["vibe"], of: ["claude", "vibe"], enough: false },
    { agreed: ["claude", "vibe"], of: ["claude", "vibe"], enough: true },
  ]);
  assert.deepEqual(agreements(sources, council, "majority").map((a) => a.enough), [
    true,
    false,
    true,
  ]);
  assert.equal(agreementText(all[2], "all"), "agreed: claude, vibe (2 of 2)");
  assert.equal(
    agreementText(all[0], "all"),
    "only claude, codex (2 of 3; not vibe); does not block (council_policy all)",
  );
});

Deno.test("blockingFindings leaves out a council finding without enough agreement", () => {
  const finding = (title: string): Finding => ({
    severity: "high",
    category: "bug",
    scope: "introduced",
    title,
    body: "b",
    file: "a.ts",
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "r",
  });
  const answer = {
    verdict: "needs-attention" as const,
    summary: "s",
    findings: [finding("one"), finding("two"), finding("three")],
    next_steps: [],
  };
  const notes = [
    { fingerprint: "a", agreement: { agreed: ["claude"], of: ["claude", "codex"], enough: false } },
    {
      fingerprint: "b",
      agreement: { agreed: ["claude", "codex"], of: ["claude", "codex"], enough: true },
    },
    { fingerprint: "c" },
  ];
  const blocking = blockingFindings(answer, policyOf(DEFAULT_CONFIG), notes);
  assert.deepEqual(blocking.map((f) => f.title), ["two", "three"]);
});
