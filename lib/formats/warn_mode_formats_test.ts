/**
 * A run a gate in warn mode let through (README "Warn first"; run record `gateMode: "warn"`) says in
 * every format that its findings would block, never that they block: such a run exits 0, and a
 * consumer that fails on a blocking finding (a code-scanning check on SARIF errors, reviewdog's
 * `-fail-level=error`, a script reading `blockingFindings`) must not fail on it.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import type { ReviewAnswer } from "../kinds/review/types.ts";
import type { Policy } from "../kinds/review/policy.ts";
import type { RunRecord } from "../store/run_record.ts";
import { renderGithub } from "./github.ts";
import { buildJsonEnvelope } from "./json.ts";
import { renderMarkdownResult } from "./markdown.ts";
import { diagnostics } from "./rdjson.ts";
import { renderSarif } from "./sarif.ts";
import { renderTerminal } from "./terminal.ts";

const POLICY: Policy = { failOn: "high", minConfidence: 0.5 };

function record(patch: Partial<RunRecord> = {}): RunRecord {
  return {
    id: "20261130T000000Z-abcdef",
    status: "needs-attention",
    blocking: false,
    reviewKind: "review",
    target: { kind: "range", label: "refs/heads/main (1 commit)" },
    provider: "claude",
    startedAt: "2026-11-30T00:00:00.000Z",
    finishedAt: "2026-11-30T00:00:01.500Z",
    durationMs: 1500,
    attempts: [],
    cached: false,
    runDir: "/repo/.git/review-gate/runs/20261130T000000Z-abcdef",
    findingNotes: [{ fingerprint: "ab".repeat(32) }, { fingerprint: "cd".repeat(32) }],
    ...patch,
  };
}

const answer: ReviewAnswer = {
  verdict: "needs-attention",
  summary: "Two problems.",
  findings: [
    {
      severity: "high",
      category: "bug",
      scope: "introduced",
      title: "Off by one",
      body: "b1",
      file: "src/a.ts",
      line_start: 5,
      line_end: 7,
      confidence: 0.8,
      recommendation: "r1",
    },
    {
      severity: "medium",
      category: "bug",
      scope: "introduced",
      title: "Rounding",
      body: "b2",
      file: "src/b.ts",
      line_start: 3,
      line_end: 3,
      confidence: 0.9,
      recommendation: "r2",
    },
  ],
  next_steps: [],
};

const WARNED = record({ gateMode: "warn", wouldBlock: 1 });
const input = { record: WARNED, answer, exitCode: 0 };

Deno.test("github format: a warn-mode run's finding would block (warn mode), as a warning", () => {
  const text = renderGithub(input, { policy: POLICY });
  const [high] = text.split("\n").filter((l) => l.includes("Off by one"));
  match(high, /^::warning /, high);
  match(high, /title=review-gate \[high%2C would block \(warn mode\)\] Off by one/);
  equal(/blocking(?!:)/.test(text.replace(/not blocking/g, "")), false, text);
  match(text, /2 finding\(s\), 1 would block \(warn mode\), 0 acknowledged/);
  // the same run in block mode: an error, "blocking"
  const blocked = renderGithub({ ...input, record: record({ blocking: true }) }, {
    policy: POLICY,
  });
  match(blocked, /::error .*title=review-gate \[high%2C blocking\] Off by one/);
});

Deno.test("sarif: a warn-mode run's finding is a warning, not blocking, and says it would block", () => {
  const log = JSON.parse(renderSarif(input, { policy: POLICY }));
  const [high] = log.runs[0].results;
  equal(high.level, "warning");
  equal(high.properties.blocking, false);
  equal(high.properties.wouldBlock, true);
  equal(log.runs[0].properties.blockingFindings, 0);
  equal(log.runs[0].properties.wouldBlockFindings, 1);
  equal(log.runs[0].properties.gateMode, "warn");
});

Deno.test("rdjson: a warn-mode run's finding is a WARNING that would block (warn mode)", () => {
  const [high] = diagnostics({ record: WARNED, answer }, POLICY);
  equal(high.severity, "WARNING");
  match(String(high.message), /^\[high, would block \(warn mode\)\] Off by one/);
});

Deno.test("json envelope: a warn-mode run has no blocking finding and counts those that would block", () => {
  const json = buildJsonEnvelope({ record: WARNED, answer }, { exitCode: 0, policy: POLICY });
  deepEqual(
    [json.blocking, json.blockingFindings, json.wouldBlockFindings, json.gateMode],
    [false, 0, 1, "warn"],
  );
  const plain = buildJsonEnvelope({ record: record({ blocking: true }), answer }, {
    exitCode: 1,
    policy: POLICY,
  });
  deepEqual([plain.blockingFindings, "wouldBlockFindings" in plain, "gateMode" in plain], [
    1,
    false,
    false,
  ]);
});

Deno.test("markdown and terminal: a warn-mode run's finding would block (warn mode), with its ack command", () => {
  const md = renderMarkdownResult(input, { policy: POLICY });
  match(md, /### HIGH \(would block: warn mode\): Off by one/);
  match(md, /Not a problem\? Accept it: `review-gate ack abababababab/);
  equal(md.includes("(blocking)"), false, md);
  const text = renderTerminal(input, { policy: POLICY });
  match(text, /\[HIGH\] Off by one would block \(warn mode\)/);
  equal(text.includes("BLOCKING"), false, text);
});
