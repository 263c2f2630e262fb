import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../config/config.ts";
import { reviewDefinition } from "./definition.ts";
import { fingerprintFindings } from "./fingerprint.ts";
import type { Finding, ReviewAnswer } from "./types.ts";

const finding = (over: Partial<Finding>): Finding => ({
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: "Off by one in the page offset",
  body: "b",
  file: "a.ts",
  line_start: 2,
  line_end: 3,
  confidence: 0.9,
  recommendation: "r",
  ...over,
});

const answer = (...findings: Finding[]): ReviewAnswer => ({
  verdict: findings.length > 0 ? "needs-attention" : "approve",
  summary: "s",
  findings,
  next_steps: [],
});

const parts = reviewDefinition.parts!;
const policy = reviewDefinition.policy(DEFAULT_CONFIG);

Deno.test("review definition: a merged finding is shown as a report of it that blocks, whole, and a council counts who blocks", async () => {
  // the same issue from two providers: codex's critical report is too unsure to block, claude's
  // high one blocks; the merge keeps the most severe report (codex's)
  const merged = await parts.merge([
    {
      answer: answer(finding({ severity: "critical", confidence: 0.3 })),
      part: 1,
      provider: "codex",
    },
    { answer: answer(finding({ severity: "high", confidence: 0.9 })), part: 1, provider: "claude" },
  ], { count: 1, by: "provider" });
  const before = (merged.answer as ReviewAnswer).findings;
  assert.deepEqual(before.map((f) => [f.severity, f.confidence]), [["critical", 0.3]]);
  const council = {
    providers: ["claude", "codex"],
    answeredBy: new Map([[1, ["claude", "codex"]]]),
    policy: "majority" as const,
  };
  const settled = await parts.settle(merged.answer, { sources: merged.sources, policy, council });
  const shown = (settled.answer as ReviewAnswer).findings;
  assert.deepEqual(shown.map((f) => [f.severity, f.confidence]), [["high", 0.9]]);
  assert.deepEqual(
    before.map((f) => f.severity),
    ["critical"],
    "the merged answer is left as it was",
  );
  // only claude's own report blocks: one of two is not a majority
  assert.deepEqual(settled.agreements, [
    { agreed: ["claude", "codex"], of: ["claude", "codex"], enough: false },
  ]);
  const notes = [{ fingerprint: "f", agreement: settled.agreements![0] }];
  assert.equal(
    reviewDefinition.blocking(settled.answer, { policy, switches: new Set(), notes }),
    false,
  );
  // parts without a council: the blocking report is shown, no agreements
  const alone = await parts.settle(merged.answer, { sources: merged.sources, policy });
  assert.equal(alone.agreements, undefined);
  assert.equal((alone.answer as ReviewAnswer).findings[0].severity, "high");
  assert.equal(reviewDefinition.blocking(alone.answer, { policy, switches: new Set() }), true);
});

Deno.test("review definition: fingerprints are the findings' own, from the reviewed tree", async () => {
  const tree = { text: (path: string) => Promise.resolve(path === "a.ts" ? "1\n2\n3\n" : null) };
  const findings = [finding({}), finding({ file: "gone.ts" })];
  assert.deepEqual(
    await reviewDefinition.findings!.fingerprints(answer(...findings), tree),
    await fingerprintFindings(findings, tree),
  );
});
