import assert from "node:assert/strict";
import config from "../../schemas/config.schema.json" with { type: "json" };
import review from "../../schemas/review.schema.json" with { type: "json" };
import { CATEGORIES, COUNCIL_POLICIES, SCOPES, SEVERITIES } from "./review.ts";

Deno.test("the shared words are the ones both schemas accept, in the same order", () => {
  const finding = review.properties.findings.items.properties;
  assert.deepEqual(finding.severity.enum, [...SEVERITIES]);
  assert.deepEqual(finding.category.enum, [...CATEGORIES]);
  assert.deepEqual(finding.scope.enum, [...SCOPES]);
  assert.deepEqual(config.properties.fail_on.enum, [...SEVERITIES]);
  assert.deepEqual(config.properties.categories.items.enum, [...CATEGORIES]);
  assert.deepEqual(config.properties.council_policy.enum, [...COUNCIL_POLICIES]);
});
