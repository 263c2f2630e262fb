import assert from "node:assert/strict";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { output, REQUEST, sample } from "../_test_support.ts";
import {
  buildGeminiInvocation,
  buildGeminiPrompt,
  escapeAtCommands,
  geminiAdapter,
  parseGeminiEnvelope,
} from "./adapter.ts";

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

Deno.test("buildGeminiInvocation() asks for plan mode, a trusted copy, JSON output, prompt on stdin", () => {
  const inv = buildGeminiInvocation({ ...REQUEST, workdir: "/tmp/copy" });
  assert.equal(flag(inv.args, "--approval-mode"), "plan");
  assert.ok(inv.args.includes("--skip-trust"));
  assert.equal(flag(inv.args, "--output-format"), "json");
  assert.equal(flag(inv.args, "--prompt"), "");
  assert.equal(inv.cwd, "/tmp/copy");
  assert.ok(!inv.args.includes("--yolo") && !inv.args.includes("--sandbox"));
  assert.ok(!inv.args.includes("--resume") && !inv.args.includes("--model"));
  assert.equal(inv.stdin, buildGeminiPrompt(REQUEST));
  assert.ok(inv.stdin!.startsWith("Review this change.\n"));
});

Deno.test("buildGeminiPrompt() carries the canonical schema and escapes every @", () => {
  const prompt = buildGeminiPrompt({ ...REQUEST, prompt: "see @src/a.ts and me@example.com" });
  assert.ok(prompt.startsWith("see \\@src/a.ts and me\\@example.com\n"));
  const start = prompt.indexOf("{");
  const schema = JSON.parse(
    prompt.slice(start, prompt.lastIndexOf("}") + 1).replaceAll("\\@", "@"),
  );
  assert.deepEqual(schema, reviewSchema);
  assert.doesNotMatch(prompt, /(^|[^\\])@/);
  assert.equal(escapeAtCommands("a@b @c"), "a\\@b \\@c");
});

Deno.test("buildGeminiInvocation() resumes the session with every flag again, and passes the model", () => {
  const first = buildGeminiInvocation(REQUEST);
  const resume = buildGeminiInvocation({
    ...REQUEST,
    attempt: 2,
    model: "gemini-2.5-pro",
    resumeSessionId: "s-1",
  });
  assert.deepEqual(resume.args.slice(0, first.args.length), first.args);
  assert.deepEqual(resume.args.slice(first.args.length), [
    "--model",
    "gemini-2.5-pro",
    "--resume",
    "s-1",
  ]);
});

Deno.test("parseGeminiEnvelope() takes the response text of the real success object", () => {
  const env = parseGeminiEnvelope(output(sample("gemini-success.json")));
  assert.equal(env.outcome, "answer");
  if (env.outcome !== "answer") return;
  assert.deepEqual(JSON.parse(env.text ?? ""), {
    verdict: "approve",
    summary: "The change is small and correct.",
    findings: [],
    next_steps: [],
  });
  assert.match(env.sessionId ?? "", /^[0-9a-f-]{36}$/);
  assert.equal(env.model, "gemini-mock");
  assert.equal(env.turns, 1);
  assert.deepEqual(env.usage, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0 });
  assert.equal(env.costUsd, undefined);
});

Deno.test("parseGeminiEnvelope() names the API error of stderr, never resumed", () => {
  const env = parseGeminiEnvelope(output("", 145, sample("gemini-api-error.stderr.txt")));
  assert.equal(env.outcome, "error");
  if (env.outcome !== "error") return;
  assert.equal(
    env.message,
    "Gemini CLI stopped: API error 401 UNAUTHENTICATED: mock says no (exit code 145)",
  );
  assert.match(env.sessionId ?? "", /^[0-9a-f-]{36}$/);
});

Deno.test("parseGeminiEnvelope() names the turn limit (exit 53)", () => {
  const env = parseGeminiEnvelope(output("", 53, sample("gemini-max-turns.stderr.txt")));
  assert.equal(env.outcome, "error");
  if (env.outcome !== "error") return;
  assert.match(
    env.message,
    /^Gemini CLI stopped: FatalTurnLimitedError: Reached max session turns/,
  );
  assert.match(env.message, /\(exit code 53\)$/);
});

Deno.test("parseGeminiEnvelope() has no answer without a response, or with an error or exit code", async (t) => {
  const success = JSON.parse(sample("gemini-success.json"));
  await t.step("no JSON at all", () => {
    const env = parseGeminiEnvelope(output("Unknown arguments: bogus", 1, "boom"));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") {
      assert.match(env.message, /printed no JSON \(exit code 1\); stderr: boom/);
    }
  });
  await t.step("a success object with a non-zero exit", () => {
    const env = parseGeminiEnvelope(output(sample("gemini-success.json"), 1));
    assert.equal(env.outcome, "error");
  });
  await t.step("an invalid stream reported on stdout", () => {
    const body = {
      ...success,
      response: "",
      error: { type: "INVALID_STREAM", message: "Model stream ended with empty response text." },
    };
    const env = parseGeminiEnvelope(output(JSON.stringify(body, null, 2)));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") {
      assert.match(env.message, /INVALID_STREAM: Model stream ended with empty response text/);
    }
  });
  await t.step("no response field", () => {
    const { response: _r, ...rest } = success;
    const env = parseGeminiEnvelope(output(JSON.stringify(rest)));
    assert.equal(env.outcome, "error");
  });
});

Deno.test("geminiAdapter resumes, has no schema flag, and adds up each attempt's tokens", () => {
  assert.deepEqual(geminiAdapter.capabilities, {
    nativeSchema: false,
    resume: true,
    attemptUsage: true,
  });
  assert.deepEqual(geminiAdapter.versionArgs, ["--version"]);
});
