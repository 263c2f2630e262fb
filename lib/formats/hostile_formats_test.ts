/**
 * Every output format shown the hostile corpus (fixtures/hostile_text.ts) in every string a model
 * or the change wrote (README.md "Security model": the model's words stay words): the Markdown
 * ones (review.md and the job summary, `--format markdown`, compliance.md, reviewdog's comments)
 * render inert with a real CommonMark/GFM renderer; the terminal shows no escape sequence; the
 * workflow commands start every line themselves; SARIF and JSON carry the words as data.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  HOSTILE,
  hostileComplianceAnswer,
  hostileReviewAnswer,
  ORDINARY_TEXT,
} from "../../fixtures/hostile_text.ts";
import { allText, assertInert, renderGfm } from "../../test/markdown/inert_check.ts";
import type { RunRecord } from "../store/run_record.ts";
import { getRenderer } from "./registry.ts";
import { buildView } from "./view.ts";

const policy = { failOn: "high", minConfidence: 0.5 } as const;
const WORDS = HOSTILE.join(" ");
/** Whitespace runs as one space. */
const squash = (text: string) => text.replace(/\s+/g, " ");

/** A run record whose every string the change or the model could write is hostile. */
function hostileRecord(patch: Partial<RunRecord> = {}): RunRecord {
  return {
    id: "20261130T000000Z-abcdef",
    status: "needs-attention",
    blocking: true,
    reviewKind: "review",
    target: { kind: "range", label: `main...${WORDS}` },
    provider: "claude",
    model: HOSTILE[1],
    sessionId: HOSTILE[16],
    startedAt: "2026-11-30T00:00:00.000Z",
    finishedAt: "2026-11-30T00:00:01.000Z",
    durationMs: 1000,
    attempts: [],
    cached: false,
    runDir: "/r",
    findingNotes: HOSTILE.map((text, i) => ({
      fingerprint: String(i % 10).repeat(64),
      ...(i % 3 === 0 ? { acknowledged: { reason: text, by: text } } : {}),
    })),
    coverage: {
      status: "partial",
      omitted: HOSTILE.map((path) => ({ path, reason: "budget" as const, lines: 4, bytes: 40 })),
      reviewedLines: 10,
      omittedLines: 40,
      reviewedBytes: 500,
      omittedBytes: 2000,
    },
    rules: {
      from: WORDS,
      untrusted: true,
      guidelines: HOSTILE.map((source) => ({ source, appliesTo: source, bytes: 1, cut: source })),
      guidelinesLeftOut: [],
      excluded: HOSTILE.map((path) => ({ path, rule: path })),
      editedRuleFiles: [...HOSTILE],
      notes: [...HOSTILE],
    },
    ...patch,
  };
}

const LIST_TAGS = ["p", "ul", "li", "code", "strong", "em", "s", "blockquote"];

Deno.test("review.md, --format markdown and the job summary: the hostile corpus renders inert", async () => {
  const answer = hostileReviewAnswer();
  const record = hostileRecord();
  const markdown = await (await getRenderer("markdown"))({ record, answer, exitCode: 1 }, {
    policy,
  });
  const findings = buildView({ record, answer }, policy).findings;
  assertInert(markdown, {
    headings: [
      "Review: needs-attention (partially reviewed)",
      "Summary",
      `Findings (${HOSTILE.length})`,
      ...findings.map((v) => v.finding.severity.toUpperCase()),
      "Next steps",
    ],
  });
  assert.ok(
    squash(allText(renderGfm(markdown))).includes(ORDINARY_TEXT),
    "ordinary text reads as is",
  );
});

Deno.test("a review that could not run, in markdown: the hostile message and paths render inert", async () => {
  for (const status of ["timeout", "not-reviewed"] as const) {
    const record = hostileRecord({ status, blocking: false, message: WORDS });
    const markdown = await (await getRenderer("markdown"))({ record, exitCode: 3 }, { policy });
    assertInert(markdown, { headings: ["Review: NOT reviewed"], tags: LIST_TAGS });
  }
});

Deno.test("compliance.md: the hostile corpus renders inert", async () => {
  const answer = hostileComplianceAnswer();
  const record = hostileRecord({
    answerKind: "compliance",
    status: "needs-attention",
    kindInput: {
      path: WORDS,
      sha256: "a".repeat(64),
      items: HOSTILE.map((text, i) => ({ id: String(i + 1), text })),
    },
  });
  const markdown = await (await getRenderer("markdown"))({ record, answer, exitCode: 1 }, {
    policy,
  });
  assertInert(markdown, {
    headings: [
      "Plan compliance: incomplete",
      "Summary",
      "Plan items",
      ...answer.items.map((item) => `${item.id} — ${item.status}`),
      `Unplanned changes (${HOSTILE.length})`,
    ],
  });
  assert.ok(
    squash(allText(renderGfm(markdown))).includes(ORDINARY_TEXT),
    "ordinary text reads as is",
  );
});

Deno.test("rdjson and rdjsonl (reviewdog posts them as PR comments): messages render inert", async () => {
  const input = { record: hostileRecord(), answer: hostileReviewAnswer(), exitCode: 1 };
  const rdjson = JSON.parse(await (await getRenderer("rdjson"))(input, { policy }));
  const lines = (await (await getRenderer("rdjsonl"))(input, { policy })).trim().split("\n").map((
    l,
  ) => JSON.parse(l));
  const messages = [...rdjson.diagnostics, ...lines].map((d) => d.message as string);
  assert.ok(messages.length > HOSTILE.length);
  for (const message of messages) assertInert(message, { headings: [] });
  // the path reviewdog anchors a comment at is data, exactly as the model wrote it
  assert.deepEqual(
    rdjson.diagnostics.filter((d: { location?: { range?: unknown } }) => d.location?.range)
      .map((d: { location: { path: string } }) => d.location.path).sort(),
    [...HOSTILE].sort(),
  );
});

Deno.test("terminal: the hostile corpus shows no escape sequence nor bidi control", async () => {
  const input = { record: hostileRecord(), answer: hostileReviewAnswer(), exitCode: 1 };
  const text = await (await getRenderer("terminal"))(input, { policy });
  assert.doesNotMatch(
    text,
    // deno-lint-ignore no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/,
  );
  assert.ok(text.includes("\\u{1b}[2J"), "an escape is shown, not run");
});

Deno.test("github workflow commands: every line is one of ours, the words stay in its data", async () => {
  const input = { record: hostileRecord(), answer: hostileReviewAnswer(), exitCode: 1 };
  const out = await (await getRenderer("github"))(input, { policy });
  const lines = out.split("\n").filter((l) => l !== "");
  assert.ok(
    lines.every((l) => /^::(error|warning|notice) /.test(l) || l.startsWith("review-gate: ")),
  );
  assert.ok(!out.includes("\r"));
  const decoded = lines.map((l) =>
    l.replace(/^::[a-z]+ [^:]*::/, "").replaceAll("%0A", "\n").replaceAll("%0D", "\r")
      .replaceAll("%25", "%")
  );
  assert.ok(decoded.some((d) => d.startsWith(`${HOSTILE[0]}\n`)), "the body is carried as written");
});

Deno.test("SARIF and JSON carry the hostile words as data, exactly as written", async () => {
  const answer = hostileReviewAnswer();
  const input = { record: hostileRecord(), answer, exitCode: 1 };
  const sarif = JSON.parse(await (await getRenderer("sarif"))(input, { policy }));
  const texts = sarif.runs[0].results.map((r: { message: { text: string } }) => r.message.text);
  for (const f of answer.findings) {
    assert.ok(texts.some((t: string) => t.includes(f.body)), JSON.stringify(f.body));
  }
  const uris = sarif.runs[0].results.map((r: { locations: { physicalLocation: object }[] }) =>
    r.locations[0].physicalLocation
  );
  assert.equal(uris.length, HOSTILE.length);
  const json = JSON.parse(await (await getRenderer("json"))(input, { policy }));
  assert.deepEqual(json.answer, answer, "--json holds the answer verbatim");
});
