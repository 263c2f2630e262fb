import assert from "node:assert/strict";
import { isMainPromptSubmit, isMainStop, parseCopilotPayload } from "./payload.ts";
import { COPILOT_DOOR } from "./door.ts";

const sample = (name: string) =>
  Deno.readTextFileSync(new URL(`../../../fixtures/copilot_hooks/${name}.json`, import.meta.url));

function parsed(name: string) {
  const result = parseCopilotPayload(sample(name));
  assert.ok(result.ok);
  return result.payload;
}

Deno.test("copilot payload: the captured main prompt and stop are the main turn's", () => {
  const prompt = parsed("prompt");
  assert.equal(prompt.prompt, "Add a half() helper in src/half.ts.");
  assert.ok(isMainPromptSubmit(prompt));
  const stop = parsed("stop");
  assert.ok(isMainStop(stop));
  assert.equal(stop.stop_hook_active, false);
  assert.match(stop.transcript_path ?? "", /events\.jsonl$/);
});

Deno.test("copilot payload: a subagent's prompt and Stop (agent_id) are never the main turn's", () => {
  const prompt = parsed("subagent_prompt");
  const stop = parsed("subagent_stop");
  assert.equal(prompt.agent_id, "924a0c7b-e5b9-4cfb-be21-fc8ef7ff8b0c");
  assert.equal(isMainPromptSubmit(prompt), false);
  assert.equal(COPILOT_DOOR.isPrompt(prompt), false);
  assert.equal(isMainStop(stop), false);
  assert.equal(COPILOT_DOOR.isStop(stop), false);
});

Deno.test("copilot door: its host hands a block's reason back as a prompt", () => {
  assert.equal(COPILOT_DOOR.blockReasonIsPrompt, true);
  assert.equal(COPILOT_DOOR.gateName, "copilot-stop");
});
