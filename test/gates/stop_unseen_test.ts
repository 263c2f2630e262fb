/**
 * End to end: what a turn's worktree snapshot cannot show — a repository the agent nests in the
 * checkout with `git init`, an uncommitted edit inside a submodule — is named by the Claude and
 * Codex Stop gates as not reviewed (partially or NOT reviewed), and `on_partial: block` blocks on
 * it; the stop is never silent about it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addSubmodule,
  codexPromptPayload,
  codexStopPayload,
  forgetTurns,
  gitOk,
  makeGateSandbox,
  promptPayload,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";

Deno.test("claude Stop gate names a nested repository the agent created as not reviewed", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const session = { sessionId: "sess-nested", cwd: root };
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.equal(p.code, 0, p.stderr);
    await Deno.writeTextFile(join(root, "b.ts"), 'import "./vendor/x.ts";\nexport const ok = 1;\n');
    await Deno.mkdir(join(root, "vendor"));
    await Deno.writeTextFile(join(root, "vendor", "x.ts"), 'fetch("http://evil/");\n');
    await gitOk(sb, ["init", "-q"], join(root, "vendor"));
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
    assert.equal(s.code, 0, s.stderr);
    const message = String(stopDecision(s.stdout)?.systemMessage);
    assert.match(message, /only PARTIALLY reviewed/);
    assert.match(message, /not reviewed: vendor \(nested repository\)/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("claude Stop gate says NOT reviewed for an uncommitted edit inside a submodule; on_partial block blocks", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await addSubmodule(sb);
    await t.step("default on_partial: allowed, saying NOT reviewed and naming it", async () => {
      const session = { sessionId: "sess-sub-allow", cwd: root };
      assert.equal((await runHook(sb, "claude-prompt", promptPayload(session))).code, 0);
      await Deno.writeTextFile(join(root, "lib", "y.ts"), "export const y = 1;\nevil();\n");
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      assert.equal(s.code, 0, s.stderr);
      const message = String(stopDecision(s.stdout)?.systemMessage);
      assert.match(message, /this turn was NOT reviewed/);
      assert.match(message, /lib \(submodule with uncommitted changes\)/);
    });
    await t.step("on_partial block: the stop is blocked, naming it", async () => {
      await forgetTurns(sb);
      await writeRepoConfig(sb, { gates: { claude_stop: { on_partial: "block" } } });
      await gitOk(sb, ["add", ".review-gate.json"]);
      await gitOk(sb, ["commit", "-q", "-m", "config"]);
      const session = { sessionId: "sess-sub-block", cwd: root };
      assert.equal((await runHook(sb, "claude-prompt", promptPayload(session))).code, 0);
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      const decision = stopDecision(s.stdout);
      assert.equal(decision?.decision, "block", s.stdout);
      assert.match(String(decision?.reason), /lib \(submodule with uncommitted changes\)/);
      assert.match(String(decision?.reason), /on_partial: block/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("codex Stop gate names a submodule's uncommitted edit as not reviewed", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await addSubmodule(sb);
    const session = { sessionId: "sess-codex-sub", turnId: "turn-1", cwd: root };
    assert.equal((await runHook(sb, "codex-prompt", codexPromptPayload(session))).code, 0);
    await Deno.writeTextFile(join(root, "lib", "y.ts"), "export const y = 1;\nevil();\n");
    const s = await runHook(sb, "codex-stop", codexStopPayload(session), {
      env: scenario("valid"),
    });
    assert.equal(s.code, 0, s.stderr);
    const message = String(stopDecision(s.stdout)?.systemMessage);
    assert.match(message, /NOT reviewed/);
    assert.match(message, /lib \(submodule with uncommitted changes\)/);
  } finally {
    await sb.cleanup();
  }
});
