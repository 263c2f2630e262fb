import assert from "node:assert/strict";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { buildClaudeInvocation, claudeAdapter, parseClaudeEnvelope } from "./adapter.ts";
import { excerptOf } from "../envelope_values.ts";
import { output, REQUEST, sample } from "../_test_support.ts";

const SCHEMA_TEXT = (() => {
  const copy: Record<string, unknown> = structuredClone(reviewSchema);
  delete copy.$schema;
  delete copy.$id;
  return JSON.stringify(copy);
})();

const FIRST_ARGS = [
  "-p",
  "--output-format",
  "json",
  "--json-schema",
  SCHEMA_TEXT,
  "--setting-sources",
  "",
  "--settings",
  "/tmp/rg-x/claude-settings.json",
  "--strict-mcp-config",
  "--restricted",
  "--tools",
  "Read,Grep,Glob",
  "--disable-slash-commands",
  "--permission-mode",
  "dontAsk",
  "--max-turns",
  "8",
];

const CHILD = {
  env: { PATH: "/bin", HOME: "/home/u" },
  args: ["--settings", "/tmp/rg-x/claude-settings.json"],
};

Deno.test("buildClaudeInvocation() builds the first call with the prompt on stdin", () => {
  const inv = buildClaudeInvocation({ ...REQUEST, workdir: "/tmp/copy", child: CHILD });
  assert.deepEqual(inv.args, FIRST_ARGS);
  assert.deepEqual(inv.env, CHILD.env);
  assert.equal(inv.clearEnv, true, "the child's environment is the allowlist, nothing else");
  assert.equal(inv.cwd, "/tmp/copy");
  assert.ok(!inv.args.some((a) => a.startsWith("Bash")), "no Bash, no git commands");
  assert.equal(inv.stdin, "Review this change.");
  assert.deepEqual(inv.files, {});
  assert.deepEqual(inv.readBack, []);
  assert.ok(!inv.args[4].includes("$schema"), "the 2020-12 $schema must be stripped");
});

Deno.test("buildClaudeInvocation() repeats every flag on resume and adds --model and --resume", () => {
  const inv = buildClaudeInvocation({
    ...REQUEST,
    child: CHILD,
    model: "opus",
    resumeSessionId: "abc-1",
    attempt: 2,
  });
  assert.deepEqual(inv.args, [...FIRST_ARGS, "--model", "opus", "--resume", "abc-1"]);
});

const CASES: Array<[string, number, string, RegExp | null]> = [
  ["claude-structured-ok.json", 0, "answer", null],
  ["claude-resume-ok.json", 0, "answer", null],
  ["claude-stream.jsonl", 0, "answer", null],
  ["claude-structured-bad.json", 0, "refused", null],
  [
    "claude-structured-maxretries.json",
    1,
    "error",
    /error_max_structured_output_retries.*after 5 attempts/,
  ],
  ["claude-api400.json", 1, "error", /status 400\).*JSON schema is invalid/],
  ["claude-api500.json", 1, "error", /status 500\).*API Error: 500/],
  ["claude-maxturns.json", 1, "error", /"error_max_turns": Reached maximum number of turns/],
  ["claude-maxbudget.json", 1, "error", /"error_max_budget_usd": Reached maximum budget/],
];

Deno.test("parseClaudeEnvelope() classifies every real sample", async (t) => {
  for (const [file, code, outcome, message] of CASES) {
    await t.step(file, () => {
      const env = parseClaudeEnvelope(output(sample(file), code));
      assert.equal(env.outcome, outcome);
      assert.match(env.sessionId ?? "", /^[0-9a-f-]{36}$/);
      if (env.outcome === "error" && message) assert.match(env.message, message);
    });
  }
});

Deno.test("parseClaudeEnvelope() carries structured_output, usage, cost, turns and model", () => {
  const env = parseClaudeEnvelope(output(sample("claude-structured-ok.json")));
  assert.equal(env.outcome, "answer");
  assert.deepEqual(env.value, { verdict: "approve", summary: "Looks fine." });
  assert.equal(env.sessionId, "9f2b635d-82cd-4057-b327-c45b2e074e0f");
  assert.deepEqual(env.usage, {
    inputTokens: 10,
    outputTokens: 20,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  assert.equal(env.costUsd, 0.00044);
  assert.equal(env.turns, 2);
  assert.equal(env.model, "claude-opus-5-5");
});

Deno.test("parseClaudeEnvelope() reports the session's running totals on a resume (modelUsage, total_cost_usd)", () => {
  // claude-resume-ok.json: top-level usage 10/20 is this invocation; modelUsage 60/120 the session
  const env = parseClaudeEnvelope(output(sample("claude-resume-ok.json")));
  assert.equal(env.costUsd, 0.00264);
  assert.deepEqual(env.usage, {
    inputTokens: 60,
    outputTokens: 120,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
});

Deno.test("parseClaudeEnvelope() refuses prose without structured_output, keeping the prose", () => {
  const env = parseClaudeEnvelope(output(sample("claude-structured-bad.json")));
  assert.equal(env.outcome, "refused");
  assert.equal(env.text, "Done.");
  assert.match(env.problem, /StructuredOutput/);
});

Deno.test("parseClaudeEnvelope() takes the last result event of an array", () => {
  const ok = JSON.parse(sample("claude-structured-ok.json"));
  const array = [
    { type: "system", subtype: "init" },
    { ...ok, structured_output: { first: true } },
    { type: "assistant" },
    ok,
  ];
  const env = parseClaudeEnvelope(output(JSON.stringify(array)));
  assert.equal(env.outcome, "answer");
  assert.deepEqual(env.value, { verdict: "approve", summary: "Looks fine." });
});

Deno.test("parseClaudeEnvelope() treats a success envelope with a non-zero exit as an error", () => {
  const env = parseClaudeEnvelope(output(sample("claude-structured-ok.json"), 1, "boom"));
  assert.equal(env.outcome, "error");
  assert.match(env.message, /exited with code 1.*stderr: boom/);
});

Deno.test("parseClaudeEnvelope() treats an API error with exit 0 (older builds) as an error", () => {
  const env = parseClaudeEnvelope(output(sample("claude-api500.json"), 0));
  assert.equal(env.outcome, "error");
});

Deno.test("parseClaudeEnvelope() returns an error, not a crash, for garbage and empty stdout", async (t) => {
  const cases: Array<[string, number, string, RegExp]> = [
    [
      "not json at all {",
      1,
      "Error: --json-schema is not a valid JSON Schema",
      /no JSON.*exit code 1.*not a valid JSON Schema/,
    ],
    ["", 0, "", /no JSON \(exit code 0\)$/],
    ['{"type":"assistant"}', 0, "", /no result event/],
    ["[1,2,3]", 0, "", /no JSON/],
    ["\uFFFD\uFFFD", 139, "segmentation fault", /segmentation fault/],
  ];
  for (const [stdout, code, stderr, message] of cases) {
    await t.step(JSON.stringify(stdout), () => {
      const env = parseClaudeEnvelope(output(stdout, code, stderr));
      assert.equal(env.outcome, "error");
      if (env.outcome === "error") assert.match(env.message, message);
    });
  }
});

Deno.test("claudeAdapter declares its binary, env override and capabilities", () => {
  assert.equal(claudeAdapter.name, "claude");
  assert.equal(claudeAdapter.binEnv, "REVIEW_GATE_CLAUDE_BIN");
  assert.deepEqual(claudeAdapter.capabilities, { nativeSchema: true, resume: true });
});

Deno.test("a crashed CLI's error message is kept in the message, its stack frames left out", () => {
  const frames = Array.from(
    { length: 30 },
    (_, i) => `    at step${i} (file:///x/scenario.ts:${i}:11)`,
  );
  const stderr = [
    `error: Uncaught (in promise) Error: unknown step kind "eror": use one of valid, prose, error`,
    ...frames,
  ].join("\n");
  const envelope = parseClaudeEnvelope(output("", 70, stderr));
  assert.equal(envelope.outcome, "error");
  const message = envelope.outcome === "error" ? envelope.message : "";
  assert.match(message, /^Claude Code printed no JSON \(exit code 70\); stderr: error: .*"eror"/);
  assert.match(message, /\(30 stack lines left out\)$/);
  assert.doesNotMatch(message, /step\d/);
});

Deno.test("excerptOf() keeps short text whole, and the start and end of long text", () => {
  assert.equal(excerptOf("  short  \n"), "short");
  const long = `FIRST ${"x".repeat(2000)} LAST`;
  const cut = excerptOf(long, 100);
  assert.ok(cut.length <= 103, String(cut.length));
  assert.match(cut, /^FIRST x+ … x+ LAST$/);
});

Deno.test("parseClaudeEnvelope() has no answer without a finished, successful result", async (t) => {
  const ok = JSON.parse(sample("claude-structured-ok.json"));
  const { is_error: _e, ...noIsError } = ok;
  const { subtype: _s, ...noSubtype } = ok;
  const toolCall = {
    type: "assistant",
    message: {
      content: [{ type: "tool_use", name: "StructuredOutput", input: ok.structured_output }],
    },
  };
  const cases: Record<string, unknown> = {
    "a StructuredOutput call but no result event": [{ type: "system", subtype: "init" }, toolCall],
    "is_error missing": noIsError,
    'is_error "false" (a string)': { ...ok, is_error: "false" },
    "subtype missing": noSubtype,
    "subtype error_during_execution": { ...ok, subtype: "error_during_execution" },
    "is_error true with subtype success": { ...ok, is_error: true },
    'terminal_reason "aborted_streaming"': { ...ok, terminal_reason: "aborted_streaming" },
    'terminal_reason "aborted_tools"': { ...ok, terminal_reason: "aborted_tools" },
    'terminal_reason "hook_stopped"': { ...ok, terminal_reason: "hook_stopped" },
    'terminal_reason "background_requested"': { ...ok, terminal_reason: "background_requested" },
  };
  for (const [name, body] of Object.entries(cases)) {
    await t.step(name, () => {
      const env = parseClaudeEnvelope(output(JSON.stringify(body)));
      assert.equal(env.outcome, "error", JSON.stringify(env));
    });
  }
});

Deno.test("parseClaudeEnvelope() names a success whose turn did not complete, and keeps older builds' results", () => {
  const ok = JSON.parse(sample("claude-structured-ok.json"));
  const aborted = parseClaudeEnvelope(
    output(JSON.stringify({ ...ok, terminal_reason: "aborted_tools" })),
  );
  assert.equal(aborted.outcome, "error");
  if (aborted.outcome === "error") {
    assert.equal(
      aborted.message,
      'Claude Code ended without completing its turn (terminal_reason "aborted_tools")',
    );
  }
  const { terminal_reason: _t, ...older } = ok;
  assert.equal(parseClaudeEnvelope(output(JSON.stringify(older))).outcome, "answer");
});
