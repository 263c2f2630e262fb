import assert from "node:assert/strict";
import samples from "../../../test/contract/qwen_samples/hook_payloads.json" with { type: "json" };
import { QWEN_DOOR } from "./door.ts";
import { isStopContinuation, parseQwenPayload } from "./payload.ts";

function parsed(value: unknown) {
  const result = parseQwenPayload(JSON.stringify(value));
  assert.ok(result.ok, JSON.stringify(result));
  return result.payload;
}

Deno.test("qwen payloads as 0.15.10 sends them: only the user's prompt starts a turn", () => {
  assert.equal(QWEN_DOOR.isPrompt(parsed(samples.user_prompt)), true);
  assert.equal(parsed(samples.user_prompt).prompt, "Write a.txt please");
  // the request after a tool call and the continuation after our block are not the user's
  assert.equal(QWEN_DOOR.isPrompt(parsed(samples.tool_follow_up)), false);
  assert.equal(QWEN_DOOR.isPrompt(parsed(samples.block_continuation)), false);
  assert.equal(QWEN_DOOR.isPrompt(parsed(samples.stop)), false);
});

Deno.test("qwen Stop: the main agent's only; its constant stop_hook_active is not passed on", () => {
  const stop = parsed(samples.stop);
  assert.equal(QWEN_DOOR.isStop(stop), true);
  assert.equal(stop.stop_hook_active, undefined, "Qwen Code sends true on every stop");
  assert.equal(stop.last_assistant_message, "Wrote a.txt.");
  assert.equal(stop.session_id, samples.stop.session_id);
  assert.equal(QWEN_DOOR.isStop(parsed(samples.subagent_stop)), false);
  assert.equal(QWEN_DOOR.isStop(parsed({ ...samples.stop, agent_id: "x" })), false);
  assert.equal(QWEN_DOOR.isPrompt(parsed({ ...samples.user_prompt, agent_id: "x" })), false);
});

Deno.test("qwen PostToolUse is the background review's cue, a subagent's event is not", () => {
  assert.equal(QWEN_DOOR.isToolUse?.(parsed(samples.post_tool_use)), true);
  assert.equal(QWEN_DOOR.isToolUse?.(parsed(samples.subagent_start)), false);
  assert.equal(QWEN_DOOR.isToolUse?.(parsed({ ...samples.post_tool_use, agent_id: "a" })), false);
});

Deno.test("isStopContinuation(): our reasons, also joined after another hook's", () => {
  assert.equal(
    isStopContinuation("review-gate found 2 blocking findings in this turn's changes:"),
    true,
  );
  assert.equal(
    isStopContinuation("run the tests first\nreview-gate could not review this turn's changes: x."),
    true,
  );
  assert.equal(
    isStopContinuation("review-gate reviewed only part of this turn's changes: y."),
    true,
  );
  assert.equal(isStopContinuation("Fix the bug review-gate found yesterday"), false);
  assert.equal(isStopContinuation(""), false);
});

Deno.test("parseQwenPayload(): malformed input is a reason, never a throw", () => {
  assert.equal(parseQwenPayload("").ok, false);
  assert.equal(parseQwenPayload("[1]").ok, false);
  assert.equal(parseQwenPayload('{"hook_event_name":"Stop","cwd":"/x"}').ok, false);
});
