import assert from "node:assert/strict";
import type { RunRecord } from "../store/run_record.ts";
import { getRenderer } from "./registry.ts";
import { ansi } from "./style.ts";

const policy = { failOn: "high", minConfidence: 0.5 } as const;
const plan = {
  path: "PLAN.md",
  sha256: "ab".repeat(32),
  items: [
    { id: "1", text: "Add the parser" },
    { id: "2", text: "Add the --plan flag", section: "CLI" },
    { id: "3", text: "Document it" },
  ],
};
const answer = {
  verdict: "deviates",
  summary: "The parser is there; the flag does the opposite of the plan.",
  items: [
    {
      id: "1",
      status: "done",
      evidence: [{ file: "src/plan.ts", line_start: 1, line_end: 3 }],
      note: "parsePlan() reads checklists.",
    },
    {
      id: "2",
      status: "contradicted",
      evidence: [{ file: "src/cli.ts", line_start: 4, line_end: 4 }],
      note: "The flag is called --spec.",
    },
    { id: "3", status: "missing", evidence: [], note: "No docs \u001b[2J yet." },
  ],
  unplanned_changes: [
    { file: "src/log.ts", line_start: 2, line_end: 5, description: "Adds debug logging." },
  ],
};
const record = {
  id: "20250101T000000Z-abcdef",
  status: "needs-attention",
  blocking: true,
  reviewKind: "review",
  answerKind: "compliance",
  kindInput: plan,
  target: { kind: "worktree", label: "working tree" },
  provider: "codex",
  startedAt: "2025-01-01T00:00:00.000Z",
  finishedAt: "2025-01-01T00:00:02.000Z",
  durationMs: 2000,
  attempts: [],
  cached: false,
  coverage: {
    status: "partial",
    omitted: [{ path: "big.bin", reason: "binary", lines: 0, bytes: 12 }],
    reviewedLines: 4,
    omittedLines: 0,
    reviewedBytes: 10,
    omittedBytes: 12,
  },
  itemCounts: { done: 1, contradicted: 1, missing: 1 },
  runDir: "/r/runs/x",
} satisfies RunRecord;
const input = { record, answer, exitCode: 1 };

Deno.test("getRenderer('terminal') draws a compliance run with the kind's body in the shared frame", async () => {
  const text = await (await getRenderer("terminal"))(input, { policy });
  assert.equal(
    text,
    [
      "review-gate: plan compliance deviates — 1 of 3 items done, 1 missing, 1 contradicted, 2 blocking (codex, 2.0 s)",
      "Change: working tree",
      'WARNING: partially reviewed — reviewed 4 of 4 changed lines (10 B of 22 B of diff); not shown at all: 1 binary file ("big.bin"). Not reviewed:',
      "  big.bin: whole file (binary; 12 B)",
      "Plan: PLAN.md (3 items)",
      "",
      "The parser is there; the flag does the opposite of the plan.",
      "",
      "[done] 1  Add the parser",
      "  src/plan.ts:1-3",
      "  parsePlan() reads checklists.",
      "",
      "[CONTRADICTED] 2  Add the --plan flag BLOCKING",
      "  src/cli.ts:4",
      "  The flag is called --spec.",
      "",
      "[MISSING] 3  Document it BLOCKING",
      "  No docs \\u{1b}[2J yet.",
      "",
      "Unplanned changes (1):",
      "  src/log.ts:2-5  Adds debug logging.",
      "",
      "Run folder: /r/runs/x",
      "",
    ].join("\n"),
  );
  const coloured = await (await getRenderer("terminal"))(input, { policy, paint: ansi });
  assert.ok(coloured.includes("\u001b[31m\u001b[1m[MISSING]"), coloured);
});

Deno.test("getRenderer() draws a compliance run that could not run like any run, and refuses unknown kinds", async () => {
  const failed = {
    record: { ...record, status: "timeout", blocking: false, message: "slow" } as RunRecord,
    exitCode: 3,
  };
  assert.match(
    await (await getRenderer("terminal"))(failed, { policy }),
    /^review-gate: NOT reviewed — timeout/,
  );
  const markdown = await getRenderer("markdown");
  await assert.rejects(
    () => markdown(failed, { policy }),
    /needs a review that produced an answer/,
  );
  const alien = { record: { ...record, answerKind: "future-kind" }, answer, exitCode: 0 };
  const terminal = await getRenderer("terminal");
  await assert.rejects(() => terminal(alien, { policy }), /answer kind "future-kind"/);
});

Deno.test("getRenderer('markdown') writes compliance.md: title, run facts, plan, items, unplanned changes", async () => {
  const md = await (await getRenderer("markdown"))(input, { policy });
  assert.ok(
    md.startsWith("# Plan compliance: deviates\n\n- Change: working tree\n- Provider: codex\n"),
  );
  assert.ok(md.includes("- Plan: `PLAN.md` (3 items, sha256 `abababababab`)"));
  assert.ok(md.includes("### 2 — contradicted (blocking): Add the --plan flag\n\n`src/cli.ts:4`"));
  assert.ok(md.includes("## Unplanned changes (1)\n\n- `src/log.ts:2-5`: Adds debug logging.\n"));
  assert.ok(md.endsWith("\n"));
});

Deno.test("getRenderer('json') adds the answer kind, the plan and the blocking items", async () => {
  const envelope = JSON.parse(await (await getRenderer("json"))(input, { policy }));
  assert.equal(envelope.answerKind, "compliance");
  assert.equal(envelope.blockingItems, 2);
  assert.equal(envelope.blockingFindings, 0);
  assert.deepEqual(envelope.plan, plan);
  assert.deepEqual(envelope.answer, answer);
  const review = JSON.parse(
    await (await getRenderer("json"))({
      ...input,
      record: { ...record, answerKind: undefined, kindInput: undefined },
      answer: { verdict: "approve", summary: "ok", findings: [], next_steps: [] },
    }, { policy }),
  );
  assert.equal(review.answerKind, "review");
  assert.equal("blockingItems" in review, false);
});
