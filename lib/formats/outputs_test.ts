/**
 * SARIF, rdjson, rdjsonl and GitHub workflow commands: each validated against its official schema
 * (test/schemas/) for every way a review can end, plus what each must say in its own way.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Finding, FindingNote, ReviewAnswer } from "../kinds/review/types.ts";
import type { RunRecord } from "../store/run_record.ts";
import { assertValid, rdjsonValidators, sarifValidator } from "../../test/schemas/validators.ts";
import { escapeData, escapeProperty, renderGithub } from "./github.ts";
import { renderRdjson, renderRdjsonl } from "./rdjson.ts";
import { renderSarif } from "./sarif.ts";
import { renderMarkdownResult } from "./markdown.ts";
import { renderTerminal } from "./terminal.ts";

const policy = { failOn: "high", minConfidence: 0.5 } as const;
const FP = (c: string) => c.repeat(64);

function finding(n: number, extra: Partial<Finding> = {}): Finding {
  return {
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: `Problem ${n}`,
    body: `Body ${n}`,
    file: "src/app.ts",
    line_start: n,
    line_end: n + 1,
    confidence: 0.9,
    recommendation: `Fix ${n}`,
    ...extra,
  };
}

function record(patch: Partial<RunRecord> = {}): RunRecord {
  return {
    id: "20261130T000000Z-abcdef",
    status: "needs-attention",
    blocking: true,
    reviewKind: "review",
    target: { kind: "range", label: "main...HEAD" },
    provider: "claude",
    model: "claude-fake-1",
    startedAt: "2026-11-30T00:00:00.000Z",
    finishedAt: "2026-11-30T00:00:01.000Z",
    durationMs: 1000,
    attempts: [],
    cached: false,
    runDir: "/r",
    ...patch,
  };
}

const FINDINGS = [
  finding(1, { severity: "medium", file: "docs/a b/ü:x,y.md" }),
  finding(3, { title: "Acknowledged one" }),
  finding(5, { severity: "critical", title: "::error::fake\ninjected, line: 1" }),
];
const NOTES: FindingNote[] = [
  { fingerprint: FP("a") },
  { fingerprint: FP("b"), acknowledged: { reason: "intended, by design", by: "Ada <a@x>" } },
  { fingerprint: FP("c") },
];
const ANSWER: ReviewAnswer = {
  verdict: "needs-attention",
  summary: "s",
  findings: FINDINGS,
  next_steps: [],
};
const PARTIAL = {
  status: "partial" as const,
  omitted: [{ path: "big file.json", reason: "budget" as const, lines: 40, bytes: 2000 }],
  reviewedLines: 10,
  omittedLines: 40,
  reviewedBytes: 500,
  omittedBytes: 2000,
};

/** Every way a review ends, as renderer input. */
const CASES = {
  findings: { record: record({ findingNotes: NOTES }), answer: ANSWER, exitCode: 1 },
  partial: {
    record: record({ findingNotes: NOTES, coverage: PARTIAL }),
    answer: ANSWER,
    exitCode: 1,
  },
  approved: {
    record: record({ status: "approved", blocking: false }),
    answer: { verdict: "approve" as const, summary: "ok", findings: [], next_steps: [] },
    exitCode: 0,
  },
  "could not run": {
    record: record({ status: "timeout", blocking: false, message: "took too long" }),
    exitCode: 3,
  },
  "nothing shown": {
    record: record({
      status: "not-reviewed",
      blocking: false,
      coverage: { ...PARTIAL, reviewedLines: 0, reviewedBytes: 0 },
    }),
    exitCode: 3,
  },
  "nothing to review": {
    record: record({ status: "nothing-to-review", blocking: false, id: "" }),
    exitCode: 0,
  },
  cached: {
    record: record({
      status: "approved",
      blocking: false,
      cached: true,
      cachedFrom: { runId: "20261129T120000Z-012345", reviewedAt: "2026-11-29T12:00:03.000Z" },
    }),
    answer: { verdict: "approve" as const, summary: "ok", findings: [], next_steps: [] },
    exitCode: 0,
  },
};

Deno.test("SARIF validates against the official SARIF 2.1.0 schema for every outcome", () => {
  const broken = JSON.parse(renderSarif(CASES.findings, { policy }));
  broken.runs[0].results[0].level = "fatal";
  assert.equal(sarifValidator()(broken), false, "the validator does refuse a bad level");
  for (const [name, input] of Object.entries(CASES)) {
    assertValid(sarifValidator(), JSON.parse(renderSarif(input, { policy })), `SARIF (${name})`);
  }
});

Deno.test("SARIF: levels, %SRCROOT% URIs, regions, fingerprints, suppressions on all or none", () => {
  const log = JSON.parse(renderSarif(CASES.findings, { policy }));
  const run = log.runs[0];
  assert.equal(log.version, "2.1.0");
  assert.deepEqual(run.tool.driver.rules.map((r: { id: string }) => r.id), [
    "review-gate/critical",
    "review-gate/high",
    "review-gate/medium",
    "review-gate/low",
  ]);
  const [critical, acknowledged, medium] = run.results;
  assert.equal(critical.level, "error");
  assert.equal(critical.ruleId, "review-gate/critical");
  assert.equal(critical.ruleIndex, 0);
  assert.deepEqual(critical.locations[0].physicalLocation.region, { startLine: 5, endLine: 6 });
  assert.equal(critical.partialFingerprints.primaryLocationLineHash, FP("c"));
  assert.equal(critical.partialFingerprints["reviewGate/v1"], FP("c"));
  assert.equal(critical.properties.blocking, true);
  assert.match(critical.properties.ackCommand, /^review-gate ack cccccccccccc --reason/);
  assert.deepEqual(critical.suppressions, [], "every result has suppressions once one has");
  assert.deepEqual(acknowledged.suppressions, [{
    kind: "external",
    status: "accepted",
    justification: "intended, by design",
    properties: { by: "Ada <a@x>" },
  }]);
  assert.equal(acknowledged.properties.blocking, false);
  assert.equal(acknowledged.level, "warning", "a high finding that does not block is no error");
  assert.equal(medium.level, "warning");
  assert.deepEqual(medium.locations[0].physicalLocation.artifactLocation, {
    uri: "docs/a%20b/%C3%BC%3Ax%2Cy.md",
    uriBaseId: "%SRCROOT%",
  });
  assert.deepEqual(run.invocations[0].toolExecutionNotifications, []);
  assert.equal(run.invocations[0].executionSuccessful, true);
  assert.equal(run.invocations[0].exitCode, 1);
  const plain = JSON.parse(renderSarif(CASES.approved, { policy })).runs[0];
  assert.deepEqual(plain.results, []);
  const noAcks = JSON.parse(
    renderSarif({ ...CASES.findings, record: record({ findingNotes: [NOTES[0]] }) }, { policy }),
  );
  assert.ok(
    noAcks.runs[0].results.every((r: object) => !("suppressions" in r)),
    "no suppressions at all without an acknowledgement",
  );
});

Deno.test("SARIF says what was not reviewed: executionSuccessful false, warnings per part", () => {
  const failed = JSON.parse(renderSarif(CASES["could not run"], { policy })).runs[0];
  assert.equal(failed.invocations[0].executionSuccessful, false);
  assert.deepEqual(failed.invocations[0].toolExecutionNotifications[0], {
    level: "error",
    message: { text: "NOT reviewed: timeout: took too long" },
  });
  assert.deepEqual(failed.results, []);
  const shown = JSON.parse(renderSarif(CASES["nothing shown"], { policy })).runs[0];
  assert.equal(shown.invocations[0].executionSuccessful, false);
  assert.match(
    shown.invocations[0].toolExecutionNotifications[0].message.text,
    /^NOT reviewed: none of this change could be shown to the model/,
  );
  const partial = JSON.parse(renderSarif(CASES.partial, { policy })).runs[0];
  assert.equal(partial.invocations[0].executionSuccessful, true);
  const [headline, part] = partial.invocations[0].toolExecutionNotifications;
  assert.equal(headline.level, "warning");
  assert.match(headline.message.text, /^Partially reviewed/);
  assert.equal(part.locations[0].physicalLocation.artifactLocation.uri, "big%20file.json");
  assert.equal(partial.properties.reviewed, "partial");
});

Deno.test("rdjson and every rdjsonl line validate against reviewdog's schemas", () => {
  const { result, line } = rdjsonValidators();
  assert.equal(line({ message: "m", severity: "HIGH" }), false, "the validator refuses HIGH");
  for (const [name, input] of Object.entries(CASES)) {
    assertValid(result, JSON.parse(renderRdjson(input, { policy })), `rdjson (${name})`);
    for (const text of renderRdjsonl(input, { policy }).split("\n").filter(Boolean)) {
      assertValid(line, JSON.parse(text), `rdjsonl line (${name})`);
    }
  }
});

Deno.test("rdjson: ranges by line, severities, acknowledged as INFO, NOT reviewed as an ERROR", () => {
  const diagnostics = JSON.parse(renderRdjson(CASES.partial, { policy })).diagnostics;
  // the overall line first: partially reviewed, an error as the result blocks
  assert.equal(diagnostics[0].location, undefined);
  assert.equal(diagnostics[0].severity, "ERROR");
  assert.match(diagnostics[0].message, /^review-gate: Partially reviewed: reviewed 10 of 50/);
  assert.deepEqual(diagnostics[1].location, { path: "big file.json" });
  assert.equal(diagnostics[1].severity, "WARNING");
  assert.match(diagnostics[1].message, /not reviewed: big file\.json/);
  const [critical, acknowledged, medium] = diagnostics.slice(2);
  assert.deepEqual(critical.location.range, { start: { line: 5 }, end: { line: 6 } });
  assert.equal(critical.severity, "ERROR");
  assert.equal(critical.code.value, "review-gate/critical");
  assert.match(critical.message, /review-gate ack cccccccccccc --reason/);
  assert.equal(acknowledged.severity, "INFO");
  assert.match(acknowledged.message, /^acknowledged \(intended, by design\)/);
  assert.equal(medium.severity, "WARNING");
  const failed = renderRdjsonl(CASES["could not run"], { policy }).trim().split("\n");
  assert.equal(failed.length, 1);
  assert.deepEqual(JSON.parse(failed[0]).severity, "ERROR");
  assert.match(JSON.parse(failed[0]).message, /NOT reviewed: timeout/);
  // partially reviewed, nothing blocking: the overall line is a warning
  const allowed = { ...CASES.partial, record: { ...CASES.partial.record, blocking: false } };
  const [overall] = JSON.parse(renderRdjson(allowed, { policy })).diagnostics;
  assert.equal(overall.severity, "WARNING");
  assert.match(overall.message, /^review-gate: Partially reviewed/);
  assert.equal(renderRdjsonl(CASES["nothing to review"], { policy }), "");
  const huge = finding(1, { body: "x".repeat(100_000) });
  const big = renderRdjsonl({ ...CASES.findings, answer: { ...ANSWER, findings: [huge] } }, {
    policy,
  });
  assert.ok(big.length < 64 * 1024, "each line stays under reviewdog's 64 KiB line limit");
});

Deno.test("GitHub workflow commands: the runner's escaping; model text never starts a line", () => {
  assert.equal(escapeData("50%\r\nnext"), "50%25%0D%0Anext");
  assert.equal(escapeProperty("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
  const text = renderGithub(CASES.findings, { policy });
  const lines = text.trimEnd().split("\n");
  assert.ok(lines.slice(0, -1).every((l) => /^::(error|warning|notice) /.test(l)), text);
  assert.equal(lines.filter((l) => l.includes("::error::fake")).length, 0, "title escaped");
  assert.match(
    text,
    /^::error file=src\/app\.ts,line=5,endLine=6,title=review-gate \[critical%2C blocking\] %3A%3Aerror%3A%3Afake%0Ainjected%2C line%3A 1::Body 5/m,
  );
  assert.match(
    text,
    /^::notice file=src\/app\.ts,line=3,endLine=4,title=review-gate \[high%2C acknowledged \(intended%2C by design\)\]/m,
  );
  assert.match(text, /^::warning file=docs\/a b\/ü%3Ax%2Cy\.md,line=1,endLine=2,/m);
  assert.match(
    lines.at(-1)!,
    /^review-gate: needs-attention — 3 finding\(s\), 1 blocking, 1 acknowledged$/,
  );
  const prefixed = renderGithub(CASES.findings, { policy, pathPrefix: "app/" });
  assert.match(prefixed, /file=app\/src\/app\.ts/);
});

Deno.test("GitHub: NOT reviewed is an error, partial a warning per file (an error where the result blocks), 9 per level + a count", () => {
  assert.match(
    renderGithub(CASES["could not run"], { policy }),
    /^::error title=review-gate%3A NOT reviewed::NOT reviewed: timeout: took too long$/m,
  );
  const blocks = renderGithub(CASES.partial, { policy });
  assert.match(blocks, /^::error title=review-gate%3A partially reviewed::Partially reviewed/m);
  assert.match(blocks, /^::warning file=big file\.json,title=review-gate%3A NOT reviewed::/m);
  const allowed = { ...CASES.partial, record: { ...CASES.partial.record, blocking: false } };
  const partial = renderGithub(allowed, { policy });
  assert.match(partial, /^::warning title=review-gate%3A partially reviewed::Partially reviewed/m);
  assert.doesNotMatch(partial, /^::error title=review-gate%3A partially reviewed/m);
  const many = Array.from({ length: 25 }, (_, i) => finding(i + 1));
  const text = renderGithub(
    { record: record(), answer: { ...ANSWER, findings: many }, exitCode: 1 },
    { policy },
  );
  const errors = text.split("\n").filter((l) => l.startsWith("::error"));
  assert.equal(errors.length, 10);
  assert.match(errors.at(-1)!, /16 more error finding\(s\): see the job summary/);
});

Deno.test("a cached verdict says so in the terminal, markdown, SARIF, rdjson and GitHub, naming the run that reviewed it", () => {
  const said =
    /cached verdict: no model call this run \(reviewed by run 20261129T120000Z-012345 at 2026-11-29T12:00:03\.000Z\)/;
  const { cached, approved } = CASES;
  const markdown = renderMarkdownResult(cached, { policy });
  assert.match(markdown, new RegExp(`^- Verdict: ${said.source}$`, "m"));
  const run = JSON.parse(renderSarif(cached, { policy })).runs[0];
  assert.equal(run.properties.cached, true);
  assert.equal(run.properties.cachedFrom.runId, "20261129T120000Z-012345");
  const [note] = run.invocations[0].toolExecutionNotifications;
  assert.equal(note.level, "note");
  assert.match(note.message.text, said);
  const [diagnostic] = JSON.parse(renderRdjson(cached, { policy })).diagnostics;
  assert.equal(diagnostic.severity, "INFO");
  assert.match(diagnostic.message, said);
  assert.match(renderGithub(cached, { policy }).trimEnd().split("\n").at(-1)!, said);
  assert.match(
    renderTerminal(cached, { policy }),
    /^Cached verdict: no model call this run \(reviewed by run 20261129T120000Z-012345 at /m,
  );
  // a fresh verdict says none of it
  const fresh = [
    renderMarkdownResult(approved, { policy }),
    renderSarif(approved, { policy }),
    renderRdjson(approved, { policy }),
    renderGithub(approved, { policy }),
    renderTerminal(approved, { policy }),
  ];
  for (const text of fresh) assert.doesNotMatch(text, /cached verdict/);
  assert.equal(JSON.parse(renderSarif(approved, { policy })).runs[0].properties.cached, false);
});

Deno.test("SARIF: a finding that does not block is never at error level, whatever its severity", () => {
  const answer: ReviewAnswer = {
    verdict: "needs-attention",
    summary: "s",
    findings: [
      finding(1, { severity: "critical", confidence: 0.2 }),
      finding(3, { severity: "high", confidence: 0.2 }),
      finding(5, { severity: "medium", confidence: 0.2 }),
      finding(7, { severity: "low", confidence: 0.2 }),
    ],
    next_steps: [],
  };
  const log = JSON.parse(
    renderSarif({ ...CASES.findings, answer, record: record({ blocking: false }) }, { policy }),
  );
  const results = log.runs[0].results as { level: string; properties: { blocking: boolean } }[];
  assert.deepEqual(results.map((r) => [r.level, r.properties.blocking]), [
    ["warning", false],
    ["warning", false],
    ["warning", false],
    ["note", false],
  ]);
  const blocking = JSON.parse(
    renderSarif({
      ...CASES.findings,
      answer: { ...answer, findings: answer.findings.map((f) => ({ ...f, confidence: 0.9 })) },
      record: record(),
    }, { policy }),
  ).runs[0].results as { level: string }[];
  assert.deepEqual(blocking.map((r) => r.level), ["error", "error", "warning", "note"]);
});
