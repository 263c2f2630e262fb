import assert from "node:assert/strict";
import { decode } from "../../answer/decoder.ts";
import { memoryTree } from "../../answer/memory_tree.ts";
import type { Refusal } from "../../answer/types.ts";
import { reviewKind } from "./kind.ts";
import type { Finding, ReviewAnswer } from "./types.ts";

const tree = memoryTree("/repo", { "src/session.ts": 120, "a/real.ts": 10, "real.ts": 5 }, [
  "old/gone.ts",
]);
const good: ReviewAnswer = JSON.parse(
  await Deno.readTextFile(new URL("../../../fixtures/answers/review.good.json", import.meta.url)),
);

function withFinding(patch: Partial<Finding> & Record<string, unknown>): ReviewAnswer {
  const answer = structuredClone(good);
  answer.findings[0] = { ...answer.findings[0], ...patch };
  return answer;
}

function text(value: unknown): string {
  return JSON.stringify(value);
}

type Case = {
  name: string;
  input: { text: string } | { value: unknown };
  /** Expected refusals (exact), or null for an accepted answer. */
  refusal?: Refusal[];
  /** Expected refusal paths when the exact problem wording is not the point. */
  paths?: string[];
  /** Substring the first refusal's problem must contain. */
  problemIncludes?: string;
  file?: string;
  notes?: number;
};

const cases: Case[] = [
  {
    name: "accepts the good answer",
    input: { text: text(good) },
    file: "src/session.ts",
    notes: 0,
  },
  { name: "accepts surrounding whitespace", input: { text: `\n  ${text(good)}\n\n` }, notes: 0 },
  {
    name: "unwraps a whole-message ```json fence",
    input: { text: "```json\n" + text(good) + "\n```" },
    notes: 1,
  },
  { name: "unwraps a bare ``` fence", input: { text: "```\n" + text(good) + "\n```\n" }, notes: 1 },
  {
    name: "refuses prose around the JSON",
    input: { text: `Here is my review:\n${text(good)}\nThanks` },
    paths: [""],
    problemIncludes: 'is not JSON; it starts with "Here is my review:',
  },
  {
    name: "refuses a fence with prose after it",
    input: { text: "```json\n" + text(good) + "\n```\nHope this helps" },
    paths: [""],
  },
  {
    name: "refuses truncated JSON without repair",
    input: { text: text(good).slice(0, 80) },
    paths: [""],
    problemIncludes: "is not valid JSON",
  },
  { name: "refuses empty text", input: { text: "  \n" }, paths: [""], problemIncludes: "empty" },
  {
    name: "refuses an extra key",
    input: { text: text({ ...good, foo: 1 }) },
    refusal: [{ path: "", problem: 'unexpected key "foo"' }],
  },
  {
    name: "refuses a missing key",
    input: { text: text({ verdict: "approve", findings: [], next_steps: [] }) },
    refusal: [{ path: "", problem: 'missing required key "summary"' }],
  },
  {
    name: "refuses wrong types",
    input: { text: text({ ...good, summary: 3, findings: {} }) },
    refusal: [
      { path: "/summary", problem: "must be string, got number 3" },
      { path: "/findings", problem: "must be array, got an object" },
    ],
  },
  {
    name: "refuses an unknown verdict",
    input: { value: { ...good, verdict: "lgtm" } },
    refusal: [{
      path: "/verdict",
      problem: 'must be one of "approve", "needs-attention", got "lgtm"',
    }],
  },
  {
    name: "refuses an empty title",
    input: { value: withFinding({ title: "" }) },
    refusal: [{ path: "/findings/0/title", problem: "must not be empty" }],
  },
  {
    name: "refuses line_end before line_start",
    input: { value: withFinding({ line_start: 50, line_end: 40 }) },
    refusal: [{ path: "/findings/0/line_end", problem: "line_end 40 is before line_start 50" }],
  },
  {
    name: "refuses line_start 0",
    input: { value: withFinding({ line_start: 0 }) },
    refusal: [{ path: "/findings/0/line_start", problem: "must be >= 1, got number 0" }],
  },
  {
    name: "refuses non-integer lines",
    input: { value: withFinding({ line_end: 57.5 }) },
    refusal: [{ path: "/findings/0/line_end", problem: "must be integer, got number 57.5" }],
  },
  {
    name: "refuses confidence above 1",
    input: { value: withFinding({ confidence: 1.2 }) },
    refusal: [{ path: "/findings/0/confidence", problem: "must be <= 1, got number 1.2" }],
  },
  {
    name: "refuses a file outside the repo (..)",
    input: { value: withFinding({ file: "../other/x.ts" }) },
    paths: ["/findings/0/file"],
    problemIncludes: "outside the repository",
  },
  {
    name: "refuses an absolute path outside the repo",
    input: { value: withFinding({ file: "/etc/passwd" }) },
    paths: ["/findings/0/file"],
    problemIncludes: "absolute path outside the repository",
  },
  {
    name: "refuses a sibling directory sharing the root's prefix",
    input: { value: withFinding({ file: "/repo2/src/session.ts" }) },
    paths: ["/findings/0/file"],
  },
  {
    name: "strips the absolute repository prefix",
    input: { value: withFinding({ file: "/repo/src/session.ts" }) },
    file: "src/session.ts",
    notes: 1,
  },
  {
    name: "strips ./",
    input: { value: withFinding({ file: "./src/session.ts" }) },
    file: "src/session.ts",
    notes: 1,
  },
  {
    name: "strips a/",
    input: { value: withFinding({ file: "a/src/session.ts" }) },
    file: "src/session.ts",
    notes: 1,
  },
  {
    name: "strips b/",
    input: { value: withFinding({ file: "b/src/session.ts" }) },
    file: "src/session.ts",
    notes: 1,
  },
  {
    name: "keeps a real top-level a/ directory",
    input: { value: withFinding({ file: "a/real.ts", line_start: 1, line_end: 2 }) },
    file: "a/real.ts",
    notes: 0,
  },
  {
    name: "refuses a file not in the tree",
    input: { value: withFinding({ file: "src/missing.ts" }) },
    refusal: [{
      path: "/findings/0/file",
      problem:
        '"src/missing.ts" is not in the reviewed tree: point at a file the change touches, relative to the repository root',
    }],
  },
  {
    name: "allows a file deleted by the change, without a line check",
    input: { value: withFinding({ file: "old/gone.ts", line_start: 900, line_end: 901 }) },
    file: "old/gone.ts",
  },
  {
    name: "refuses line_end past EOF",
    input: { value: withFinding({ line_end: 121 }) },
    refusal: [{
      path: "/findings/0/line_end",
      problem: 'line_end 121 is past the end of "src/session.ts" (120 lines)',
    }],
  },
  { name: "accepts line_end at EOF", input: { value: withFinding({ line_end: 120 }) } },
  {
    name: "refuses approve with a high finding",
    input: { value: { ...good, verdict: "approve" } },
    paths: ["/verdict"],
    problemIncludes: '"approve" carries a high finding (/findings/0)',
  },
  {
    name: "accepts approve with only low findings",
    input: { value: { ...good, verdict: "approve", findings: [good.findings[1]] } },
  },
  {
    name: "refuses needs-attention with zero findings",
    input: { value: { ...good, findings: [] } },
    paths: ["/findings"],
    problemIncludes: "at least one finding",
  },
  {
    name: "accepts approve with zero findings",
    input: { value: { ...good, verdict: "approve", findings: [] } },
  },
  {
    name: "reports every coherence problem at once",
    input: {
      value: {
        ...good,
        findings: [{ ...good.findings[0], file: "nope.ts" }, { ...good.findings[1], line_end: 1 }],
      },
    },
    paths: ["/findings/0/file", "/findings/1/line_end"],
  },
  {
    name: "refuses a JSON string value (structured_output of the wrong shape)",
    input: { value: text(good) },
    refusal: [{
      path: "",
      problem: "must be object, got " + JSON.stringify(text(good).slice(0, 40) + "…"),
    }],
  },
];

for (const c of cases) {
  Deno.test(`decode() ${c.name}`, async () => {
    const decision = await decode(reviewKind, c.input, tree);
    const expectOk = c.refusal === undefined && c.paths === undefined;
    if (expectOk) {
      assert.ok(decision.ok, `refused: ${JSON.stringify(!decision.ok && decision.refusal)}`);
      if (c.file !== undefined) assert.equal(decision.answer.findings[0].file, c.file);
      if (c.notes !== undefined) {
        assert.equal(decision.notes.length, c.notes, decision.notes.join("; "));
      }
      return;
    }
    assert.ok(!decision.ok, "accepted an answer that must be refused");
    if (c.refusal) assert.deepEqual(decision.refusal, c.refusal);
    if (c.paths) assert.deepEqual(decision.refusal.map((r) => r.path), c.paths);
    if (c.problemIncludes) {
      assert.ok(
        decision.refusal[0].problem.includes(c.problemIncludes),
        decision.refusal[0].problem,
      );
    }
  });
}

Deno.test("decode() takes Claude's structured_output value as given", async () => {
  // structured_output of fixtures/provider-samples/claude-structured-ok.json (scripted reply):
  // it lacks findings/next_steps, and the decoder must say exactly that.
  const structuredOutput = { verdict: "approve", summary: "Looks fine." };
  const decision = await decode(reviewKind, { value: structuredOutput }, tree);
  assert.ok(!decision.ok);
  assert.deepEqual(decision.refusal, [
    { path: "", problem: 'missing required key "findings"' },
    { path: "", problem: 'missing required key "next_steps"' },
  ]);
  const full = await decode(reviewKind, {
    value: { ...structuredOutput, findings: [], next_steps: [] },
  }, tree);
  assert.ok(full.ok);
  assert.deepEqual(full.notes, []);
});

Deno.test("decode() refuses fixtures/answers/review.bad.json with every schema problem", async () => {
  const bad = await Deno.readTextFile(
    new URL("../../../fixtures/answers/review.bad.json", import.meta.url),
  );
  const decision = await decode(reviewKind, { text: bad }, tree);
  assert.ok(!decision.ok);
  assert.deepEqual(decision.refusal.map((r) => r.path).sort(), [
    "",
    "/findings/0", // the extra key
    "/findings/0", // no scope
    "/findings/0/category",
    "/findings/0/confidence",
    "/findings/0/line_end",
    "/findings/0/line_start",
    "/summary",
    "/verdict",
  ]);
});

Deno.test("decode() holds a finding of scope introduced to the lines the change edited", async (t) => {
  const changed = memoryTree("/repo", { "src/session.ts": 120, "real.ts": 5, "bin.dat": 1 }, [
    "old/gone.ts",
  ], { "src/session.ts": [{ start: 40, end: 44 }, { start: 60, end: 60 }], "bin.dat": null });
  const cases: [string, Partial<Finding>, string | null][] = [
    ["overlapping the first changed lines", { line_start: 42, line_end: 57 }, null],
    ["ending on the first changed line", { line_start: 30, line_end: 40 }, null],
    ["on a lone changed line", { line_start: 60, line_end: 60 }, null],
    [
      "between changed ranges",
      { line_start: 45, line_end: 59 },
      'scope "introduced" but lines 45-59 of "src/session.ts" are not lines the change added or edited (it changed 40-44, 60): point at the changed lines that cause the problem, or use "pre-existing-touched" or "outside"',
    ],
    [
      "on one unchanged line",
      { line_start: 12, line_end: 12 },
      'scope "introduced" but line 12 of "src/session.ts" is not a line the change added or edited (it changed 40-44, 60): point at the changed lines that cause the problem, or use "pre-existing-touched" or "outside"',
    ],
    [
      "in a file the change does not edit",
      { file: "real.ts", line_start: 1, line_end: 1 },
      'scope "introduced" but the change edits no line of "real.ts": point at the changed lines that cause the problem, or use "pre-existing-touched" or "outside"',
    ],
    ["pre-existing anywhere", { scope: "pre-existing-touched", line_start: 1, line_end: 2 }, null],
    ["outside the change", { scope: "outside", file: "real.ts", line_start: 1, line_end: 1 }, null],
    ["in a file whose lines are unknown", { file: "bin.dat", line_start: 1, line_end: 1 }, null],
    ["in a deleted file", { file: "old/gone.ts", line_start: 3, line_end: 3 }, null],
  ];
  for (const [name, patch, problem] of cases) {
    await t.step(name, async () => {
      const value = withFinding({ scope: "introduced", ...patch });
      const decision = await decode(reviewKind, { value }, changed);
      if (problem === null) assert.ok(decision.ok, JSON.stringify(decision));
      else {assert.deepEqual(decision, {
          ok: false,
          refusal: [{ path: "/findings/0/scope", problem }],
        });}
    });
  }
  await t.step("the same answer without a known change is not checked", async () => {
    const value = withFinding({ scope: "introduced", line_start: 12, line_end: 12 });
    assert.ok((await decode(reviewKind, { value }, tree)).ok);
  });
});

Deno.test("decode() refuses an unknown category or scope", async () => {
  const decision = await decode(
    reviewKind,
    { value: withFinding({ category: "nit", scope: "new" } as unknown as Partial<Finding>) },
    tree,
  );
  assert.ok(!decision.ok);
  assert.deepEqual(decision.refusal.map((r) => r.path), [
    "/findings/0/category",
    "/findings/0/scope",
  ]);
  assert.match(decision.refusal[0].problem, /must be one of "bug", "security", "performance"/);
});

Deno.test("decode() does not modify its input value", async () => {
  const value = withFinding({ file: "./src/session.ts" });
  const decision = await decode(reviewKind, { value }, tree);
  assert.ok(decision.ok);
  assert.equal(value.findings[0].file, "./src/session.ts");
});

Deno.test("decode() refuses duplicate keys at any depth instead of keeping the last", async (t) => {
  const { verdict: _v, findings: _f, ...rest } = withFinding({ severity: "high" });
  const blocking = `{"verdict":"needs-attention",${text(rest).slice(1, -1)},"findings":${
    text(withFinding({ severity: "high" }).findings)
  }`;
  const cases: [string, string, string[]][] = [
    [
      "a second verdict and findings at the end",
      `${blocking},"findings":[],"verdict":"approve"}`,
      ["/findings", "/verdict"],
    ],
    [
      "a repeated key inside a finding",
      text(good).replace('"severity":', '"severity":"low","severity":'),
      ["/findings/0/severity"],
    ],
    [
      "a repeated key inside a fenced answer",
      "```json\n" + text(good).replace('"summary":', '"summary":"x","summary":') + "\n```",
      ["/summary"],
    ],
  ];
  for (const [name, input, paths] of cases) {
    await t.step(name, async () => {
      assert.doesNotThrow(() => JSON.parse(input.replace(/^```json\n|\n```$/g, "")));
      const decision = await decode(reviewKind, { text: input }, tree);
      assert.ok(!decision.ok, name);
      assert.deepEqual(decision.refusal.map((r) => r.path).sort(), paths);
      assert.match(decision.refusal[0].problem, /^duplicate key "/);
    });
  }
  await t.step("the same key in sibling objects is fine", async () => {
    const two = structuredClone(good);
    two.findings.push({ ...two.findings[0] });
    assert.ok((await decode(reviewKind, { text: text(two) }, tree)).ok);
  });
});

Deno.test("decode() refuses more than 100 findings before looking any file up", async () => {
  let lookups = 0;
  const counting = {
    ...tree,
    lineCount: (path: string) => (lookups++, tree.lineCount(path)),
  };
  const many = structuredClone(good);
  many.verdict = "needs-attention";
  many.findings = Array.from({ length: 5000 }, (_, i) => ({
    ...good.findings[0],
    severity: "low" as const,
    file: `made/up/${i}.ts`,
  }));
  const decision = await decode(reviewKind, { text: text(many) }, counting);
  assert.ok(!decision.ok);
  assert.deepEqual(decision.refusal, [{
    path: "/findings",
    problem: "has 5000 findings; at most 100 findings: report the most important ones",
  }]);
  assert.equal(lookups, 0);
  many.findings = many.findings.slice(0, 100);
  const hundred = await decode(reviewKind, { text: text(many) }, counting);
  assert.ok(!hundred.ok);
  assert.equal(hundred.refusal.length, 21, "20 problems plus the count of the rest");
  assert.deepEqual(hundred.refusal.at(-1), { path: "", problem: "… and 80 more problems" });
  assert.ok(lookups > 0);
});
