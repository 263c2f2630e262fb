import assert from "node:assert/strict";
import { GITHUB_COMMAND, nonBlockingLevel, RDJSON_SEVERITY, SARIF_LEVEL } from "./levels.ts";

Deno.test("nonBlockingLevel() turns only the error level into a warning", () => {
  assert.equal(nonBlockingLevel(SARIF_LEVEL.critical, "error", "warning"), "warning");
  assert.equal(nonBlockingLevel(SARIF_LEVEL.high, "error", "warning"), "warning");
  assert.equal(nonBlockingLevel(SARIF_LEVEL.medium, "error", "warning"), "warning");
  assert.equal(nonBlockingLevel(SARIF_LEVEL.low, "error", "warning"), "note");
  assert.equal(nonBlockingLevel(GITHUB_COMMAND.high, "error", "warning"), "warning");
  assert.equal(nonBlockingLevel(GITHUB_COMMAND.low, "error", "warning"), "notice");
});

Deno.test("the formats' level tables agree: critical and high errors, medium warnings, low notes", () => {
  assert.deepEqual(SARIF_LEVEL, {
    critical: "error",
    high: "error",
    medium: "warning",
    low: "note",
  });
  assert.deepEqual(RDJSON_SEVERITY, {
    critical: "ERROR",
    high: "ERROR",
    medium: "WARNING",
    low: "INFO",
  });
  assert.deepEqual(GITHUB_COMMAND, {
    critical: "error",
    high: "error",
    medium: "warning",
    low: "notice",
  });
});
