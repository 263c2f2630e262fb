/**
 * End to end: what the agent under review can do by running review-gate's own Stop itself, with a
 * reviewer of its choosing or after switching the gate off on disk — none of it makes a later real
 * Stop quieter. A verdict is remembered only for the reviewer (program and answer-changing
 * environment) that gave it, never while a gate-control finding fired; the user's prompt ends a
 * block streak even while the config on disk has the gate off. Payloads piped as Claude Code sends
 * them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  FAKE_BIN,
  type GateSandbox,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  signInClaude,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

/** A reviewer program that is the fake with `scenario` fixed, as a user or an agent would wrap it. */
async function reviewer(sb: GateSandbox, name: string, scenario: string): Promise<string> {
  const path = join(sb.dir, `${name}-claude`);
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nREVIEW_GATE_FAKE_SCENARIO='${scenario}' exec '${join(FAKE_BIN, "claude")}' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("a Stop the agent runs with its own reviewer leaves nothing the real Stop reuses", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    // signed in to Claude Code: provider "auto" chooses the claude wrappers, not codex's fake
    await signInClaude(sb);
    const user = { REVIEW_GATE_CLAUDE_BIN: await reviewer(sb, "user", await blockingScenario(sb)) };
    const agents = { REVIEW_GATE_CLAUDE_BIN: await reviewer(sb, "agent", "valid") };
    const session = { sessionId: "agent-own-stop", cwd: sb.repo.root };
    await runHook(sb, "claude-prompt", promptPayload(session), { env: user });
    await addTokenLine(sb.repo.root, "AGENT_BUG");
    // the agent runs the Stop itself with a reviewer that approves everything
    await runHook(sb, "claude-stop", stopPayload(session), { env: agents });
    const calls = await providerCalls(sb);
    const real = await runHook(sb, "claude-stop", stopPayload(session), { env: user });
    assert.equal(real.code, 0, real.stderr);
    const decision = stopDecision(real.stdout);
    assert.equal(decision?.decision, "block", real.stdout);
    assert.match(String(decision?.reason), /Exported constant breaks callers/);
    assert.ok(await providerCalls(sb) > calls, "the user's reviewer was asked");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the user's prompt ends a block streak while the config on disk has the gate off", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const env = { REVIEW_GATE_FAKE_SCENARIO: await blockingScenario(sb) };
    const session = { sessionId: "streak-off", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session), { env });
    await Deno.writeTextFile(
      join(root, ".review-gate.json"),
      '{"gates":{"claude_stop":{"enabled":false}}}',
    );
    for (const active of [false, true, true, true]) {
      await runHook(sb, "claude-stop", stopPayload({ ...session, stopHookActive: active }), {
        env,
      });
    }
    // a new turn from the user, with a new bug: it blocks again
    await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt: "Next task." }), {
      env,
    });
    await addTokenLine(root, "NEXT_TURN_BUG");
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
  } finally {
    await sb.cleanup();
  }
});
