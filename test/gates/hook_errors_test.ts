/**
 * End to end: the hook entry points never block on an infrastructure error and never print a stack
 * trace. The CLI is spawned as git and Claude Code spawn it (`hook pre-push <remote> <url>` with
 * git's ref lines on stdin; `hook claude-stop` with a Stop payload) with an invalid
 * `.review-gate.json`, a broken state dir (`.git/review-gate/runs` is a file), or outside a
 * repository.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  commitToken,
  gitOk,
  makeGateSandbox,
  runCli,
  runGit,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
  writeUserConfig,
} from "./_gates.ts";

const STACK = /^\s+at /m;
const NOT_REVIEWED = /review-gate: WARNING: the push was NOT reviewed: /;

Deno.test("hook pre-push allows with a loud warning on infrastructure errors, blocks only with on_error block", async (t) => {
  const sb = await makeGateSandbox();
  try {
    const base = await gitOk(sb, ["rev-parse", "HEAD"]);
    const head = await commitToken(sb, "ERRORS");
    const stdin = `refs/heads/main ${head} refs/heads/main ${base}\n`;
    const push = (cwd?: string) =>
      runCli(sb, ["hook", "pre-push", "origin", sb.remote], { stdin, cwd, env: scenario("valid") });

    // a push reads the config the remote has: an invalid worktree file cannot stop the review
    await t.step(
      "an invalid worktree .review-gate.json is ignored, named, and the push reviewed",
      async () => {
        await Deno.writeTextFile(join(sb.repo.root, ".review-gate.json"), '{"fail_on": 5}');
        const r = await push();
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, NOT_REVIEWED);
        assert.match(
          r.stderr,
          /not applied to it: \.review-gate\.json in the worktree \(ignored, invalid: [^)]*fail_on/,
        );
        assert.match(r.stderr, /refs\/heads\/main \(1 commit\): approved/);
        assert.doesNotMatch(r.stderr, STACK);
      },
    );

    await t.step("a real git push with the installed hook goes through", async () => {
      const installed = await runCli(sb, ["install", "--git"]);
      assert.equal(installed.code, 0, installed.stderr);
      const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /refs\/heads\/main \(1 commit\): approved/);
      assert.doesNotMatch(r.stderr, STACK);
      await writeRepoConfig(sb, null);
      await gitOk(sb, ["push", "-q", "--no-verify", "origin", `+${base}:refs/heads/main`]);
    });

    const runs = join(sb.repo.root, ".git", "review-gate", "runs");
    await t.step("a state dir that cannot be created exits 0 with the warning", async () => {
      await Deno.remove(join(sb.repo.root, ".git", "review-gate"), { recursive: true })
        .catch(() => {});
      await Deno.mkdir(join(sb.repo.root, ".git", "review-gate"), { recursive: true });
      await Deno.writeTextFile(runs, "not a directory\n");
      const r = await push();
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, NOT_REVIEWED);
      assert.doesNotMatch(r.stderr, STACK);
    });

    await t.step("the same error blocks with the skip hint when on_error is block", async () => {
      await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } } });
      const r = await push();
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, NOT_REVIEWED);
      assert.match(r.stderr, /git push --no-verify/);
      assert.match(r.stderr, /REVIEW_GATE=0/);
      assert.doesNotMatch(r.stderr, STACK);
    });

    await t.step("an explicit on_error block holds even when another key is invalid", async () => {
      await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } }, fail_on: "bogus" });
      const r = await push();
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, NOT_REVIEWED);
      await Deno.remove(runs).catch(() => {});
      await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } } });
      const env = await runCli(sb, ["hook", "pre-push", "origin", sb.remote], {
        stdin,
        env: { ...scenario("valid"), REVIEW_GATE_TIMEOUT_SECONDS: "abc" },
      });
      assert.equal(env.code, 1, env.stderr);
      assert.match(env.stderr, /REVIEW_GATE_TIMEOUT_SECONDS/);
      await writeRepoConfig(sb, null);
    });

    await t.step("outside a repository exits 0 with the warning", async () => {
      const r = await push(sb.dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, NOT_REVIEWED);
      assert.doesNotMatch(r.stderr, STACK);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("hook claude-stop and claude-prompt allow with a NOT reviewed systemMessage on an invalid config", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await Deno.writeTextFile(join(sb.repo.root, ".review-gate.json"), "{ not json");
    const session = { sessionId: "sess-errors", cwd: sb.repo.root };
    const stop = await runHook(sb, "claude-stop", stopPayload(session));
    assert.equal(stop.code, 0, stop.stderr);
    const message = String(stopDecision(stop.stdout)?.systemMessage ?? "");
    assert.match(message, /this turn was NOT reviewed: the Stop gate failed/);
    assert.match(message, /\.review-gate\.json/);
    assert.doesNotMatch(stop.stderr, STACK);
    const prompt = await runCli(sb, ["hook", "claude-prompt"], { stdin: "{}" });
    assert.deepEqual([prompt.code, prompt.stdout], [0, ""], prompt.stderr);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("hook pre-push: the user's on_error block holds when the gate fails, whatever the worktree's config says", async () => {
  const sb = await makeGateSandbox();
  try {
    const base = await gitOk(sb, ["rev-parse", "HEAD"]);
    const head = await commitToken(sb, "USER_BLOCK");
    const stdin = `refs/heads/main ${head} refs/heads/main ${base}\n`;
    await writeUserConfig(sb, { gates: { pre_push: { on_error: "block" } } });
    await writeRepoConfig(sb, { gates: { pre_push: { on_error: "allow" } } });
    // a state dir that cannot be created: the gate fails
    await Deno.mkdir(join(sb.repo.root, ".git", "review-gate"), { recursive: true });
    await Deno.writeTextFile(join(sb.repo.root, ".git", "review-gate", "runs"), "not a dir\n");
    const push = () =>
      runCli(sb, ["hook", "pre-push", "origin", sb.remote], { stdin, env: scenario("valid") });
    const r = await push();
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, NOT_REVIEWED);
    assert.match(r.stderr, /gates\.pre_push\.on_error is "block"/);
    // and when another key of the worktree's file is invalid too
    await writeRepoConfig(sb, { gates: { pre_push: { on_error: "allow" } }, fail_on: "bogus" });
    const lenient = await push();
    assert.equal(lenient.code, 1, lenient.stderr);
  } finally {
    await sb.cleanup();
  }
});
