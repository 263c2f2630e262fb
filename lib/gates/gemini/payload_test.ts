import assert from "node:assert/strict";
import samples from "../../../test/contract/gemini_samples/hook_payloads.json" with {
  type: "json",
};
import { GEMINI_DOOR } from "./door.ts";
import { parseGeminiPayload } from "./payload.ts";

function parsed(value: unknown) {
  const result = parseGeminiPayload(JSON.stringify(value));
  assert.ok(result.ok, JSON.stringify(result));
  return result.payload;
}

Deno.test("gemini payloads as 0.61.0 sends them: BeforeAgent starts a turn, AfterAgent ends it", () => {
  const prompt = parsed(samples.user_prompt);
  assert.equal(GEMINI_DOOR.isPrompt(prompt), true);
  assert.equal(GEMINI_DOOR.isStop(prompt), false);
  assert.equal(prompt.prompt, "Write a.txt");
  assert.equal(prompt.session_id, samples.user_prompt.session_id);
  assert.equal(prompt.cwd, "/work/repo");
  const stop = parsed(samples.after_agent);
  assert.equal(GEMINI_DOOR.isStop(stop), true);
  assert.equal(GEMINI_DOOR.isPrompt(stop), false);
  assert.equal(stop.last_assistant_message, "Wrote a.txt.", "prompt_response is the final text");
  assert.equal(stop.stop_hook_active, false);
  assert.equal(stop.transcript_path, samples.after_agent.transcript_path);
  for (const tool of [samples.after_tool, samples.after_tool_fix]) {
    assert.equal(GEMINI_DOOR.isToolUse?.(parsed(tool)), true);
    assert.equal(GEMINI_DOOR.isStop(parsed(tool)), false);
  }
  assert.equal(GEMINI_DOOR.isToolUse?.(stop), false);
});

Deno.test("gemini after a block: BeforeAgent fires again with the reason, the door says the host does that", () => {
  const again = parsed(samples.block_continuation);
  assert.equal(again.prompt, "PROBE-BLOCK fix it", "the probe's block reason, as the prompt");
  assert.equal(GEMINI_DOOR.blockReasonIsPrompt, true);
  // the stop after the fix still names the user's prompt, and its flag says nothing of the block
  const next = parsed(samples.after_agent_after_fix);
  assert.equal(next.prompt, "Write a.txt");
  assert.equal(next.stop_hook_active, false);
  assert.equal(next.last_assistant_message, "Wrote a.txt.\nFixed a.txt.");
  assert.equal(parsed({ ...samples.after_agent, stop_hook_active: true }).stop_hook_active, true);
  assert.equal(parsed({ ...samples.after_agent, stop_hook_active: "yes" }).stop_hook_active, false);
});

Deno.test("gemini door: gate name, config key and hook names", () => {
  assert.equal(GEMINI_DOOR.gateName, "gemini-stop");
  assert.equal(GEMINI_DOOR.promptHookName, "gemini-prompt");
  assert.equal(GEMINI_DOOR.workerHookName, "gemini-worker");
  assert.equal(GEMINI_DOOR.projectDir({ GEMINI_PROJECT_DIR: "/elsewhere" }), undefined);
});

Deno.test("parseGeminiPayload(): malformed input is a reason, never a throw", () => {
  assert.equal(parseGeminiPayload("").ok, false);
  assert.equal(parseGeminiPayload("not json").ok, false);
  assert.equal(parseGeminiPayload("[1]").ok, false);
  assert.equal(parseGeminiPayload('{"hook_event_name":"AfterAgent","cwd":"/x"}').ok, false);
  const noText = parsed({ ...samples.after_agent, prompt_response: null });
  assert.equal(noText.last_assistant_message, undefined);
});
