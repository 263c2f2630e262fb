/**
 * End to end: a Stop whose session lock is held by another review waits at most the internal
 * deadline, then allows with a message and no model call.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  APP,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";

Deno.test("claude Stop gate allows with a message when another review of the session holds the lock past the deadline", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await writeRepoConfig(sb, { gates: { claude_stop: { timeout_seconds: 20 } } }); // deadline 5 s
    const session = { sessionId: "sess-locked", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await Deno.writeTextFile(join(root, APP), "export const changed = true;\n");
    const sessions = join(root, ".git", "review-gate", "sessions");
    await Deno.mkdir(sessions, { recursive: true });
    const lock = await Deno.open(join(sessions, "sess-locked.lock"), { create: true, write: true });
    try {
      await lock.lock(true);
      const started = Date.now();
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      const seconds = (Date.now() - started) / 1000;
      assert.equal(s.code, 0, s.stderr);
      assert.ok(seconds >= 4 && seconds < 15, `took ${seconds} s`);
      assert.match(
        String(stopDecision(s.stdout)?.systemMessage),
        /another review of this session is running/,
      );
      assert.equal(await providerCalls(sb), 0);
    } finally {
      lock.close();
    }
    const after = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario("valid"),
    });
    assert.deepEqual([after.code, after.stdout], [0, ""], after.stderr);
    assert.equal(await providerCalls(sb), 1);
  } finally {
    await sb.cleanup();
  }
});
