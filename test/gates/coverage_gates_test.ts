/**
 * End to end: the gates never wave through a change the model did not see. A real `git push`
 * through the installed pre-push hook reviews a type change (it used to die in collection and let
 * the push through); a change only part of which (or none of which) reached the model is let
 * through with a loud note naming what was not reviewed, or stopped with `on_partial: "block"`;
 * the Stop gate says the same in a `systemMessage` or a block.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BLOCKING_ANSWER,
  blockingScenario,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  readFakeLog,
  remoteRef,
  runCli,
  runGit,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";

/** 3,000 lines, of which `edit` marks every other block of 100 as changed. */
function bigFile(edit: boolean): string {
  return Array.from(
    { length: 6000 },
    (_, i) => `const l${i} = ${i};${edit && Math.floor(i / 100) % 2 === 0 ? " // edited" : ""}\n`,
  ).join("");
}

/** One prompt of 16 KiB: the 3,000-line edit below does not fit. */
const SMALL_BUDGETS = { budgets: { file_bytes: 8192, total_bytes: 16384 }, max_calls: 1 };

Deno.test("pre-push reviews a pushed type change (symlink → file) and blocks on its findings", async () => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    await Deno.symlink("app.ts", join(sb.repo.root, "src", "link.ts"));
    await gitOk(sb, ["add", "-A"]);
    await gitOk(sb, ["commit", "-qm", "link"]);
    const landed = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(landed.code, 0, landed.stderr);
    await Deno.remove(join(sb.repo.root, "src", "link.ts"));
    await Deno.writeTextFile(
      join(sb.repo.root, "src", "link.ts"),
      "export const TYPE_CHANGED = 1;\n",
    );
    await gitOk(sb, ["commit", "-qam", "type change"]);
    const before = await remoteRef(sb, "main");
    const answer = {
      ...BLOCKING_ANSWER,
      findings: [{ ...BLOCKING_ANSWER.findings[0], file: "src/link.ts" }],
    };
    const path = join(sb.dir, "typechange.json");
    await Deno.writeTextFile(path, JSON.stringify({ steps: [{ kind: "valid", answer }] }));
    const blocked = await runGit(sb, ["push", "origin", "main"], { env: scenario(path) });
    assert.notEqual(blocked.code, 0, blocked.stderr);
    assert.match(blocked.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
    assert.doesNotMatch(blocked.stderr, /internal error|NOT reviewed/);
    assert.equal(await remoteRef(sb, "main"), before, "nothing landed");
    const log = await readFakeLog(sb);
    assert.match(log.at(-1)?.stdin ?? "", /\+export const TYPE_CHANGED = 1;/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push follows on_partial for a push only part of which, or none of which, was reviewed", async (t) => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    await writeRepoConfig(sb, SMALL_BUDGETS);
    await Deno.writeTextFile(join(sb.repo.root, "big.ts"), bigFile(false));
    await gitOk(sb, ["add", "-A"]);
    await gitOk(sb, ["commit", "-qm", "big file"]);
    const base = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(base.code, 0, base.stderr);

    await t.step(
      "a binary-only push is NOT reviewed, says so, and goes ahead by default",
      async () => {
        const calls = await providerCalls(sb);
        await Deno.writeFile(join(sb.repo.root, "logo.png"), new Uint8Array([0x89, 0, 1, 2]));
        await gitOk(sb, ["add", "-A"]);
        await gitOk(sb, ["commit", "-qm", "logo"]);
        const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stderr,
          /WARNING: refs\/heads\/main \(1 commit\) was NOT reviewed: nothing in this change could be shown to the model/,
        );
        assert.match(r.stderr, /"logo\.png" \(binary\)/);
        assert.match(r.stderr, /The push goes ahead unreviewed/);
        assert.equal(await providerCalls(sb), calls, "no model call");
      },
    );

    await t.step("with on_partial: block it is stopped", async () => {
      await writeRepoConfig(sb, { ...SMALL_BUDGETS, gates: { pre_push: { on_partial: "block" } } });
      await Deno.writeFile(join(sb.repo.root, "logo.png"), new Uint8Array([0x89, 0, 1, 3]));
      await gitOk(sb, ["commit", "-qam", "logo 2"]);
      const before = await remoteRef(sb, "main");
      const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /blocked because gates\.pre_push\.on_partial is "block"/);
      assert.equal(await remoteRef(sb, "main"), before);
    });

    await t.step(
      "a push over the budget is partly reviewed: blocked by on_partial, else a loud note",
      async () => {
        await Deno.writeTextFile(join(sb.repo.root, "big.ts"), bigFile(true));
        await gitOk(sb, ["commit", "-qam", "edit big"]);
        const blocked = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
        assert.notEqual(blocked.code, 0);
        assert.match(
          blocked.stderr,
          /was only PARTIALLY reviewed by claude [^:\n]+: reviewed [\d,]+ of 6,0\d\d changed lines/,
        );
        assert.match(blocked.stderr, /big\.ts: lines \d+-\d+/);
        assert.match(blocked.stderr, /blocked because gates\.pre_push\.on_partial is "block"/);
        await writeRepoConfig(sb, SMALL_BUDGETS);
        const calls = await providerCalls(sb);
        const allowed = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
        assert.equal(allowed.code, 0, allowed.stderr);
        assert.match(allowed.stderr, /was only PARTIALLY reviewed/);
        assert.match(allowed.stderr, /The push goes ahead; the parts above were not reviewed/);
        assert.equal(await providerCalls(sb), calls, "the cached verdict keeps its coverage");
      },
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate says a turn was NOT or only PARTIALLY reviewed, and blocks with on_partial", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await writeRepoConfig(sb, SMALL_BUDGETS);
    await Deno.writeTextFile(join(root, "big.ts"), bigFile(false));
    await gitOk(sb, ["add", "-A"]);
    await gitOk(sb, ["commit", "-qm", "base"]);
    const session = { sessionId: "sess-coverage", cwd: root };

    await t.step(
      "a turn that only adds a binary file is NOT reviewed, never silently allowed",
      async () => {
        await runHook(sb, "claude-prompt", promptPayload(session));
        await Deno.writeFile(join(root, "data.bin"), new Uint8Array([0, 1, 2, 3]));
        const s = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario("valid"),
        });
        assert.equal(s.code, 0, s.stderr);
        const decision = stopDecision(s.stdout);
        assert.match(
          String(decision?.systemMessage),
          /this turn was NOT reviewed: nothing in this change could be shown/,
        );
        assert.equal(await providerCalls(sb), 0);
      },
    );

    await t.step(
      "a turn over the budget is allowed with a PARTIALLY reviewed message",
      async () => {
        // The binary turn was not answered, so it belongs to this one; the user removes the file.
        await Deno.remove(join(root, "data.bin"));
        await runHook(sb, "claude-prompt", promptPayload(session));
        await Deno.writeTextFile(join(root, "big.ts"), bigFile(true));
        const s = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario("valid"),
        });
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, undefined);
        assert.match(
          String(decision?.systemMessage),
          /this turn was only PARTIALLY reviewed: reviewed [\d,]+ of 6,000 changed lines[^;]*; not reviewed: big\.ts: lines/,
        );
        assert.equal(await providerCalls(sb), 1);
      },
    );

    await t.step(
      "with on_partial: block a turn over the budget blocks, and the block cap still holds",
      async () => {
        await writeRepoConfig(sb, {
          ...SMALL_BUDGETS,
          gates: { claude_stop: { on_partial: "block", max_blocks: 1 } },
        });
        // The user changes the config between turns: like any edit since the last answered stop
        // it belongs to the next turn, whose prompt names it (lib/gates/turn/guard.ts); that turn
        // is again over the budget.
        const prompt = "I set on_partial and max_blocks in .review-gate.json; go on.";
        await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt }));
        await Deno.writeTextFile(join(root, "big2.ts"), bigFile(true));
        const s = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario("valid"),
        });
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, "block", s.stdout);
        assert.match(String(decision?.reason), /on_partial: block/);
        const again = await runHook(
          sb,
          "claude-stop",
          stopPayload({ ...session, stopHookActive: true }),
          {
            env: scenario("valid"),
          },
        );
        assert.match(
          String(stopDecision(again.stdout)?.systemMessage),
          /stopped blocking after 1 block in a row/,
        );
      },
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate is never charged for another worktree's commits", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const session = { sessionId: "sess-main", cwd: root };
    await gitOk(sb, ["worktree", "add", "-q", ".claude/worktrees/agent-2", "-b", "agent-2"]);
    const other = join(root, ".claude", "worktrees", "agent-2");
    // another session, whose turn started there first, commits in its own worktree while this one
    // edits nothing (a worktree no session runs in — a subagent's — is this turn's: stop_boundary_test)
    const there = { sessionId: "sess-agent-2", cwd: other };
    const o = await runHook(sb, "claude-prompt", promptPayload(there), { cwd: other });
    assert.equal(o.code, 0, o.stderr);
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.equal(p.code, 0, p.stderr);
    await Deno.writeTextFile(join(other, "other.ts"), "export const other = 1;\n");
    await gitOk(sb, ["add", "other.ts"], other);
    await gitOk(sb, ["commit", "-qm", "other session"], other);
    const s = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(await blockingScenario(sb)),
    });
    assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
    assert.equal(await providerCalls(sb), 0, "nothing of this session changed: no model call");
  } finally {
    await sb.cleanup();
  }
});
