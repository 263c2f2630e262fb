/**
 * End to end: the turn's boundary is closed (README "Claude Code Stop"). The baseline moves forward
 * only past work a Stop answered for — a turn whose Stop never ran, writes that land after a Stop,
 * a blocked turn the user interrupted and a review that could not run are all reviewed by the next
 * Stop; the prompts of every turn since the baseline count for "the prompt asked for it". Commits
 * the turn made that the worktree no longer shows (on a side branch, amended, checked out away) are
 * reviewed as well as the worktree — only for the file versions no tree the turn started or ended with
 * has (committing beside the user's uncommitted edits costs one review), each finding listed once. A
 * session whose state is gone follows `on_error`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addedLines,
  addTokenLine,
  APP,
  APP_TEXT,
  BLOCKING_ANSWER,
  blockingScenario,
  codexPromptPayload,
  codexStopPayload,
  commitToken,
  forgetTurns,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  readFakeLog,
  runCli,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";

/** The diff's added lines of the fake's last invocation. */
async function lastReviewed(sb: Parameters<typeof readFakeLog>[0]): Promise<string> {
  const log = await readFakeLog(sb);
  return addedLines(log.at(-1)?.stdin ?? null);
}

Deno.test("a turn whose Stop never ran is reviewed by the next turn's Stop", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    await t.step("claude: the killed turn's edit is in the next review", async () => {
      const session = { sessionId: "sess-killed", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(root, "KILLED_TURN"); // the CLI is killed here: no Stop
      await runHook(sb, "claude-prompt", promptPayload(session));
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      assert.equal(s.code, 0, s.stderr);
      assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
      assert.equal(await providerCalls(sb), 1);
      assert.match(await lastReviewed(sb), /KILLED_TURN/);
      await gitOk(sb, ["checkout", "--", APP]);
    });
    await t.step("codex: the same through the other front door", async () => {
      const session = { sessionId: "codex-killed", turnId: "t1", cwd: root };
      await runHook(sb, "codex-prompt", codexPromptPayload(session));
      await addTokenLine(root, "CODEX_KILLED");
      await runHook(sb, "codex-prompt", codexPromptPayload({ ...session, turnId: "t2" }));
      const s = await runHook(sb, "codex-stop", codexStopPayload({ ...session, turnId: "t2" }), {
        env: blocking,
      });
      assert.equal(s.code, 0, s.stderr);
      assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
      assert.match(await lastReviewed(sb), /CODEX_KILLED/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("writes that land after an answered Stop are reviewed by the next Stop", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const session = { sessionId: "sess-late", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await Deno.writeTextFile(join(root, "src", "ok.ts"), "export const ok = 1;\n");
    const first = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario("valid"),
    });
    assert.deepEqual([first.code, first.stdout], [0, ""], first.stderr);
    // a background `sleep 3; echo bug >> src/app.ts` the agent started lands now
    await addTokenLine(root, "AFTER_STOP");
    await runHook(sb, "claude-prompt", promptPayload(session));
    const s = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(await blockingScenario(sb)),
    });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
    assert.equal(await providerCalls(sb), 2);
    const reviewed = await lastReviewed(sb);
    assert.match(reviewed, /AFTER_STOP/);
    assert.doesNotMatch(
      reviewed,
      /export const ok/,
      "turn 1's answered work is not reviewed again",
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a blocked turn the user interrupted, and a review that could not run, are reviewed again", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    await t.step("a block is not an answer: the next turn's stop blocks again", async () => {
      const session = { sessionId: "sess-interrupted", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(root, "BLOCKED");
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      assert.equal(stopDecision(s.stdout)?.decision, "block");
      // the user presses Esc and types the next prompt; the turn changes nothing more
      await runHook(sb, "claude-prompt", promptPayload(session));
      const next = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      assert.equal(stopDecision(next.stdout)?.decision, "block", next.stdout);
      await gitOk(sb, ["checkout", "--", APP]);
    });
    await t.step("an on_error allow is not an answer: the next stop reviews it", async () => {
      const session = { sessionId: "sess-error", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(root, "UNREVIEWED");
      const s = await runHook(sb, "claude-stop", stopPayload(session), {
        env: scenario("error"),
      });
      assert.match(String(stopDecision(s.stdout)?.systemMessage), /NOT reviewed/);
      await runHook(sb, "claude-prompt", promptPayload(session));
      const calls = await providerCalls(sb);
      const next = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      assert.equal(stopDecision(next.stdout)?.decision, "block", next.stdout);
      assert.ok(await providerCalls(sb) > calls);
      assert.match(await lastReviewed(sb), /UNREVIEWED/);
      await gitOk(sb, ["checkout", "--", APP]);
    });
    await t.step("a max_blocks allow is an answer: the next turn starts after it", async () => {
      await forgetTurns(sb);
      await writeRepoConfig(sb, { gates: { claude_stop: { max_blocks: 1 } } });
      await gitOk(sb, ["add", ".review-gate.json"]);
      await gitOk(sb, ["commit", "-q", "-m", "max_blocks 1"]);
      const session = { sessionId: "sess-capped", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(root, "CAPPED");
      const stops = [];
      for (const active of [false, true]) {
        const s = await runHook(
          sb,
          "claude-stop",
          stopPayload({ ...session, stopHookActive: active }),
          {
            env: blocking,
          },
        );
        stops.push(stopDecision(s.stdout));
      }
      assert.equal(stops[0]?.decision, "block");
      assert.match(String(stops[1]?.systemMessage), /stopped blocking after 1 block/);
      await runHook(sb, "claude-prompt", promptPayload(session));
      const calls = await providerCalls(sb);
      const next = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      assert.deepEqual([next.code, next.stdout], [0, ""], next.stderr);
      assert.equal(await providerCalls(sb), calls);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the prompts of every turn since the baseline count for a gate-control edit", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const session = { sessionId: "sess-prompts", cwd: root };
    const asked = "Please set max_blocks to 5 in .review-gate.json.";
    await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt: asked }));
    await writeRepoConfig(sb, { gates: { claude_stop: { max_blocks: 5 } } });
    // no Stop; the next turn's prompt says nothing about the config
    await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt: "now the docs" }));
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
    assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
    assert.equal(await providerCalls(sb), 1, "the config edit was reviewed as code");
  } finally {
    await sb.cleanup();
  }
});

/**
 * A sandbox with two commits, a turn started (after `before`, the user's own edits), and a helper
 * to stop it.
 */
async function refTurn(sessionId: string, codex = false, before?: (root: string) => Promise<void>) {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  await Deno.writeTextFile(join(root, "README.md"), "# app\n");
  await gitOk(sb, ["add", "README.md"]);
  await gitOk(sb, ["commit", "-q", "-m", "readme"]);
  await before?.(root);
  const blocking = scenario(await blockingScenario(sb));
  const session = { sessionId, turnId: "t1", cwd: root };
  await runHook(
    sb,
    codex ? "codex-prompt" : "claude-prompt",
    codex ? codexPromptPayload(session) : promptPayload(session),
  );
  const stop = async (env = blocking) => {
    const s = await runHook(
      sb,
      codex ? "codex-stop" : "claude-stop",
      codex ? codexStopPayload(session) : stopPayload(session),
      { env },
    );
    assert.equal(s.code, 0, s.stderr);
    return stopDecision(s.stdout);
  };
  return { sb, root, stop };
}

Deno.test("commits the turn made that the worktree no longer shows are reviewed", async (t) => {
  await t.step("commit, then `git branch side` + `git reset --hard`", async () => {
    const { sb, root, stop } = await refTurn("sess-side");
    try {
      await addTokenLine(root, "ON_SIDE");
      await gitOk(sb, ["commit", "-q", "-am", "bug"]);
      await gitOk(sb, ["branch", "side"]);
      await gitOk(sb, ["reset", "-q", "--hard", "HEAD~"]);
      const decision = await stop();
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /refs\/heads\/side/);
      assert.match(await lastReviewed(sb), /ON_SIDE/);
    } finally {
      await sb.cleanup();
    }
  });
  await t.step("`git commit --amend`, then the file restored", async () => {
    const { sb, root, stop } = await refTurn("sess-amend");
    try {
      await addTokenLine(root, "AMENDED");
      await gitOk(sb, ["commit", "-q", "-a", "--amend", "--no-edit"]);
      await Deno.writeTextFile(join(root, APP), APP_TEXT);
      const decision = await stop();
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(await lastReviewed(sb), /AMENDED/);
    } finally {
      await sb.cleanup();
    }
  });
  await t.step("commit, then `git checkout HEAD~ -- file` (through the codex door)", async () => {
    const { sb, root, stop } = await refTurn("codex-checkout", true);
    try {
      await addTokenLine(root, "CHECKED_OUT_AWAY");
      await gitOk(sb, ["commit", "-q", "-am", "bug"]);
      await gitOk(sb, ["checkout", "HEAD~", "--", APP]);
      const decision = await stop();
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(await lastReviewed(sb), /CHECKED_OUT_AWAY/);
    } finally {
      await sb.cleanup();
    }
  });
  await t.step("a tag on a commit the worktree no longer shows", async () => {
    const { sb, root, stop } = await refTurn("sess-tag");
    try {
      await addTokenLine(root, "TAGGED");
      await gitOk(sb, ["commit", "-q", "-am", "bug"]);
      await gitOk(sb, ["tag", "-a", "-m", "v", "v1"]);
      await gitOk(sb, ["reset", "-q", "--hard", "HEAD~"]);
      const decision = await stop();
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /refs\/tags\/v1/);
    } finally {
      await sb.cleanup();
    }
  });
  await t.step("a rewind or a new name for an old commit adds nothing: no model call", async () => {
    const { sb, stop } = await refTurn("sess-rewind");
    try {
      await gitOk(sb, ["branch", "old", "HEAD~"]);
      await gitOk(sb, ["tag", "old-tag", "HEAD~"]);
      await gitOk(sb, ["branch", "-f", "main-copy", "HEAD"]);
      assert.equal(await stop(), null);
      assert.equal(await providerCalls(sb), 0);
    } finally {
      await sb.cleanup();
    }
  });
  await t.step(
    "another worktree's commits are its session's; a worktree the turn adds is not",
    async () => {
      const sb = await makeGateSandbox({ remote: false });
      const root = sb.repo.root;
      try {
        const other = join(sb.dir, "other-wt");
        await gitOk(sb, ["worktree", "add", "-q", "-b", "other", other]);
        // another session, whose turn in its own worktree started first, commits there: its Stop
        // reviews that, not this turn's
        const otherSession = { sessionId: "sess-other-wt", cwd: other };
        await runHook(sb, "claude-prompt", promptPayload(otherSession), { cwd: other });
        const session = { sessionId: "sess-worktrees", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await commitToken(sb, "OTHER_SESSION", other);
        const stop = () =>
          runHook(sb, "claude-stop", stopPayload(session), {
            env: scenario(join(sb.dir, "blocking.json")),
          });
        await blockingScenario(sb);
        const quiet = await stop();
        assert.deepEqual([quiet.code, quiet.stdout], [0, ""], quiet.stderr);
        assert.equal(await providerCalls(sb), 0);
        // this turn adds a worktree and commits there: reviewed
        const added = join(sb.dir, "added-wt");
        await gitOk(sb, ["worktree", "add", "-q", "-b", "added", added, "main"]);
        await commitToken(sb, "ADDED_WORKTREE", added);
        const s = await stop();
        assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
        assert.match(await lastReviewed(sb), /ADDED_WORKTREE/);
        assert.doesNotMatch(await lastReviewed(sb), /OTHER_SESSION/);
        // the turn drops its commit; then a worktree an earlier turn added stays the session's own
        await gitOk(sb, ["reset", "-q", "--hard", "main"], added);
        const cleared = await stop();
        assert.deepEqual([cleared.code, cleared.stdout], [0, ""], cleared.stderr);
        await runHook(sb, "claude-prompt", promptPayload(session));
        await commitToken(sb, "LATER_TURN", added);
        const later = await stop();
        assert.equal(stopDecision(later.stdout)?.decision, "block", later.stdout + later.stderr);
        assert.match(await lastReviewed(sb), /LATER_TURN/);
      } finally {
        await sb.cleanup();
      }
    },
  );
  await t.step(
    "a commit put onto a branch another worktree has checked out, where no session runs, is reviewed",
    async () => {
      const sb = await makeGateSandbox({ remote: false });
      const root = sb.repo.root;
      try {
        const other = join(sb.dir, "idle-wt");
        await gitOk(sb, ["worktree", "add", "-q", "-b", "feat", other]);
        const session = { sessionId: "sess-idle-wt", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await commitToken(sb, "ONTO_IDLE_WORKTREE", other);
        const s = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario(await blockingScenario(sb)),
        });
        assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
        assert.match(String(stopDecision(s.stdout)?.reason), /refs\/heads\/feat/);
        assert.match(await lastReviewed(sb), /ONTO_IDLE_WORKTREE/);
      } finally {
        await sb.cleanup();
      }
    },
  );
  await t.step(
    "a worktree's gitdir file rewritten to name this worktree does not make its branch another session's",
    async () => {
      const sb = await makeGateSandbox({ remote: false });
      const root = sb.repo.root;
      try {
        const other = join(sb.dir, "redirected-wt");
        await gitOk(sb, ["worktree", "add", "-q", "-b", "feat", other]);
        const session = { sessionId: "sess-gitdir", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await commitToken(sb, "REDIRECTED", other);
        await Deno.writeTextFile(
          join(root, ".git", "worktrees", "redirected-wt", "gitdir"),
          `${join(root, ".git")}\n`,
        );
        const s = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario(await blockingScenario(sb)),
        });
        assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
        assert.match(await lastReviewed(sb), /REDIRECTED/);
      } finally {
        await sb.cleanup();
      }
    },
  );
  await t.step("committing part of the turn's work costs no second review", async () => {
    const { sb, root, stop } = await refTurn("sess-partial-commit");
    try {
      await addTokenLine(root, "COMMITTED_PART");
      await gitOk(sb, ["commit", "-q", "-am", "part"]);
      await Deno.writeTextFile(join(root, "src", "w.ts"), "export const w = 1;\n");
      assert.equal(await stop(scenario("valid")), null);
      assert.equal(await providerCalls(sb), 1, "the worktree's review saw every committed file");
    } finally {
      await sb.cleanup();
    }
  });
  await t.step("a clean side commit is approved along with the worktree", async () => {
    const { sb, root, stop } = await refTurn("sess-side-ok");
    try {
      await addTokenLine(root, "SIDE_OK");
      await gitOk(sb, ["commit", "-q", "-am", "fine"]);
      await gitOk(sb, ["branch", "side"]);
      await gitOk(sb, ["reset", "-q", "--hard", "HEAD~"]);
      await Deno.writeTextFile(join(root, "src", "w.ts"), "export const w = 1;\n");
      assert.equal(await stop(scenario("valid")), null);
      assert.equal(await providerCalls(sb), 2, "the worktree and the side branch");
    } finally {
      await sb.cleanup();
    }
  });
});

/** A blocking scenario whose one finding points at line 1 of `file`; returns the fake's env. */
async function blockingAt(sb: Parameters<typeof blockingScenario>[0], file: string) {
  const path = join(sb.dir, `blocking-${file.replaceAll("/", "-")}.json`);
  const finding = { ...BLOCKING_ANSWER.findings[0], file };
  const answer = { ...BLOCKING_ANSWER, findings: [finding] };
  await Deno.writeTextFile(path, JSON.stringify({ steps: [{ kind: "valid", answer }] }));
  return scenario(path);
}

/** How many times the blocking finding's title is listed in a stop's reason. */
function timesListed(decision: Record<string, unknown> | null): number {
  return String(decision?.reason).split(BLOCKING_ANSWER.findings[0].title).length - 1;
}

/** The user's uncommitted edit of {@linkcode APP}, there before the turn starts. */
const USER_EDIT = APP_TEXT.replace("export const c = 3;", 'export const c = "USER_EDIT";');

Deno.test("commits a turn makes beside the user's uncommitted edits", async (t) => {
  /** A turn started with the user's edit of APP uncommitted. */
  const userEditTurn = (sessionId: string) =>
    refTurn(sessionId, false, (root) => Deno.writeTextFile(join(root, APP), USER_EDIT));
  await t.step(
    "committing the turn's new file costs one review, its finding listed once",
    async () => {
      const { sb, root, stop } = await userEditTurn("sess-user-edit");
      try {
        await Deno.writeTextFile(join(root, "src", "neg.ts"), "export const neg = (x) => -x;\n");
        await gitOk(sb, ["add", "src/neg.ts"]);
        await gitOk(sb, ["commit", "-q", "-m", "neg"]);
        const decision = await stop(await blockingAt(sb, "src/neg.ts"));
        assert.equal(decision?.decision, "block", JSON.stringify(decision));
        assert.equal(await providerCalls(sb), 1, "the old HEAD holds the committed APP");
        assert.equal(timesListed(decision), 1, String(decision?.reason));
        assert.doesNotMatch(String(decision?.reason), /commits on/);
      } finally {
        await sb.cleanup();
      }
    },
  );
  await t.step("a reviewed commit's diff holds only what no tree had", async () => {
    const { sb, root, stop } = await userEditTurn("sess-user-edit-gone");
    try {
      await Deno.writeTextFile(join(root, "src", "bug.ts"), 'export const bug = "BUG_LINE";\n');
      await gitOk(sb, ["add", "src/bug.ts"]);
      await gitOk(sb, ["commit", "-q", "-m", "bug"]);
      await Deno.remove(join(root, "src", "bug.ts"));
      const decision = await stop(await blockingAt(sb, "src/bug.ts"));
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /refs\/heads\/main/);
      assert.equal(await providerCalls(sb), 1);
      const prompt = (await readFakeLog(sb)).at(-1)?.stdin ?? "";
      assert.match(prompt, /BUG_LINE/);
      assert.doesNotMatch(prompt, /USER_EDIT/, "the user's edit is no deletion of the agent's");
      assert.doesNotMatch(prompt, /src\/app\.ts/);
    } finally {
      await sb.cleanup();
    }
  });
  await t.step("a finding both the worktree and a commit hold is listed once", async () => {
    const { sb, root, stop } = await refTurn("sess-same-finding");
    try {
      await addTokenLine(root, "TWICE");
      await gitOk(sb, ["commit", "-q", "-am", "first"]);
      await Deno.writeTextFile(
        join(root, APP),
        `${await Deno.readTextFile(join(root, APP))}// more\n`,
      );
      const decision = await stop();
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.equal(await providerCalls(sb), 2, "the commit's APP is a version of its own");
      assert.equal(timesListed(decision), 1, String(decision?.reason));
    } finally {
      await sb.cleanup();
    }
  });
});

Deno.test("a Stop whose session state is gone follows on_error", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    const sessions = join(root, ".git", "review-gate", "sessions");
    await t.step(
      "on_error block: the deleted session file blocks, then the next stop reviews",
      async () => {
        await writeRepoConfig(sb, { gates: { claude_stop: { on_error: "block" } } });
        await gitOk(sb, ["add", ".review-gate.json"]);
        await gitOk(sb, ["commit", "-q", "-m", "on_error block"]);
        const session = { sessionId: "sess-deleted", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await addTokenLine(root, "BEFORE_DELETE");
        await Deno.remove(join(sessions, "sess-deleted.json"));
        const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, "block", s.stdout);
        assert.match(String(decision?.reason), /could not review/);
        assert.match(String(decision?.reason), /state was deleted/);
        assert.match(String(decision?.reason), /on_error: block/);
        assert.equal(await providerCalls(sb), 0);
        await addTokenLine(root, "AFTER_DELETE");
        const next = await runHook(
          sb,
          "claude-stop",
          stopPayload({ ...session, stopHookActive: true }),
          {
            env: blocking,
          },
        );
        assert.equal(stopDecision(next.stdout)?.decision, "block", next.stdout);
        assert.match(await lastReviewed(sb), /AFTER_DELETE/);
      },
    );
    await t.step("on_error block: the whole state dir deleted blocks too (capped)", async () => {
      const session = { sessionId: "sess-dir", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await Deno.remove(join(root, ".git", "review-gate"), { recursive: true });
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
    });
    await t.step(
      "on_error block: state deleted before every stop is no loop (the host's stop_hook_active)",
      async () => {
        const session = { sessionId: "sess-loop", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await Deno.remove(join(sessions, "sess-loop.json"));
        const first = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        assert.equal(stopDecision(first.stdout)?.decision, "block", first.stdout);
        await Deno.remove(join(sessions, "sess-loop.json"));
        const again = await runHook(
          sb,
          "claude-stop",
          stopPayload({ ...session, stopHookActive: true }),
          { env: blocking },
        );
        const decision = stopDecision(again.stdout);
        assert.equal(decision?.decision, undefined, again.stdout);
        assert.match(String(decision?.systemMessage), /NOT reviewed/);
      },
    );
    await t.step("default on_error: allowed, loudly NOT reviewed", async () => {
      await writeRepoConfig(sb, null);
      await gitOk(sb, ["rm", "-q", ".review-gate.json"]);
      await gitOk(sb, ["commit", "-q", "-m", "default config"]);
      const session = { sessionId: "sess-deleted-allow", cwd: root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await Deno.remove(join(sessions, "sess-deleted-allow.json"));
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
      const decision = stopDecision(s.stdout);
      assert.equal(decision?.decision, undefined);
      assert.match(String(decision?.systemMessage), /NOT reviewed: its start was not seen/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a write after an answered Stop that switches the gate off does not silence the next Stop", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    await t.step(
      "a background write of enabled: false is the next turn's gate-control edit",
      async () => {
        const session = { sessionId: "sess-off-late", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await Deno.writeTextFile(join(root, "src", "ok.ts"), "export const ok = 1;\n");
        const first = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario("valid"),
        });
        assert.deepEqual([first.code, first.stdout], [0, ""], first.stderr);
        await writeRepoConfig(sb, { gates: { claude_stop: { enabled: false } } }); // lands late
        await runHook(sb, "claude-prompt", promptPayload(session));
        await addTokenLine(root, "WHILE_OFF");
        const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, "block", s.stdout + s.stderr);
        assert.match(String(decision?.reason), /\.review-gate\.json/);
        await writeRepoConfig(sb, null);
        await gitOk(sb, ["checkout", "--", APP]);
      },
    );
    await t.step(
      "the user's own `gate disable` between turns switches it off once a prompt names it",
      async () => {
        // review-gate cannot tell the user's command from the agent's background write above: the
        // user's next prompt says so
        const session = { sessionId: "sess-off-user", cwd: root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        const first = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        assert.deepEqual([first.code, first.stdout], [0, ""], first.stderr);
        const off = await runCli(sb, ["gate", "disable", "claude-stop"]);
        assert.equal(off.code, 0, off.stderr);
        const prompt = "I disable the gate for now; add a line.";
        await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt }));
        await addTokenLine(root, "USER_OFF");
        const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
      },
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a turn's start that finds the session's state gone says the earlier work was NOT reviewed", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const file = join(root, ".git", "review-gate", "sessions", "sess-lost.json");
    const session = { sessionId: "sess-lost", cwd: root };
    await t.step("no Stop ran, the state was deleted: the next stop names it", async () => {
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(root, "BEFORE_LOSS"); // the turn's Stop never runs
      await Deno.remove(file);
      await runHook(sb, "claude-prompt", promptPayload(session));
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      assert.equal(s.code, 0, s.stderr);
      assert.match(
        String(stopDecision(s.stdout)?.systemMessage),
        /NOT reviewed: what this session changed before this turn's start \(its state was deleted/,
      );
    });
    await t.step("a stop that reviews the next turn answers for it: said once", async () => {
      await Deno.writeTextFile(join(root, "src", "more.ts"), "export const more = 1;\n");
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario("valid") });
      assert.match(String(stopDecision(s.stdout)?.systemMessage), /only PARTIALLY reviewed/);
      await runHook(sb, "claude-prompt", promptPayload(session));
      const next = await runHook(sb, "claude-stop", stopPayload(session), {
        env: scenario("valid"),
      });
      assert.deepEqual([next.code, next.stdout], [0, ""], next.stderr);
    });
  } finally {
    await sb.cleanup();
  }
});
