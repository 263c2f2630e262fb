import { ESCAPED_AT_NOTE } from "../at_commands.ts";
import assert from "node:assert/strict";
import reviewSchema from "../../../schemas/review.schema.json" with { type: "json" };
import { output, REQUEST, sample } from "../_test_support.ts";
import {
  buildQwenInvocation,
  parseQwenEnvelope,
  QWEN_EXCLUDED_TOOLS,
  QWEN_TOOLS,
  qwenAdapter,
} from "./adapter.ts";

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

Deno.test("buildQwenInvocation() asks for plan mode, read tools only and the schema, prompt on stdin", () => {
  const inv = buildQwenInvocation({ ...REQUEST, workdir: "/tmp/copy" });
  assert.equal(flag(inv.args, "--approval-mode"), "plan");
  assert.equal(flag(inv.args, "--core-tools"), QWEN_TOOLS.join(","));
  assert.equal(flag(inv.args, "--exclude-tools"), QWEN_EXCLUDED_TOOLS.join(","));
  assert.equal(flag(inv.args, "--output-format"), "json");
  assert.equal(flag(inv.args, "--max-session-turns"), "8");
  const schema = JSON.parse(flag(inv.args, "--json-schema")!);
  const { $schema: _s, $id: _i, ...rest } = reviewSchema;
  assert.deepEqual(schema, rest);
  assert.equal(inv.stdin, "Review this change." + ESCAPED_AT_NOTE);
  assert.equal(inv.cwd, "/tmp/copy");
  assert.ok(!inv.args.includes("--bare") && !inv.args.includes("--yolo"));
  assert.ok(!inv.args.includes("--resume") && !inv.args.includes("--model"));
  // a diff's `@path` would make Qwen Code attach that file after the prompt, outside the fence
  const at = buildQwenInvocation({ ...REQUEST, prompt: "+see @notes.md and me@example.com" });
  assert.equal(at.stdin, "+see \\@notes.md and me\\@example.com" + ESCAPED_AT_NOTE);
  for (const tool of ["run_shell_command", "write_file", "edit", "web_fetch", "agent"]) {
    assert.ok(QWEN_EXCLUDED_TOOLS.includes(tool), tool);
  }
});

Deno.test("buildQwenInvocation() resumes the session with every flag again, and passes the model", () => {
  const first = buildQwenInvocation(REQUEST);
  const resume = buildQwenInvocation({
    ...REQUEST,
    attempt: 2,
    model: "qwen3-coder",
    resumeSessionId: "s-1",
  });
  assert.deepEqual(resume.args.slice(0, first.args.length), first.args);
  assert.deepEqual(resume.args.slice(first.args.length), [
    "--model",
    "qwen3-coder",
    "--resume",
    "s-1",
  ]);
});

Deno.test("parseQwenEnvelope() takes structured_result of the real success array", () => {
  const env = parseQwenEnvelope(output(sample("qwen-success.json")));
  assert.equal(env.outcome, "answer");
  if (env.outcome !== "answer") return;
  assert.deepEqual(env.value, { verdict: "approve", summary: "ok", findings: [], next_steps: [] });
  assert.equal(env.sessionId, "45f1b49f-dd98-48d6-8270-410ad3b703f1");
  assert.equal(env.model, "qwen-mock");
  assert.equal(env.turns, 1);
  assert.deepEqual(env.usage, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0 });
  assert.equal(env.costUsd, undefined);
});

Deno.test("parseQwenEnvelope() refuses prose with the model's text, for a corrective resume", () => {
  const env = parseQwenEnvelope(output(sample("qwen-prose.json"), 1));
  assert.equal(env.outcome, "refused");
  if (env.outcome !== "refused") return;
  assert.equal(env.text, "prose answer");
  assert.equal(env.sessionId, "4e612326-ca02-4ef4-9cda-ae0018b92129");
  assert.match(env.problem, /structured_output/);
});

Deno.test("parseQwenEnvelope() makes an API error shown as prose a provider error, never resumed", () => {
  const env = parseQwenEnvelope(output(sample("qwen-api-error.json"), 1));
  assert.equal(env.outcome, "error");
  if (env.outcome !== "error") return;
  assert.equal(env.message, "Qwen Code reported an API error: [API Error: 401 mock says no]");
});

Deno.test("parseQwenEnvelope() names the fatal error on stderr (the turn limit, exit 53)", () => {
  const env = parseQwenEnvelope(output("", 53, sample("qwen-max-turns.stderr.txt")));
  assert.equal(env.outcome, "error");
  if (env.outcome !== "error") return;
  assert.match(env.message, /^Qwen Code stopped: FatalTurnLimitedError: Reached max session turns/);
  assert.match(env.message, /exit code 53/);
});

Deno.test("parseQwenEnvelope() has no answer without a result, or with a non-zero exit", async (t) => {
  const success = JSON.parse(sample("qwen-success.json")) as unknown[];
  await t.step("a stream cut before the result", () => {
    const env = parseQwenEnvelope(output(JSON.stringify(success.slice(0, 2))));
    assert.equal(env.outcome, "error");
  });
  await t.step("a success result with a non-zero exit", () => {
    const env = parseQwenEnvelope(output(sample("qwen-success.json"), 1));
    assert.equal(env.outcome, "error");
  });
  await t.step("no JSON at all", () => {
    const env = parseQwenEnvelope(output("Unknown argument: bogus", 1, "boom"));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") assert.match(env.message, /no JSON \(exit code 1\); stderr: boom/);
  });
  await t.step("another error subtype", () => {
    const failed = [...success.slice(0, 1), {
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      session_id: "s",
      error: { message: "Something broke" },
    }];
    const env = parseQwenEnvelope(output(JSON.stringify(failed), 1));
    assert.equal(env.outcome, "error");
    if (env.outcome === "error") {
      assert.match(env.message, /"error_during_execution": Something broke \(exit code 1\)/);
    }
  });
});

Deno.test("qwenAdapter resumes and takes its schema natively", () => {
  assert.deepEqual(qwenAdapter.capabilities, { nativeSchema: true, resume: true });
  assert.deepEqual(qwenAdapter.versionArgs, ["--version"]);
});
