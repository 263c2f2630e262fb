import assert from "node:assert/strict";
import type { RecordLine } from "./records.ts";
import { aggregate } from "./stats.ts";

const base: RecordLine = {
  id: "r",
  status: "approved",
  blocking: false,
  target: "t",
  provider: "claude",
  cached: false,
  attempts: 1,
  durationMs: 1000,
  finishedAt: "2026-11-30T10:00:00.000Z",
};

Deno.test("aggregate() counts calls, cache hits, blocks, not reviewed, acks, tokens and cost", () => {
  const lines: RecordLine[] = [
    {
      ...base,
      usage: { inputTokens: 20, outputTokens: 40, cacheReadTokens: 5 },
      costUsd: 0.00088,
      attempts: 2,
    },
    {
      ...base,
      status: "needs-attention",
      blocking: true,
      costUsd: 0.00044,
      acknowledged: 1,
      gate: "pre-push",
    },
    {
      ...base,
      cached: true,
      attempts: 0,
      gate: "pre-push",
      finishedAt: "2026-11-29T10:00:00.000Z",
    },
    {
      ...base,
      status: "provider-error",
      provider: "codex",
      usage: { inputTokens: 7 },
      gate: "claude-stop",
    },
    { ...base, status: "over-budget", attempts: 0, gate: "claude-stop" },
  ];
  const { total, groups } = aggregate(lines, "gate");
  assert.deepEqual(total, {
    runs: 5,
    calls: 3,
    attempts: 4,
    cacheHits: 1,
    blocks: 1,
    notReviewed: 2,
    acknowledged: 1,
    inputTokens: 27,
    outputTokens: 40,
    cachedTokens: 5,
    costUsd: 0.00132,
    costReported: 2,
    fakeRuns: 0,
    wallMs: 5000,
  });
  assert.deepEqual(groups.map((g) => [g.key, g.totals.runs]), [
    ["by hand", 1],
    ["claude-stop", 2],
    ["pre-push", 2],
  ]);
  assert.deepEqual(aggregate(lines, "day").groups.map((g) => g.key), ["2026-11-29", "2026-11-30"]);
  assert.equal(aggregate(lines, "provider").groups[1].totals.costReported, 0, "codex: no cost");
  assert.deepEqual(aggregate([]).groups, []);
});
