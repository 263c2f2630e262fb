/**
 * End to end: the read-only proof of a review made while the agent works (docs/design.md "Review
 * while working", "Read-only proof"). A background call's proof watches what its reviewer could
 * write that the Stop does not review from its own snapshot — the private copy, the git dir's
 * config and hooks, the files outside the repository, the state key — not the live worktree the
 * agent keeps editing. A part's verdict is cached only once the proof around its call held: a
 * reviewer that wrote leaves nothing to reuse, and the Stop asks again.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  gitOk,
  makeGateSandbox,
  promptPayload,
  readFakeLog,
  runHook,
  type Sandbox,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";
import { editPart, waitForWork, workConfig, workTallies } from "./_work.ts";

async function openTurn(sb: Sandbox, sessionId: string, env: Record<string, string>) {
  const session = { sessionId, cwd: sb.repo.root };
  const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
  assert.equal(p.code, 0, p.stderr);
  return session;
}

async function stop(sb: Sandbox, session: { sessionId: string; cwd: string }, env = {}) {
  const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
  assert.equal(s.code, 0, s.stderr);
  return stopDecision(s.stdout);
}

/** Provider calls the fake saw whose prompt holds `text`. */
async function callsWith(sb: Sandbox, text: string): Promise<number> {
  return (await readFakeLog(sb)).filter((c) => (c.stdin ?? "").includes(text)).length;
}

Deno.test("a background review whose reviewer writes into its copy leaves no verdict: the Stop asks every part again", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig());
    // the background calls write (the tool hook's environment is the worker's); the Stop's do not
    const writes = { REVIEW_GATE_FAKE_SCENARIO: "write-file", REVIEW_GATE_FAKE_DELAY_MS: "500" };
    const session = await openTurn(sb, "writes", writes);
    await editPart(sb, session, 1, "ok", writes);
    await editPart(sb, session, 2, "ok", writes);
    const settled = await waitForWork(
      sb,
      "writes",
      (s) => s.settled !== undefined && s.calls >= 2,
    );
    assert.ok((settled?.calls ?? 0) >= 2, JSON.stringify(settled));
    assert.deepEqual(settled?.answered, [], "a review that failed its proof answered nothing");
    const before = [await callsWith(sb, "first1"), await callsWith(sb, "first2")];
    const decision = await stop(sb, session, {});
    assert.equal(decision, null, JSON.stringify(decision));
    assert.deepEqual(
      [await callsWith(sb, "first1"), await callsWith(sb, "first2")],
      [before[0] + 1, before[1] + 1],
      "the Stop asked both parts again: nothing of the failed review was cached",
    );
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.reused, tally.stopCalls], [0, 2]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the agent's edits, git add and commit while a background review runs do not fail its proof: the Stop reuses it", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig());
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "3000" };
    const session = await openTurn(sb, "agent-writes", env);
    await editPart(sb, session, 1, "ok", env);
    await editPart(sb, session, 2, "ok", env);
    await waitForWork(sb, "agent-writes", (s) => s.calls === 2);
    // while both calls run: a new file (a part of its own), an index change and a commit (the
    // turn's change, baseline → worktree, keeps parts 1 and 2 as they were)
    await editPart(sb, session, 3, "ok", env);
    await gitOk(sb, ["add", "src/p2.ts"]);
    await gitOk(sb, ["commit", "-q", "-m", "agent's commit", "--", "src/p2.ts"]);
    await gitOk(sb, ["add", "src/p1.ts"]);
    const settled = await waitForWork(
      sb,
      "agent-writes",
      (s) => s.settled !== undefined && s.answered.length >= 3,
    );
    const before = (await readFakeLog(sb)).length;
    const decision = await stop(sb, session, env);
    assert.equal(decision, null, JSON.stringify(decision));
    assert.equal((await readFakeLog(sb)).length, before, "the Stop asked no model");
    assert.equal(await callsWith(sb, "first1"), 1, `part 1 asked once: ${JSON.stringify(settled)}`);
    assert.equal(await callsWith(sb, "first2"), 1, "part 2 asked once");
    const [tally] = await workTallies(sb);
    assert.equal(tally.wasted, 0, JSON.stringify(tally));
  } finally {
    await sb.cleanup();
  }
});
