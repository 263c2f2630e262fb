import assert from "node:assert/strict";
import { join } from "node:path";
import { pushReviewerEnv, unknownStartNote } from "./reviewer_env.ts";

Deno.test("pushReviewerEnv(): a turn whose start is unknown holds back every reviewer variable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = {
      XDG_STATE_HOME: join(dir, "moved"),
      PATH: "/usr/bin",
      REVIEW_GATE_PROVIDER: "claude",
      REVIEW_GATE_CLAUDE_BIN: "/tmp/agent-claude",
      REVIEW_GATE_FAIL_ON: "critical",
      REVIEW_GATE_FAKE_SCENARIO: "valid",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
    };
    const turns = [{ kind: "unknown" as const, name: "s1.json", what: "x" }];
    const held = await pushReviewerEnv(turns, env);
    assert.deepEqual(held.env, {
      XDG_STATE_HOME: env.XDG_STATE_HOME,
      PATH: "/usr/bin",
      REVIEW_GATE_FAKE_SCENARIO: "valid",
    });
    assert.deepEqual(held.heldBack, [
      "ANTHROPIC_BASE_URL",
      "REVIEW_GATE_CLAUDE_BIN",
      "REVIEW_GATE_FAIL_ON",
      "REVIEW_GATE_PROVIDER",
    ]);
    const note = unknownStartNote(held);
    assert.match(note, /session s1/);
    assert.match(note, /key \S+moved\/review-gate\/key is not usable \(it does not exist\)/);
    assert.match(note, /REVIEW_GATE_FAIL_ON/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pushReviewerEnv(): no turn holds nothing back and says nothing", async () => {
  const env = { REVIEW_GATE_FAIL_ON: "critical" };
  const held = await pushReviewerEnv([], env);
  assert.deepEqual(held.env, env);
  assert.deepEqual(held.heldBack, []);
  assert.equal(unknownStartNote(held), "");
});
