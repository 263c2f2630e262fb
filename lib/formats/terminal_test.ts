import { equal, match, ok } from "node:assert/strict";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import type { Policy } from "../kinds/review/policy.ts";
import { exitCodeFor } from "../review/exit_code.ts";
import type { ReviewResult, RunRecord } from "../store/run_record.ts";
import { renderMarkdown } from "./markdown.ts";
import type { RenderOptions } from "./renderer.ts";
import { renderTerminal as render } from "./terminal.ts";

const DEFAULT_POLICY: Policy = { failOn: "high", minConfidence: 0.5 };

/** The terminal renderer, given the exit code of the run's status (its text does not show it). */
function renderTerminal(result: ReviewResult, options: RenderOptions): string {
  const { status, blocking } = result.record;
  return render({ ...result, exitCode: exitCodeFor(status, blocking) }, options);
}

function record(patch: Partial<RunRecord> = {}): RunRecord {
  return {
    id: "20261130T000000Z-abcdef",
    status: "needs-attention",
    blocking: true,
    reviewKind: "review",
    target: { kind: "worktree", label: "working tree" },
    provider: "claude",
    startedAt: "2026-11-30T00:00:00.000Z",
    finishedAt: "2026-11-30T00:00:01.500Z",
    durationMs: 1500,
    attempts: [],
    cached: false,
    runDir: "/repo/.git/review-gate/runs/20261130T000000Z-abcdef",
    ...patch,
  };
}

const answer: ReviewAnswer = {
  verdict: "needs-attention",
  summary: "Two problems.",
  findings: [
    {
      severity: "medium",
      category: "bug",
      scope: "introduced",
      title: "Rounding",
      body: "b1",
      file: "src/b.ts",
      line_start: 3,
      line_end: 3,
      confidence: 0.9,
      recommendation: "r1",
    },
    {
      severity: "high",
      category: "bug",
      scope: "introduced",
      title: "Off by one",
      body: "b2",
      file: "src/a.ts",
      line_start: 5,
      line_end: 7,
      confidence: 0.8,
      recommendation: "r2",
    },
  ],
  next_steps: ["Fix it"],
};

Deno.test("renderTerminal() sorts findings by severity and marks the blocking one", () => {
  const text = renderTerminal({ record: record(), answer }, { policy: DEFAULT_POLICY });
  ok(text.indexOf("[HIGH] Off by one BLOCKING") < text.indexOf("[MEDIUM] Rounding"), text);
  match(text, /src\/a\.ts:5-7 {2}confidence 0\.80/);
  match(text, /src\/b\.ts:3 {2}confidence 0\.90/);
  match(text, /2 findings, 1 blocking \(claude, 1\.5 s\)/);
  match(text, /Run folder: \/repo\/\.git\/review-gate\/runs\//);
  equal(text.includes("\x1b"), false, "no colour without a paint");
});

Deno.test("renderTerminal() of a warn-mode gate's run says would block, not BLOCKING (it exits 0)", () => {
  const warned = record({ blocking: false, gateMode: "warn", wouldBlock: 1 });
  const text = renderTerminal({ record: warned, answer }, { policy: DEFAULT_POLICY });
  equal(exitCodeFor(warned.status, warned.blocking), 0);
  equal(text.includes("BLOCKING"), false, text);
  equal(/\d blocking/.test(text), false, text);
  match(text, /\[HIGH\] Off by one would block \(warn mode\)/);
  match(text, /2 findings, 1 would block \(warn mode\) \(claude, 1\.5 s\)/);
  match(text, /Gate: warn mode — 1 finding would have blocked; the gate let the change through/);
});

Deno.test("renderTerminal() and renderMarkdown() show at most max_findings and count the rest", () => {
  const policy: Policy = { ...DEFAULT_POLICY, maxFindings: 1 };
  const text = renderTerminal({ record: record(), answer }, { policy });
  match(text, /\[HIGH\] Off by one BLOCKING/);
  equal(text.includes("Rounding"), false, text);
  match(text, /… and 1 more finding, less severe \(max_findings 1\); all are in answer\.json/);
  const md = renderMarkdown(record(), answer, policy);
  equal(md.includes("Rounding"), false, md);
  match(md, /and 1 more finding/);
});

Deno.test("renderTerminal() says how much was reviewed and names every omitted file and hunk", () => {
  const coverage = {
    status: "partial" as const,
    omitted: [
      {
        path: "big.json",
        reason: "budget" as const,
        hunks: [
          { oldStart: 10, oldLines: 3, newStart: 12, newLines: 40 },
          { oldStart: 90, oldLines: 5, newStart: 130, newLines: 0 },
        ],
        lines: 47,
        bytes: 3000,
      },
      { path: "logo.png", reason: "binary" as const, lines: 0, bytes: 24576 },
      { path: "odd\nname", reason: "undecodable" as const, lines: 0, bytes: 10 },
    ],
    reviewedLines: 153,
    omittedLines: 47,
    reviewedBytes: 9000,
    omittedBytes: 27586,
    excluded: [{ path: ".claude/worktrees/x", reason: "linked-worktree" as const }],
  };
  const text = renderTerminal({ record: record({ coverage }), answer }, { policy: DEFAULT_POLICY });
  match(
    text,
    /WARNING: partially reviewed — reviewed 153 of 200 changed lines \(8\.8 KB of 35\.7 KB of diff\)/,
  );
  match(
    text,
    /big\.json: lines 12-51, deleted lines 90-94 \(over the size limit, max_calls × budgets\.total_bytes; 47 lines, 2\.9 KB\)/,
  );
  match(text, /logo\.png: whole file \(binary; 24\.0 KB\)/);
  match(
    text,
    /"odd\\nname": whole file \(not decodable as text; 10 B\)/,
    "names with newlines are quoted",
  );
  match(text, /Not part of this change \(left out\): \.claude\/worktrees\/x \(linked worktree\)/);
  const md = renderMarkdown(record({ coverage }), answer, DEFAULT_POLICY);
  match(md, /- Coverage: partial — reviewed 153 of 200 changed lines/);
  match(md, /- not reviewed: big\.json: lines 12-51/);
});

Deno.test("renderTerminal() says NOT reviewed, with no verdict, when none of the change was shown", () => {
  const coverage = {
    status: "partial" as const,
    omitted: [{ path: "logo.png", reason: "binary" as const, lines: 0, bytes: 100 }],
    reviewedLines: 0,
    omittedLines: 0,
    reviewedBytes: 0,
    omittedBytes: 100,
  };
  const text = renderTerminal(
    { record: record({ status: "not-reviewed", blocking: false, coverage }) },
    { policy: DEFAULT_POLICY },
  );
  match(
    text,
    /^review-gate: NOT reviewed — none of this change could be shown to the model \(no model call\)/,
  );
  match(text, /logo\.png: whole file \(binary; 100 B\)/);
  equal(/approved|finding/i.test(text), false, text);
});

Deno.test("renderTerminal() never shows a could-not-run review as findings or a pass", () => {
  const text = renderTerminal(
    { record: record({ status: "provider-error", blocking: false, message: "API Error: 500" }) },
    { policy: DEFAULT_POLICY },
  );
  match(text, /NOT reviewed — provider-error/);
  match(text, /API Error: 500/);
  equal(/approved|finding/i.test(text), false, text);
});

Deno.test("renderTerminal() neutralises escape sequences in model text", () => {
  const hostile = { ...answer, summary: "\x1b[2J\x1b[1;1Happroved" };
  const text = renderTerminal({ record: record(), answer: hostile }, { policy: DEFAULT_POLICY });
  equal(text.includes("\x1b"), false);
  match(text, /\\u\{1b\}\[2J/);
});

Deno.test("renderTerminal() neutralises escape sequences in the model name (a repository's config sets it)", () => {
  const model = "\x1b]0;title\x07\x1b[2J";
  for (const status of ["needs-attention", "provider-error"] as const) {
    const text = renderTerminal(
      { record: record({ status, model }), ...(status === "needs-attention" ? { answer } : {}) },
      { policy: DEFAULT_POLICY },
    );
    equal(text.includes("\x1b") || text.includes("\x07"), false, status);
    match(text, /\\u\{1b\}\]0;title/);
  }
});

Deno.test("renderMarkdown() lists every finding with location and recommendation", () => {
  const md = renderMarkdown(record(), answer, DEFAULT_POLICY);
  match(md, /^# Review: needs-attention/);
  match(md, /### HIGH \(blocking\): Off by one/);
  match(md, /`src\/a\.ts:5-7` · confidence 0\.80/);
  match(md, /\*\*Recommendation:\*\* r2/);
  match(md, /## Next steps\n\n- Fix it/);
});

Deno.test("renderTerminal() prints each reason of a refused answer once", () => {
  const problem = "line 2 is not a line the change added or edited (it changed 14-17)";
  const text = renderTerminal({
    record: record({
      status: "invalid-answer",
      blocking: false,
      message:
        `The provider's answer was refused after the corrective resume: /findings/0: ${problem}`,
      refusal: [{ path: "/findings/0", problem }],
    }),
  }, { policy: DEFAULT_POLICY });
  equal(text.split(problem).length - 1, 1, text);
  match(
    text,
    /^The provider's answer was refused after the corrective resume:\n {2}`\/findings\/0`: line 2/m,
  );
  // a message that is not the refusal itself is kept beside it
  const other = renderTerminal({
    record: record({
      status: "provider-error",
      blocking: false,
      message: "The provider wrote where a review may not",
      refusal: [{ path: "/verdict", problem: "bad" }],
    }),
  }, { policy: DEFAULT_POLICY });
  match(
    other,
    /^ {2}The provider wrote where a review may not\nThe answer was refused:\n {2}`\/verdict`: bad$/m,
  );
});

Deno.test("renderTerminal() says where the rules were read from in plain words", () => {
  const rules = {
    from: "base commit e4e7f32b20f1, file tree 520638c124be",
    untrusted: false,
    guidelines: [],
    guidelinesLeftOut: [],
    excluded: [],
    editedRuleFiles: [],
    notes: [],
  };
  const text = renderTerminal({ record: record({ rules }), answer }, { policy: DEFAULT_POLICY });
  match(
    text,
    /^Rules read from base commit e4e7f32b20f1, file tree 520638c124be: no guideline applies$/m,
  );
  ok(!text.includes("Rules (rules"), text);
  const withGuideline = renderTerminal({
    record: record({
      rules: { ...rules, guidelines: [{ source: "REVIEW.md", appliesTo: "all files", bytes: 9 }] },
    }),
    answer,
  }, { policy: DEFAULT_POLICY });
  match(
    withGuideline,
    /^Guidelines \(rules read from base commit e4e7f32b20f1, file tree 520638c124be\): REVIEW\.md$/m,
  );
});
