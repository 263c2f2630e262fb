/**
 * End to end: the turn's boundary holds across sessions (README "Claude Code Stop"). A new session
 * in a worktree starts where the worktree's other sessions left work no Stop answered for — a CLI
 * killed mid-turn, a turn whose Stop blocked last, writes that landed after a Stop answered — and
 * its Stop reviews that work and names it; once it answered, the next session starts after it. A
 * session whose record was deleted while its anchor names the worktree is named as not reviewed.
 * Another worktree's sessions are not this worktree's. Payloads piped as Claude Code and Codex
 * send them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addedLines,
  addTokenLine,
  blockingScenario,
  codexPromptPayload,
  codexStopPayload,
  type GateSandbox,
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

async function prompt(sb: GateSandbox, sessionId: string, cwd = sb.repo.root) {
  const p = await runHook(sb, "claude-prompt", promptPayload({ sessionId, cwd }), { cwd });
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
}

async function stop(
  sb: GateSandbox,
  sessionId: string,
  env: Record<string, string>,
  cwd = sb.repo.root,
) {
  const s = await runHook(sb, "claude-stop", stopPayload({ sessionId, cwd }), { env, cwd });
  assert.equal(s.code, 0, s.stderr);
  return { decision: stopDecision(s.stdout), stdout: s.stdout };
}

async function lastReviewed(sb: GateSandbox): Promise<string> {
  return addedLines((await readFakeLog(sb)).at(-1)?.stdin ?? null);
}

Deno.test("a new session reviews the work an earlier session of the worktree left unanswered", async (t) => {
  await t.step("the earlier session's CLI was killed mid-turn (no Stop)", async () => {
    const sb = await makeGateSandbox({ remote: false });
    try {
      await prompt(sb, "old-killed");
      await addTokenLine(sb.repo.root, "KILLED_SESSION"); // the CLI is killed here
      await prompt(sb, "new-after-kill");
      const { decision } = await stop(sb, "new-after-kill", scenario(await blockingScenario(sb)));
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /another session of this worktree/);
      assert.match(await lastReviewed(sb), /KILLED_SESSION/);
    } finally {
      await sb.cleanup();
    }
  });

  await t.step("a write landed after the earlier session's Stop answered", async () => {
    const sb = await makeGateSandbox({ remote: false });
    try {
      await prompt(sb, "old-answered");
      await Deno.writeTextFile(join(sb.repo.root, "src", "ok.ts"), "export const ok = 1;\n");
      const first = await stop(sb, "old-answered", scenario("valid"));
      assert.equal(first.decision, null, first.stdout);
      await addTokenLine(sb.repo.root, "LATE_WRITE"); // a background write, then the CLI quits
      await prompt(sb, "new-after-late");
      const { decision } = await stop(sb, "new-after-late", scenario(await blockingScenario(sb)));
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      const reviewed = await lastReviewed(sb);
      assert.match(reviewed, /LATE_WRITE/);
      assert.doesNotMatch(reviewed, /export const ok/, "the answered work is not reviewed again");
    } finally {
      await sb.cleanup();
    }
  });

  await t.step("through the Codex door, after a Claude session was killed", async () => {
    const sb = await makeGateSandbox({ remote: false });
    const root = sb.repo.root;
    try {
      await prompt(sb, "claude-killed");
      await addTokenLine(root, "CLAUDE_LEFT");
      const session = { sessionId: "codex-next", turnId: "t1", cwd: root };
      await runHook(sb, "codex-prompt", codexPromptPayload(session));
      const s = await runHook(sb, "codex-stop", codexStopPayload(session), {
        env: scenario(await blockingScenario(sb)),
      });
      assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
      assert.match(await lastReviewed(sb), /CLAUDE_LEFT/);
    } finally {
      await sb.cleanup();
    }
  });

  await t.step("once answered, the next session starts after it: no second review", async () => {
    const sb = await makeGateSandbox({ remote: false });
    try {
      await prompt(sb, "first-killed");
      await Deno.writeTextFile(join(sb.repo.root, "src", "fine.ts"), "export const f = 1;\n");
      await prompt(sb, "second");
      const second = await stop(sb, "second", scenario("valid"));
      assert.equal(await providerCalls(sb), 1, "the killed session's work was reviewed");
      assert.match(second.stdout, /another session of this worktree/);
      await prompt(sb, "third");
      const third = await stop(sb, "third", scenario(await blockingScenario(sb)));
      assert.deepEqual([third.decision, await providerCalls(sb)], [null, 1], third.stdout);
    } finally {
      await sb.cleanup();
    }
  });
});

Deno.test("a session whose record was deleted is named by the next session's Stops until one answers", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await prompt(sb, "deleted-one");
    await addTokenLine(sb.repo.root, "UNKNOWN_WORK");
    await gitOk(sb, ["commit", "-q", "-am", "hidden"]);
    await Deno.remove(join(sb.repo.root, ".git", "review-gate", "sessions", "deleted-one.json"));
    await prompt(sb, "after-delete");
    const { decision, stdout } = await stop(sb, "after-delete", scenario("valid"));
    const words = JSON.stringify(decision ?? stdout);
    assert.match(words, /NOT reviewed|partially reviewed/i);
    assert.match(words, /sessions\/deleted-one\.json/);
    // named until a Stop that reviews something answers for the work; then never again
    await Deno.writeTextFile(join(sb.repo.root, "src", "more.ts"), "export const m = 1;\n");
    const reviewed = await stop(sb, "after-delete", scenario("valid"));
    assert.match(reviewed.stdout, /PARTIALLY reviewed/);
    assert.match(reviewed.stdout, /sessions\/deleted-one\.json/);
    await prompt(sb, "later");
    const later = await stop(sb, "later", scenario("valid"));
    assert.deepEqual([later.stdout, await providerCalls(sb)], ["", 1]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("another worktree's unanswered session is not this worktree's", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const other = join(sb.dir, "other-wt");
    await gitOk(sb, ["worktree", "add", "-q", "-b", "other", other]);
    await prompt(sb, "in-other", other);
    await addTokenLine(other, "OTHER_WORKTREE"); // killed there
    await prompt(sb, "in-main");
    const { decision } = await stop(sb, "in-main", scenario(await blockingScenario(sb)));
    assert.deepEqual([decision, await providerCalls(sb)], [null, 0]);
  } finally {
    await sb.cleanup();
  }
});
