/**
 * A gate the agent of session A disabled unasked, held through `max_blocks`, stays on for a new
 * session B of the same worktree (lib/gates/turn/held_elsewhere.ts): B's Stop reviews and says
 * why the gate is on; a prompt of B's user asking for the change lifts the hold.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

const DISABLED = '{"gates":{"claude_stop":{"max_blocks":1,"enabled":false}}}\n';

/** Session A disables the gate unasked and sits out max_blocks; session B then edits code. */
async function newSessionAfterHold(bPrompt: string | null) {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const config = join(root, ".review-gate.json");
  const valid = scenario("valid");
  const stop = async (id: string, env: Record<string, string>) =>
    await runHook(sb, "claude-stop", stopPayload({ sessionId: id, cwd: root }), { env });
  const prompt = async (id: string, text: string, env: Record<string, string>) =>
    await runHook(sb, "claude-prompt", promptPayload({ sessionId: id, cwd: root, prompt: text }), {
      env,
    });
  try {
    await Deno.writeTextFile(config, '{"gates":{"claude_stop":{"max_blocks":1}}}\n');
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "config"]);
    await prompt("A", "Add a token.", valid);
    await addTokenLine(root, "TURN_ONE");
    await Deno.writeTextFile(config, DISABLED);
    assert.equal(stopDecision((await stop("A", valid)).stdout)?.decision, "block");
    await stop("A", valid); // the cap: A's turn ends, the change held
    const blocking = scenario(await blockingScenario(sb));
    if (bPrompt !== null) await prompt("B", bPrompt, blocking);
    await addTokenLine(root, "TURN_TWO");
    const before = await providerCalls(sb);
    const r = await stop("B", blocking);
    return { decision: stopDecision(r.stdout), calls: (await providerCalls(sb)) - before };
  } finally {
    await sb.cleanup();
  }
}

Deno.test("held disabled gate: a new session's Stop still reviews, and says why", async () => {
  const { decision, calls } = await newSessionAfterHold("Rename it again.");
  assert.equal(decision?.decision, "block");
  assert.ok(calls > 0, "no review ran");
  const text = String(decision?.reason ?? "") + String(decision?.systemMessage ?? "");
  assert.match(text, /gates\.claude_stop\.enabled \(\.review-gate\.json\) is held back/);
});

Deno.test("held disabled gate: the new session's user asking for it lifts the hold", async () => {
  const { decision, calls } = await newSessionAfterHold(
    "Yes, disable the claude_stop gate (gates.claude_stop.enabled false), then rename it.",
  );
  assert.equal(decision, null);
  assert.equal(calls, 0);
});

Deno.test("held disabled gate: a new session whose start was not seen is told, once", async () => {
  const { decision, calls } = await newSessionAfterHold(null);
  assert.equal(calls, 0);
  const text = String(decision?.systemMessage ?? "");
  assert.match(text, /NOT reviewed: its start was not seen/);
  assert.equal(text.split("gate is disabled in the config, but that change").length, 2, text);
});
