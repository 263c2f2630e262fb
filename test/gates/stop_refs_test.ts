/**
 * End to end: every ref a turn moved is reviewed, not only branches and tags (README "Claude Code
 * Stop"): a ref under any namespace (`refs/wip/…`), `git stash` — its tracked, staged and (`-u`)
 * untracked files, and an older entry pushed down by a later stash — and a note the turn added.
 * Remote-tracking refs are not the turn's: a fetch moves them with other people's commits, and a
 * push is the pre-push gate's to review. Payloads piped as Claude Code sends them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addedLines,
  addTokenLine,
  blockingScenario,
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

/** A sandbox with a turn started (session `sessionId`) and its Stop ready to call. */
async function startTurn(sessionId: string) {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const session = { sessionId, cwd: root };
  const p = await runHook(sb, "claude-prompt", promptPayload(session));
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
  const stop = async () => {
    const s = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(await blockingScenario(sb)),
    });
    assert.equal(s.code, 0, s.stderr);
    return stopDecision(s.stdout);
  };
  return { sb, root, stop };
}

/** Every added line the fake was shown, all calls. */
async function allReviewed(sb: GateSandbox): Promise<string> {
  return (await readFakeLog(sb)).map((call) => addedLines(call.stdin ?? null)).join("\n");
}

/** Run one case in its own sandbox. */
async function refCase(
  sessionId: string,
  turn: (sb: GateSandbox, root: string) => Promise<void>,
  check: (decision: Record<string, unknown> | null, sb: GateSandbox) => Promise<void>,
): Promise<void> {
  const { sb, root, stop } = await startTurn(sessionId);
  try {
    await turn(sb, root);
    await check(await stop(), sb);
  } finally {
    await sb.cleanup();
  }
}

function assertBlocks(decision: Record<string, unknown> | null, ref: RegExp) {
  assert.equal(decision?.decision, "block", JSON.stringify(decision));
  assert.match(String(decision?.reason), ref);
}

Deno.test("a ref a turn moved under any name is reviewed", async (t) => {
  await t.step("commit, `git update-ref refs/wip/x`, then `git reset --hard`", async () => {
    await refCase("refs-wip", async (sb, root) => {
      await addTokenLine(root, "ON_WIP");
      await gitOk(sb, ["commit", "-q", "-am", "wip"]);
      await gitOk(sb, ["update-ref", "refs/wip/x", "HEAD"]);
      await gitOk(sb, ["reset", "-q", "--hard", "HEAD~"]);
    }, async (decision, sb) => {
      assertBlocks(decision, /refs\/wip\/x/);
      assert.match(await allReviewed(sb), /ON_WIP/);
    });
  });

  await t.step("`git stash` of a tracked edit", async () => {
    await refCase("refs-stash", async (sb, root) => {
      await addTokenLine(root, "STASHED");
      await gitOk(sb, ["stash", "-q"]);
    }, async (decision, sb) => {
      assertBlocks(decision, /stash@\{0\}/);
      assert.match(await allReviewed(sb), /STASHED/);
    });
  });

  await t.step("`git stash -u` of an untracked file", async () => {
    await refCase("refs-stash-u", async (sb, root) => {
      await Deno.writeTextFile(join(root, "src", "new.ts"), 'export const n = "UNTRACKED";\n');
      await gitOk(sb, ["stash", "-q", "-u"]);
    }, async (decision, sb) => {
      assertBlocks(decision, /stash@\{0\} \(untracked files\)/);
      assert.match(await allReviewed(sb), /UNTRACKED/);
    });
  });

  await t.step("`git stash` twice: the first entry is pushed down to stash@{1}", async () => {
    await refCase("refs-stash-2", async (sb, root) => {
      await addTokenLine(root, "FIRST_STASH");
      await gitOk(sb, ["stash", "-q"]);
      await Deno.writeTextFile(join(root, "src", "other.ts"), "export const o = 1;\n");
      await gitOk(sb, ["add", "src/other.ts"]);
      await gitOk(sb, ["stash", "-q"]);
    }, async (decision, sb) => {
      assertBlocks(decision, /stash@\{1\}/);
      assert.match(await allReviewed(sb), /FIRST_STASH/);
    });
  });

  await t.step("a note the turn added", async () => {
    await refCase("refs-notes", async (sb) => {
      await gitOk(sb, ["notes", "add", "-m", "NOTE_TEXT", "HEAD"]);
    }, async (decision, sb) => {
      assertBlocks(decision, /refs\/notes\/commits/);
      assert.match(await allReviewed(sb), /NOTE_TEXT/);
    });
  });

  await t.step("a stash that existed before the turn is not the turn's", async () => {
    const sb = await makeGateSandbox({ remote: false });
    const root = sb.repo.root;
    try {
      await addTokenLine(root, "USERS_OWN_STASH");
      await gitOk(sb, ["stash", "-q"]);
      const session = { sessionId: "refs-old-stash", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      const s = await runHook(sb, "claude-stop", stopPayload(session), {
        env: scenario(await blockingScenario(sb)),
      });
      assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
      assert.equal(await providerCalls(sb), 0);
    } finally {
      await sb.cleanup();
    }
  });

  await t.step("a remote-tracking ref moved (a fetch) is not the turn's", async () => {
    await refCase("refs-remote", async (sb, root) => {
      await addTokenLine(root, "FETCHED");
      await gitOk(sb, ["commit", "-q", "-am", "upstream"]);
      await gitOk(sb, ["update-ref", "refs/remotes/origin/main", "HEAD"]);
      await gitOk(sb, ["reset", "-q", "--hard", "HEAD~"]);
      await gitOk(sb, ["update-ref", "refs/prefetch/remotes/origin/main", "HEAD@{1}"]);
    }, async (decision, sb) => {
      assert.equal(decision, null, JSON.stringify(decision));
      assert.equal(await providerCalls(sb), 0);
    });
  });
});
