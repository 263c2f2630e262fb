import assert from "node:assert/strict";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { output, REQUEST, sample } from "../_test_support.ts";
import {
  buildCopilotInvocation,
  copilotAdapter,
  copilotToolCallStarts,
  parseCopilotEnvelope,
} from "./adapter.ts";

const USAGE = "/tmp/rg-x/copilot-usage-1.json";

Deno.test("buildCopilotInvocation() offers read tools only, denies write and shell, prompt and schema on stdin", () => {
  const inv = buildCopilotInvocation({ ...REQUEST, workdir: "/tmp/copy" });
  assert.deepEqual(inv.args, [
    "--output-format",
    "json",
    "--available-tools=view,grep,glob",
    "--deny-tool=write",
    "--deny-tool=shell",
    "--no-custom-instructions",
    "--disable-builtin-mcps",
    "--no-ask-user",
    "--disallow-temp-dir",
    "--disable-client-telemetry",
    "--no-remote",
    "--no-auto-update",
    `--usage-output-file=${USAGE}`,
  ]);
  assert.ok(inv.stdin!.startsWith("Review this change.\n"));
  assert.ok(inv.stdin!.includes(JSON.stringify(reviewSchema, null, 2).slice(0, 40)));
  assert.ok(inv.stdin!.endsWith("Reply with the JSON object only."));
  assert.equal(inv.cwd, "/tmp/copy");
  assert.deepEqual(inv.readBack, [USAGE]);
  for (const never of ["--allow-all", "--allow-all-tools", "--yolo", "--allow-all-paths", "-p"]) {
    assert.ok(!inv.args.includes(never), never);
  }
});

Deno.test("buildCopilotInvocation() resumes the session with every flag again, and passes the model", () => {
  const first = buildCopilotInvocation(REQUEST);
  const resume = buildCopilotInvocation({
    ...REQUEST,
    attempt: 2,
    model: "gpt-5.4",
    resumeSessionId: "s-1",
  });
  const usage2 = "--usage-output-file=/tmp/rg-x/copilot-usage-2.json";
  assert.deepEqual(resume.args, [
    ...first.args.slice(0, -1),
    usage2,
    "--model=gpt-5.4",
    "--resume=s-1",
  ]);
});

Deno.test("parseCopilotEnvelope() takes the last assistant message of the real success stream", () => {
  const env = parseCopilotEnvelope(output(sample("copilot-success.jsonl")));
  assert.equal(env.outcome, "answer");
  if (env.outcome !== "answer") return;
  assert.deepEqual(JSON.parse(env.text ?? ""), {
    verdict: "approve",
    summary: "ok",
    findings: [],
    next_steps: [],
  });
  assert.match(env.sessionId ?? "", /^[0-9a-f-]{36}$/);
  assert.equal(env.model, "copilot-mock");
  assert.equal(env.turns, 1);
  assert.equal(env.costUsd, undefined);
});

Deno.test("parseCopilotEnvelope() gives prose to the decoder, and the session's usage totals", () => {
  const env = parseCopilotEnvelope({
    ...output(sample("copilot-prose-resumed.jsonl")),
    files: { "/tmp/rg-x/copilot-usage-2.json": sample("copilot-usage-resumed.json") },
  });
  assert.equal(env.outcome, "answer");
  if (env.outcome !== "answer") return;
  assert.equal(env.text, "prose answer");
  assert.deepEqual(env.usage, {
    inputTokens: 20,
    outputTokens: 10,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
});

Deno.test("parseCopilotEnvelope() makes a session.error a provider error, never resumed", () => {
  const env = parseCopilotEnvelope(output(sample("copilot-api-error.jsonl"), 1));
  assert.equal(env.outcome, "error");
  if (env.outcome !== "error") return;
  assert.match(
    env.message,
    /^Copilot reported an error: authentication: Authentication failed with provider at .* \(HTTP 401\)/,
  );
  assert.match(env.message, /\(exit code 1\)$/);
  assert.ok(env.notices?.some((n) => /Retrying/.test(n)), "the retry is kept as a notice");
});

Deno.test("parseCopilotEnvelope() has no answer without a finished turn", async (t) => {
  const lines = sample("copilot-success.jsonl").trimEnd().split("\n");
  await t.step("a stream cut before the result", () => {
    const env = parseCopilotEnvelope(output(lines.slice(0, -1).join("\n")));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /no result event \(exit code 0\)/);
  });
  await t.step("a success result with a non-zero exit", () => {
    const env = parseCopilotEnvelope(output(lines.join("\n"), 1, "boom"));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /exit code 1.*stderr: boom/);
  });
  await t.step("no JSON at all", () => {
    const env = parseCopilotEnvelope(output("error: unknown option '--bogus'", 1));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /no JSON \(exit code 1\)/);
  });
  await t.step("a last message that asks for a tool", () => {
    const cut = lines.map((line) =>
      line.startsWith('{"type":"assistant.message"')
        ? line.replace('"toolRequests":[]', '"toolRequests":[{"name":"view"}]')
        : line
    );
    const env = parseCopilotEnvelope(output(cut.join("\n")));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /without finishing its turn/);
  });
  await t.step("no assistant message", () => {
    const none = lines.filter((line) => !line.startsWith('{"type":"assistant.message"'));
    const env = parseCopilotEnvelope(output(none.join("\n")));
    assert.equal(env.outcome, "refused");
  });
});

Deno.test("copilotToolCallStarts() counts tool.execution_start lines only", () => {
  assert.ok(copilotToolCallStarts('{"type":"tool.execution_start","data":{"toolName":"view"}}'));
  assert.ok(!copilotToolCallStarts('{"type":"tool.execution_complete","data":{}}'));
  assert.ok(
    !copilotToolCallStarts(
      '{"type":"assistant.message","data":{"content":"tool.execution_start"}}',
    ),
  );
});

Deno.test("copilotAdapter resumes, takes its schema in the prompt and bounds tool calls", () => {
  assert.deepEqual(copilotAdapter.capabilities, { nativeSchema: false, resume: true });
  assert.deepEqual(copilotAdapter.versionArgs, ["--version"]);
  assert.equal(copilotAdapter.toolBound?.what, "tool calls");
  assert.equal(copilotAdapter.dialect, "canonical");
});
