/**
 * End to end: the repository's other worktrees, where no agent session runs, are not a place to
 * hide a turn's work (README "Claude Code Stop"). A commit on another worktree's detached `HEAD`
 * is reviewed as a moved ref; uncommitted edits there are named as NOT reviewed — unless a session
 * of that worktree, whose next review includes them, has a record. No stop stamp is left while
 * other worktrees exist: the installed script looks at this worktree only. Payloads piped as
 * Claude Code sends them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  forgetTurns,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  readFakeLog,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

Deno.test("a commit on another worktree's detached HEAD is reviewed", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const w3 = join(sb.dir, "w3");
    await gitOk(sb, ["worktree", "add", "-q", "--detach", w3]);
    const session = { sessionId: "wt-detached", cwd: sb.repo.root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await addTokenLine(w3, "ON_DETACHED");
    await gitOk(sb, ["commit", "-q", "-am", "x"], w3);
    const s = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(await blockingScenario(sb)),
    });
    const decision = stopDecision(s.stdout);
    assert.equal(decision?.decision, "block", s.stdout);
    assert.match(String(decision?.reason), /HEAD of worktree/);
    assert.match((await readFakeLog(sb)).at(-1)?.stdin ?? "", /ON_DETACHED/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("uncommitted edits in another worktree where no session runs are named as NOT reviewed", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const w2 = join(sb.dir, "w2");
    await gitOk(sb, ["worktree", "add", "-q", "-b", "feat", w2]);
    await t.step("no session there: named", async () => {
      const session = { sessionId: "wt-edit", cwd: sb.repo.root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      assert.equal(
        await Deno.stat(join(sb.env.HOME, ".local/state/review-gate/anchors/wt-edit.stop"))
          .then(() => true, () => false),
        false,
        "no stop stamp while other worktrees exist",
      );
      await addTokenLine(w2, "IN_W2");
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      const words = JSON.stringify(stopDecision(s.stdout));
      assert.match(words, /NOT reviewed/);
      assert.match(words, /uncommitted changes in the worktree [^"]*w2/);
      assert.equal(await providerCalls(sb), 0);
    });
    await t.step("a session of that worktree started first: its review includes them", async () => {
      await gitOk(sb, ["checkout", "--", "."], w2);
      await forgetTurns(sb);
      const there = { sessionId: "wt-there", cwd: w2 };
      await runHook(sb, "claude-prompt", promptPayload(there), { cwd: w2 });
      const session = { sessionId: "wt-edit-2", cwd: sb.repo.root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(w2, "IN_W2_AGAIN");
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
    });
  } finally {
    await sb.cleanup();
  }
});
