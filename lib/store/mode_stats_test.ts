import assert from "node:assert/strict";
import type { RecordLine } from "./records.ts";
import { modeRows } from "./mode_stats.ts";

const base: RecordLine = {
  id: "r",
  status: "approved",
  blocking: false,
  target: "t",
  provider: "claude",
  gate: "pre-push",
  cached: false,
  attempts: 1,
  durationMs: 1000,
  finishedAt: "2026-11-30T10:00:00.000Z",
};

Deno.test("modeRows() gives per gate and mode the reviews, blocks, would-blocks and acknowledged ones", () => {
  const warn = { ...base, mode: "warn" as const };
  const lines: RecordLine[] = [
    // pre-push in warn mode: 4 reviews, 2 would block, 1 with an acknowledged finding
    { ...warn, status: "needs-attention", would_block: true, would_block_findings: 2 },
    { ...warn, status: "needs-attention", would_block: true, would_block_findings: 1 },
    { ...warn, status: "needs-attention", acknowledged: 1 },
    warn,
    // not reviewed: no verdict, not counted
    { ...warn, status: "provider-error" },
    // pre-push before warn mode (no `mode`): block mode, 1 of 2 blocked
    { ...base, status: "needs-attention", blocking: true },
    base,
    // a Stop gate in warn mode
    { ...warn, gate: "claude-stop", acknowledged: 2 },
    // gates without a mode, and reviews by hand, have no row
    { ...base, gate: "ci", blocking: true },
    { ...base, gate: "claude-work" },
    { ...base, gate: undefined },
  ];
  assert.deepEqual(modeRows(lines), [
    {
      gate: "claude-stop",
      mode: "warn",
      reviews: 1,
      blocked: 0,
      wouldBlock: 0,
      acknowledged: 1,
      blockRate: 0,
      acknowledgedRate: 1,
    },
    {
      gate: "pre-push",
      mode: "block",
      reviews: 2,
      blocked: 1,
      wouldBlock: 0,
      acknowledged: 0,
      blockRate: 0.5,
      acknowledgedRate: 0,
    },
    {
      gate: "pre-push",
      mode: "warn",
      reviews: 4,
      blocked: 0,
      wouldBlock: 2,
      acknowledged: 1,
      blockRate: 0.5,
      acknowledgedRate: 0.25,
    },
  ]);
  assert.deepEqual(modeRows([]), []);
});
