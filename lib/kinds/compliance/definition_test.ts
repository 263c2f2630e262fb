import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../config/config.ts";
import { policyOf } from "../review/policy.ts";
import { complianceDefinition, FAIL_ON_MISSING } from "./definition.ts";
import type { ComplianceAnswer, ItemStatus } from "./types.ts";

function answer(verdict: ComplianceAnswer["verdict"], ...statuses: ItemStatus[]) {
  return {
    verdict,
    summary: "s",
    items: statuses.map((status, i) => ({
      id: String(i + 1),
      status,
      evidence: status === "missing" ? [] : [{ file: "a.ts", line_start: 1, line_end: 1 }],
      note: "n",
    })),
    unplanned_changes: [],
  } as ComplianceAnswer;
}

Deno.test("compliance policy: only a compliant answer approves; --fail-on-missing blocks on missing or contradicted items, never on partial", async (t) => {
  const policy = policyOf(DEFAULT_CONFIG);
  const on = { policy, switches: new Set([FAIL_ON_MISSING]) };
  const off = { policy, switches: new Set<string>() };
  const cases: [string, ComplianceAnswer, string, boolean][] = [
    ["all done", answer("compliant", "done", "done"), "approved", false],
    ["partial", answer("incomplete", "done", "partial"), "needs-attention", false],
    ["missing", answer("incomplete", "done", "missing"), "needs-attention", true],
    ["contradicted", answer("deviates", "contradicted", "done"), "needs-attention", true],
  ];
  for (const [name, a, status, blocksWithSwitch] of cases) {
    await t.step(name, () => {
      assert.equal(complianceDefinition.status(a), status);
      assert.equal(complianceDefinition.blocking(a, on), blocksWithSwitch);
      assert.equal(complianceDefinition.blocking(a, off), false, "without the switch: never");
    });
  }
});
