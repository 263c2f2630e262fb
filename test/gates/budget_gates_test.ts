/**
 * End to end: `budget.usd_per_day`. Once this repository's runs spent it today, the gates make no
 * model call and follow `on_error`, saying why; `review` by hand is not limited; every run's line in
 * `records.jsonl` names the gate that asked. Covers the pre-push gate, both Stop gates (allow and
 * block) and `review-gate ci`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  codexPromptPayload,
  codexStopPayload,
  commitToken,
  forgetTurns,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runCli,
  runGit,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
  writeUserConfig,
} from "./_gates.ts";

Deno.test("the daily budget stops the gates' model calls and they follow on_error", async (t) => {
  const sb = await makeGateSandbox();
  const valid = scenario("valid");
  try {
    // the fake charges 0.00044 USD per call: one call spends this budget. A push takes it from the
    // user's config (a worktree .review-gate.json may only make a push stricter; a budget is not)
    await writeUserConfig(sb, { budget: { usd_per_day: 0.0004 } });
    await writeRepoConfig(sb, { budget: { usd_per_day: 0.0004 } });
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    await t.step("under the budget the push is reviewed", async () => {
      await commitToken(sb, "ONE");
      const r = await runGit(sb, ["push", "origin", "main"], { env: valid });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /approved/);
      assert.equal(await providerCalls(sb), 1);
    });
    await t.step("past it the push goes ahead NOT reviewed, with no model call", async () => {
      await commitToken(sb, "TWO");
      const r = await runGit(sb, ["push", "origin", "main"], { env: valid });
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /NOT reviewed: over-budget: the daily budget is spent: 0\.0004 of 0\.0004 USD/,
      );
      assert.equal(await providerCalls(sb), 1);
    });
    await t.step("with on_error block the push is stopped", async () => {
      await writeRepoConfig(sb, {
        budget: { usd_per_day: 0.0004 },
        gates: { pre_push: { on_error: "block" } },
      });
      await commitToken(sb, "THREE");
      const r = await runGit(sb, ["push", "origin", "main"], { env: valid });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /over-budget/);
      assert.equal(await providerCalls(sb), 1);
    });
    await t.step("the Stop gate allows with a message saying why", async () => {
      const session = { sessionId: "budget", cwd: sb.repo.root };
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(sb.repo.root, "TURN");
      const s = await runHook(sb, "claude-stop", stopPayload(session), { env: valid });
      assert.match(String(stopDecision(s.stdout)?.systemMessage), /NOT reviewed: over-budget/);
      assert.equal(await providerCalls(sb), 1);
    });
    await t.step("review by hand is not limited", async () => {
      const r = await runCli(sb, ["review"], { scenario: "valid" });
      assert.equal(r.code, 0, r.stdout);
      assert.equal(await providerCalls(sb), 2);
    });
    await t.step("records.jsonl names the gate of every run", async () => {
      const path = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
      const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(lines.map((l) => [l.gate ?? "by hand", l.status]), [
        ["pre-push", "approved"],
        ["pre-push", "over-budget"],
        ["pre-push", "over-budget"],
        ["claude-stop", "over-budget"],
        ["by hand", "approved"],
      ]);
      const stats = JSON.parse((await runCli(sb, ["stats", "--json", "--by", "gate"])).stdout);
      assert.equal(stats.total.notReviewed, 3);
      // the bundled fake's cost spends the budget (so a budget can be tried with it), and stats
      // says it is made up rather than adding it to the money spent
      assert.equal(lines.reduce((n, l) => n + (l.costUsd ?? 0), 0), 0.00088);
      assert.ok(lines.every((l) => l.fake === true));
      assert.equal(stats.total.fakeRuns, lines.length);
      assert.equal(stats.total.costUsd, 0);
    });
    await t.step(
      "with on_error block the Stop blocks, saying why, with no model call",
      async () => {
        await writeRepoConfig(sb, {
          budget: { usd_per_day: 0.0004 },
          gates: { claude_stop: { on_error: "block" } },
        });
        const session = { sessionId: "budget-block", cwd: sb.repo.root };
        await runHook(sb, "claude-prompt", promptPayload(session));
        await addTokenLine(sb.repo.root, "TURN_BLOCK");
        const s = await runHook(sb, "claude-stop", stopPayload(session), { env: valid });
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, "block", s.stdout + s.stderr);
        assert.match(String(decision?.reason), /over-budget: the daily budget is spent/);
        assert.equal(await providerCalls(sb), 2);
      },
    );
    await t.step("the Codex Stop gate allows, saying why", async () => {
      await forgetTurns(sb);
      await writeRepoConfig(sb, { budget: { usd_per_day: 0.0004 } });
      const session = { sessionId: "019a-budget", turnId: "turn-1", cwd: sb.repo.root };
      await runHook(sb, "codex-prompt", codexPromptPayload(session));
      await addTokenLine(sb.repo.root, "CODEX_TURN");
      const s = await runHook(sb, "codex-stop", codexStopPayload(session), { env: valid });
      const decision = stopDecision(s.stdout);
      assert.equal(decision?.decision, undefined, s.stdout);
      assert.match(String(decision?.systemMessage), /NOT reviewed: over-budget/);
      assert.equal(await providerCalls(sb), 2);
    });
    await t.step("ci is held to the base's budget and follows --on-error", async () => {
      await gitOk(sb, ["add", ".review-gate.json"]);
      await gitOk(sb, ["commit", "-q", "-m", "budget"]);
      await gitOk(sb, ["checkout", "-q", "--", "."]);
      await commitToken(sb, "CI");
      const blocked = await runCli(sb, ["ci", "--base", "HEAD~1"], { env: valid });
      assert.equal(blocked.code, 3, blocked.stdout + blocked.stderr);
      assert.match(blocked.stdout, /NOT reviewed — over-budget/);
      assert.match(blocked.stdout, /the daily budget is spent: 0\.0009 of 0\.0004 USD today/);
      const allowed = await runCli(sb, ["ci", "--base", "HEAD~1", "--on-error", "allow"], {
        env: valid,
      });
      assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
      assert.match(allowed.stdout, /NOT reviewed — over-budget/);
      assert.equal(await providerCalls(sb), 2);
    });
  } finally {
    await sb.cleanup();
  }
});
