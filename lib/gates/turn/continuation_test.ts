import assert from "node:assert/strict";
import { isBlockContinuation } from "./continuation.ts";
import { buildStopBlock, buildStopCouldNotRun, buildStopPartial } from "./answer.ts";

const reasonOf = (line: string) => (JSON.parse(line) as { reason: string }).reason;
const blocked = { consecutiveBlocks: 1 };

Deno.test("continuation: every block reason we send, handed back after a block, is the same turn", () => {
  const reasons = [
    buildStopBlock({
      findings: [{ severity: "high", title: "t", file: "a.ts", line: 1 }] as never,
      maxBlocks: 3,
    }),
    buildStopCouldNotRun({ reason: "x", block: true, gateName: "copilot-stop" }),
    buildStopPartial({ partial: "p", reviewPath: "/r", block: true, gateName: "copilot-stop" }),
  ].map(reasonOf);
  for (const reason of reasons) assert.ok(isBlockContinuation(blocked, reason), reason);
});

Deno.test("continuation: the user's own prompt, or any prompt when the last stop did not block, is a new turn", () => {
  assert.equal(isBlockContinuation(blocked, "Please add tests"), false);
  assert.equal(
    isBlockContinuation({ consecutiveBlocks: 0 }, "review-gate found 1 blocking finding"),
    false,
  );
  assert.equal(isBlockContinuation(null, "review-gate found 1 blocking finding"), false);
});
