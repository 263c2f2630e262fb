import assert from "node:assert/strict";
import type { Finding } from "../kinds/review/types.ts";
import { listFindings, MAX_ACK_COMMANDS, renderFindingLine } from "./messages.ts";
import { renderNotReviewed, renderPrePushBlock, renderVerdict } from "./pre_push/messages.ts";
import { buildStopBlock, buildStopCouldNotRun, buildStopMessage } from "./turn/answer.ts";

function finding(n: number, extra: Partial<Finding> = {}): Finding {
  return {
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: `Problem ${n}`,
    body: "body",
    file: `src/f${n}.ts`,
    line_start: n,
    line_end: n,
    confidence: 0.9,
    recommendation: "fix",
    ...extra,
  };
}

Deno.test("renderFindingLine() shows severity, file, line span and a flattened, bounded title", () => {
  assert.equal(renderFindingLine(finding(3)), "[high] src/f3.ts:3 Problem 3");
  assert.equal(
    renderFindingLine(finding(3, { line_end: 7, title: "a\n  b" })),
    "[high] src/f3.ts:3-7 a b",
  );
  assert.equal(
    renderFindingLine(finding(3, { file: "odd\nname.ts" })),
    '[high] "odd\\nname.ts":3 Problem 3',
    "a name with a newline is quoted as in the prompt, never split over two lines",
  );
  const long = renderFindingLine(finding(1, { title: "x".repeat(500) }));
  assert.ok(long.length < 150);
  assert.ok(long.endsWith("…"));
});

Deno.test("buildStopBlock() is one JSON line listing at most 3 findings and the review path", () => {
  const out = buildStopBlock({
    findings: [1, 2, 3, 4, 5].map((n) => finding(n)),
    reviewPath: "/r/.git/review-gate/runs/x/review.md",
    maxBlocks: 3,
  });
  assert.ok(out.endsWith("\n"));
  assert.equal(out.trimEnd().includes("\n"), false);
  const parsed = JSON.parse(out);
  assert.deepEqual(Object.keys(parsed), ["decision", "reason"]);
  assert.equal(parsed.decision, "block");
  assert.match(parsed.reason, /^review-gate found 5 blocking findings/);
  assert.match(parsed.reason, /Problem 3/);
  assert.doesNotMatch(parsed.reason, /Problem 4/);
  assert.match(parsed.reason, /… and 2 more/);
  assert.match(parsed.reason, /Full review: \/r\/\.git\/review-gate\/runs\/x\/review\.md/);
});

Deno.test("buildStopBlock() says what unblocks: a fix, the user's ack, or max_blocks — never an explanation", () => {
  const one = JSON.parse(
    buildStopBlock({ findings: [{ ...finding(1), fingerprint: "f".repeat(64) }], maxBlocks: 1 }),
  ).reason;
  assert.match(one, /^review-gate found 1 blocking finding in/);
  assert.doesNotMatch(one, /finding\(s\)|explain why/);
  assert.match(
    one,
    /Fix it, then finish your turn: the next stop reviews the changes again, and an explanation does not unblock it\./,
  );
  assert.match(one, /tell the user\. Only they may accept a finding/);
  assert.match(one, /accept it: review-gate ack ffffffffffff --reason/);
  assert.match(
    one,
    /After 1 block in a row \(max_blocks\) the stop is let through, and the user is told it still has blocking findings\./,
  );
  const two =
    JSON.parse(buildStopBlock({ findings: [finding(1), finding(2)], maxBlocks: 3 })).reason;
  assert.match(two, /Fix them, then finish your turn/);
  assert.match(two, /After 3 blocks in a row \(max_blocks\)/);
  assert.doesNotMatch(two, /Only they may accept/, "no ack hint without a fingerprint");
});

Deno.test("buildStopMessage() and buildStopCouldNotRun() follow on_error", () => {
  assert.deepEqual(JSON.parse(buildStopMessage("hi")), { systemMessage: "hi" });
  const allow = JSON.parse(
    buildStopCouldNotRun({
      reason: "provider timed out",
      runPath: "/runs/1",
      block: false,
      gateName: "claude-stop",
    }),
  );
  assert.match(allow.systemMessage, /NOT reviewed: provider timed out \(details: \/runs\/1\)/);
  assert.equal(allow.decision, undefined);
  const block = JSON.parse(
    buildStopCouldNotRun({ reason: "bad answer", block: true, gateName: "claude-stop" }),
  );
  assert.equal(block.decision, "block");
  assert.match(block.reason, /REVIEW_GATE=0/);
});

Deno.test("renderPrePushBlock() lists findings and the skip hint", () => {
  const text = renderPrePushBlock({
    label: "refs/heads/main a..b",
    findings: [finding(1)],
    reviewPath: "/x/review.md",
  });
  assert.match(text, /push blocked: 1 blocking finding in refs\/heads\/main a\.\.b/);
  assert.match(text, /\[high\] src\/f1\.ts:1 Problem 1/);
  assert.match(text, /git push --no-verify/);
  assert.match(text, /REVIEW_GATE=0/);
});

Deno.test("renderNotReviewed() is loud and says whether the push goes ahead", () => {
  const allowed = renderNotReviewed({
    label: "refs/heads/main",
    reason: "timeout",
    blocked: false,
  });
  assert.match(allowed, /WARNING: refs\/heads\/main was NOT reviewed: timeout/);
  assert.match(allowed, /goes ahead unreviewed/);
  const blocked = renderNotReviewed({
    label: "refs/heads/main",
    reason: "timeout",
    blocked: true,
    runPath: "/r",
  });
  assert.match(blocked, /is blocked/);
  assert.match(blocked, /--no-verify/);
  assert.match(blocked, /Details: \/r/);
});

const HOSTILE = "\u001b]0;T\u0007\u001b[2J\u202e\u009b";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

Deno.test("stop and pre-push texts neutralise control and bidi characters from untrusted messages", () => {
  const texts = [
    JSON.parse(buildStopMessage(`boom ${HOSTILE}`)).systemMessage,
    JSON.parse(
      buildStopCouldNotRun({
        reason: HOSTILE,
        runPath: "/r",
        block: false,
        gateName: "claude-stop",
      }),
    )
      .systemMessage,
    JSON.parse(
      buildStopCouldNotRun({
        reason: HOSTILE,
        runPath: "/r",
        block: true,
        gateName: "claude-stop",
      }),
    ).reason,
    renderNotReviewed({ label: `refs/heads/x${HOSTILE}`, reason: HOSTILE, blocked: true }),
    renderNotReviewed({ label: "x", reason: "r", runPath: `/runs/${HOSTILE}`, blocked: false }),
  ];
  for (const text of texts) {
    assert.doesNotMatch(text, RAW_CONTROL, text);
    assert.match(text, /\\u\{1b\}\]0;T\\u\{7\}/, text);
  }
});

Deno.test("buildStopCouldNotRun() with block names the command that disables the Stop gate", () => {
  const reason =
    JSON.parse(buildStopCouldNotRun({ reason: "x", block: true, gateName: "claude-stop" })).reason;
  assert.match(reason, /"review-gate gate disable claude-stop" or REVIEW_GATE=0/);
});

Deno.test("listFindings() gives every blocking finding its ack command, up to MAX_ACK_COMMANDS", () => {
  const withIds = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => ({ ...finding(i + 1), fingerprint: `${i}`.padEnd(64, "a") }),
    );
  const commands = (lines: string[]) => lines.filter((l) => l.includes("review-gate ack ")).length;
  const five = listFindings(withIds(5));
  assert.equal(commands(five), 5);
  assert.ok(five.includes("- … and 2 more, each with its ack command"), five.join("\n"));
  assert.ok(
    five.includes(
      `  [high] src/f5.ts:5 Problem 5: review-gate ack 4${"a".repeat(11)} --reason "…"`,
    ),
  );
  const many = listFindings(withIds(MAX_ACK_COMMANDS + 5));
  assert.equal(commands(many), MAX_ACK_COMMANDS);
  assert.ok(
    many.includes(
      `- … and ${MAX_ACK_COMMANDS + 2} more, the first ${
        MAX_ACK_COMMANDS - 3
      } with their ack commands (all: review.md)`,
    ),
  );
  const none = listFindings([1, 2, 3, 4].map((n) => finding(n)));
  assert.deepEqual(none.at(-1), "- … and 1 more", "no fingerprints, no commands");
});

Deno.test("renderVerdict() says a passing push's finding is acknowledged: where, by whom, until when and why", () => {
  const answer = {
    verdict: "needs-attention" as const,
    summary: "s",
    findings: [finding(1), finding(2, { severity: "low" })],
    next_steps: [],
  };
  const notes = [
    {
      fingerprint: "a".repeat(64),
      acknowledged: { reason: "callers were\nupdated", by: "Ann <ann@x>", expires: "2027-01-31" },
    },
    { fingerprint: "b".repeat(64) },
  ];
  const base = {
    label: "refs/heads/f (1 commit)",
    answer,
    status: "needs-attention",
    findings: [],
    onPartial: "allow" as const,
    findingNotes: notes,
  };
  const out = renderVerdict({ ...base, source: "model" });
  assert.equal(out.blocked, false);
  assert.equal(
    out.text,
    "review-gate: refs/heads/f (1 commit): needs-attention, 1 acknowledged finding, 1 other non-blocking finding\n" +
      "  - [high] src/f1.ts:1 Problem 1\n" +
      '    acknowledged in .review-gate/acks.json by Ann <ann@x> until 2027-01-31: "callers were updated"\n',
  );
  const memo = renderVerdict({ ...base, source: "memo" }).text;
  assert.match(
    memo,
    /^review-gate: refs\/heads\/f \(1 commit\): needs-attention, 1 acknowledged finding, 1 other non-blocking finding \(cached verdict, no model call\)\n {2}- \[high\]/,
  );
  const plain = renderVerdict({ ...base, source: "model", findingNotes: undefined }).text;
  assert.equal(
    plain,
    "review-gate: refs/heads/f (1 commit): needs-attention, 2 non-blocking findings\n",
  );
});
