import assert from "node:assert/strict";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { output, REQUEST, sample } from "../_test_support.ts";
import {
  buildOpencodeInvocation,
  opencodeAdapter,
  opencodeToolCallStarts,
  parseOpencodeEnvelope,
} from "./adapter.ts";

Deno.test("buildOpencodeInvocation() runs our read-only agent in the copy, prompt and schema on stdin", () => {
  const inv = buildOpencodeInvocation({ ...REQUEST, workdir: "/tmp/copy" });
  assert.deepEqual(inv.args, [
    "run",
    "--format",
    "json",
    "--pure",
    "--agent",
    "review-gate",
    "--title",
    "review-gate review",
    "--dir",
    "/tmp/copy",
  ]);
  assert.ok(inv.stdin!.startsWith("Review this change.\n"));
  assert.ok(inv.stdin!.includes(JSON.stringify(reviewSchema, null, 2).slice(0, 40)));
  assert.ok(inv.stdin!.endsWith("Reply with the JSON object only."));
  assert.equal(inv.cwd, "/tmp/copy");
  for (const never of ["--auto", "--share", "--continue", "--attach", "--session"]) {
    assert.ok(!inv.args.includes(never), never);
  }
});

Deno.test("buildOpencodeInvocation() resumes the session with every flag again, and passes the model", () => {
  const first = buildOpencodeInvocation(REQUEST);
  const resume = buildOpencodeInvocation({
    ...REQUEST,
    attempt: 2,
    model: "anthropic/claude-sonnet-4-5",
    resumeSessionId: "ses_1",
  });
  assert.deepEqual(resume.args, [
    ...first.args,
    "--model",
    "anthropic/claude-sonnet-4-5",
    "--session",
    "ses_1",
  ]);
});

Deno.test("parseOpencodeEnvelope() takes the last step's text of the real success stream", () => {
  const env = parseOpencodeEnvelope(output(sample("opencode-success.jsonl")));
  assert.equal(env.outcome, "answer");
  if (env.outcome !== "answer") return;
  assert.deepEqual(JSON.parse(env.text ?? ""), {
    verdict: "approve",
    summary: "ok",
    findings: [],
    next_steps: [],
  });
  assert.match(env.sessionId ?? "", /^ses_/);
  assert.equal(env.turns, 1);
  assert.deepEqual(env.usage, {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  // the mock's model has no price: no cost is reported
  assert.equal(env.costUsd, undefined);
});

Deno.test("parseOpencodeEnvelope() gives prose to the decoder; a resume names the same session", () => {
  const first = parseOpencodeEnvelope(output(sample("opencode-success.jsonl")));
  const env = parseOpencodeEnvelope(output(sample("opencode-prose-resumed.jsonl")));
  assert.equal(env.outcome, "answer");
  if (env.outcome !== "answer") return;
  assert.equal(env.text, "prose answer");
  assert.equal(env.sessionId, first.sessionId);
  assert.equal(env.usage?.inputTokens, 10, "this run's own step only");
});

Deno.test("parseOpencodeEnvelope() makes an error event a provider error, never resumed", () => {
  const env = parseOpencodeEnvelope(output(sample("opencode-api-error.jsonl"), 1));
  assert.equal(env.outcome, "error");
  if (env.outcome !== "error") return;
  assert.equal(
    env.message,
    "OpenCode reported an error: APIError: mock: bad key (HTTP 401) (exit code 1)",
  );
  assert.match(env.sessionId ?? "", /^ses_/);
});

Deno.test("parseOpencodeEnvelope() adds up the steps' tokens and cost", () => {
  const step = (input: number, cost: number, reason: string) =>
    JSON.stringify({
      type: "step_finish",
      sessionID: "ses_1",
      part: { reason, tokens: { input, output: 1, cache: { read: 2, write: 0 } }, cost },
    });
  const text = JSON.stringify({ type: "text", sessionID: "ses_1", part: { text: "{}" } });
  const start = JSON.stringify({ type: "step_start", sessionID: "ses_1", part: {} });
  const env = parseOpencodeEnvelope(
    output([start, step(10, 0.01, "tool-calls"), start, text, step(15, 0.02, "stop")].join("\n")),
  );
  assert.equal(env.outcome, "answer");
  assert.deepEqual(env.usage, {
    inputTokens: 25,
    outputTokens: 2,
    cacheReadTokens: 4,
    cacheWriteTokens: 0,
  });
  assert.ok(Math.abs((env.costUsd ?? 0) - 0.03) < 1e-9);
  assert.equal(env.turns, 2);
});

Deno.test("parseOpencodeEnvelope() has no answer without a finished turn", async (t) => {
  const lines = sample("opencode-success.jsonl").trimEnd().split("\n");
  await t.step("a stream cut before the step finished", () => {
    const env = parseOpencodeEnvelope(output(lines.slice(0, -1).join("\n")));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /its last step never finished/);
  });
  await t.step("a last step that asks for a tool", () => {
    const cut = lines.map((line) => line.replace('"reason":"stop"', '"reason":"tool-calls"'));
    const env = parseOpencodeEnvelope(output(cut.join("\n")));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /its last step asks for a tool/);
  });
  await t.step("a finished stream with a non-zero exit", () => {
    const env = parseOpencodeEnvelope(output(lines.join("\n"), 1, "boom"));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /failed \(exit code 1\); stderr: boom/);
  });
  await t.step("no JSON at all", () => {
    const env = parseOpencodeEnvelope(output("", 1, "Error: opencode-ai's postinstall"));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /printed no JSON \(exit code 1\)/);
  });
  await t.step("no text in the last step", () => {
    const none = lines.filter((line) => !line.startsWith('{"type":"text"'));
    const env = parseOpencodeEnvelope(output(none.join("\n")));
    assert.equal(env.outcome, "refused");
  });
});

Deno.test("opencodeToolCallStarts() counts tool_use lines only", () => {
  assert.ok(opencodeToolCallStarts('{"type":"tool_use","sessionID":"s","part":{"tool":"read"}}'));
  assert.ok(!opencodeToolCallStarts('{"type":"step_finish","part":{}}'));
  assert.ok(
    !opencodeToolCallStarts('{"type":"text","part":{"text":"{\\"type\\":\\"tool_use\\""}}'),
  );
});

Deno.test("opencodeAdapter resumes, takes its schema in the prompt, adds attempts up, bounds tool calls", () => {
  assert.deepEqual(opencodeAdapter.capabilities, {
    nativeSchema: false,
    resume: true,
    attemptUsage: true,
  });
  assert.deepEqual(opencodeAdapter.versionArgs, ["--version"]);
  assert.equal(opencodeAdapter.toolBound?.what, "tool calls");
  assert.equal(opencodeAdapter.dialect, "canonical");
});
