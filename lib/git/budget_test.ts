import assert from "node:assert/strict";
import { planBudget } from "./budget.ts";

Deno.test("planBudget() includes everything within budget", () => {
  const plan = planBudget([{ path: "a", binary: false, size: 10 }], {
    perFileBytes: 10,
    totalBytes: 10,
  });
  assert.deepEqual(plan.reasons, [undefined]);
  assert.deepEqual(plan.coverage, {
    status: "complete",
    omitted: [],
    includedBytes: 10,
    totalBytes: 10,
  });
});

Deno.test("planBudget() cuts big files, then the largest files past the total", () => {
  const items = [
    { path: "big", binary: false, size: 500 },
    { path: "mid", binary: false, size: 60 },
    { path: "bin", binary: true, size: 30 },
    { path: "small1", binary: false, size: 40 },
    { path: "small2", binary: false, size: 40 },
  ];
  const plan = planBudget(items, { perFileBytes: 100, totalBytes: 100 });
  assert.deepEqual(plan.reasons, ["file-budget", "total-budget", "binary", undefined, undefined]);
  assert.deepEqual(plan.coverage, {
    status: "partial",
    omitted: [
      { path: "big", reason: "file-budget" },
      { path: "mid", reason: "total-budget" },
      { path: "bin", reason: "binary" },
    ],
    includedBytes: 80,
    totalBytes: 670,
  });
});

Deno.test("planBudget() keeps coverage complete when only binary files are left out", () => {
  const plan = planBudget([{ path: "b", binary: true, size: 5 }], {
    perFileBytes: 1,
    totalBytes: 1,
  });
  assert.equal(plan.coverage.status, "complete");
  assert.deepEqual(plan.coverage.omitted, [{ path: "b", reason: "binary" }]);
});

Deno.test("planBudget() never inlines a submodule and makes coverage partial", () => {
  const plan = planBudget([
    { path: "a.txt", binary: false, size: 10 },
    { path: "sm", binary: false, submodule: true, size: 5 },
  ], { perFileBytes: 100, totalBytes: 100 });
  assert.deepEqual(plan.reasons, [undefined, "submodule"]);
  assert.equal(plan.coverage.status, "partial");
  assert.deepEqual(plan.coverage.omitted, [{ path: "sm", reason: "submodule" }]);
  assert.equal(plan.coverage.includedBytes, 10);
});
