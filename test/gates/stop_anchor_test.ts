/**
 * End to end: the Stop gate reviews the repository the session's turn started in, wherever the
 * agent's cwd has moved — a subdirectory, a submodule, a nested repository the checkout does not
 * track, outside every repository, a directory that no longer exists; a turn started in a
 * subdirectory is anchored on its root, and `CLAUDE_PROJECT_DIR` anchors the turn's start even when
 * the prompt's cwd is elsewhere. When the anchor is gone, or the turn's start was never seen (from
 * the root or from a directory that does not exist), the stop says the turn was NOT reviewed and
 * why; when the cwd is in another repository, the answer says its changes are not reviewed here.
 * Payloads are piped as Claude Code sends them (docs/providers.md "Claude Code hooks").
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addSubmodule,
  addTokenLine,
  blockingScenario,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

Deno.test("claude Stop gate is anchored where the turn started, whatever the agent's cwd", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    // A submodule (its own repository) inside the checkout.
    await addSubmodule(sb, "vendor/lib");
    const submodule = join(root, "vendor", "lib");
    // A nested repository the checkout does not track (a tool's clone, a scratch repo).
    const nested = join(root, "scratch", "nested");
    await gitOk(sb, ["init", "-q", "-b", "main", nested], sb.dir);
    await Deno.writeTextFile(join(nested, "n.txt"), "n\n");
    await gitOk(sb, ["add", "n.txt"], nested);
    await gitOk(sb, ["commit", "-q", "-m", "n"], nested);

    const cases: Record<string, string> = {
      "a subdirectory": join(root, "src"),
      "a submodule": submodule,
      "a nested repository the checkout does not track": nested,
      "outside every repository": join(sb.dir, "home"),
      "a directory that no longer exists": join(sb.dir, "gone", "deeper"),
    };
    let n = 0;
    for (const [name, cwd] of Object.entries(cases)) {
      await t.step(`stop from ${name}: the turn's edits are reviewed and block`, async () => {
        const session = { sessionId: `sess-anchor-${n++}`, cwd: root };
        const p = await runHook(sb, "claude-prompt", promptPayload(session));
        assert.deepEqual([p.code, p.stdout, p.stderr], [0, "", ""]);
        await addTokenLine(root, `ANCHOR_${n}`);
        const calls = await providerCalls(sb);
        const s = await runHook(sb, "claude-stop", stopPayload({ ...session, cwd }), {
          env: blocking,
        });
        assert.equal(s.code, 0, s.stderr);
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, "block", s.stdout + s.stderr);
        assert.equal(await providerCalls(sb), calls + 1);
        const note = (dir: string) =>
          new RegExp(
            `the agent is now in another repository \\(".*${dir}"\\): changes there are NOT reviewed`,
          );
        if (cwd === submodule) assert.match(String(decision?.reason), note("vendor/lib"));
        else if (cwd === nested) assert.match(String(decision?.reason), note("scratch/nested"));
        else assert.doesNotMatch(String(decision?.reason), /another repository/);
      });
    }

    await t.step(
      "a turn started in a subdirectory is anchored on its repository's root",
      async () => {
        const session = { sessionId: "sess-prompt-subdir", cwd: join(root, "src") };
        const p = await runHook(sb, "claude-prompt", promptPayload(session));
        assert.deepEqual([p.code, p.stdout, p.stderr], [0, "", ""]);
        await addTokenLine(root, "PROMPT_SUBDIR");
        const s = await runHook(sb, "claude-stop", stopPayload({ ...session, cwd: sb.dir }), {
          env: blocking,
        });
        assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
      },
    );

    await t.step(
      "a stop from a missing directory whose start was never seen is NOT reviewed, and says why",
      async () => {
        const calls = await providerCalls(sb);
        const gone = join(sb.dir, "never", "there");
        const s = await runHook(
          sb,
          "claude-stop",
          stopPayload({ sessionId: "sess-missing-unseen", cwd: gone }),
          { env: blocking },
        );
        assert.equal(s.code, 0, s.stderr);
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, undefined);
        assert.match(
          String(decision?.systemMessage),
          /NOT reviewed: the agent's directory ".*never\/there" does not exist and this session's start was not seen/,
        );
        assert.equal(await providerCalls(sb), calls);
      },
    );

    await t.step(
      "CLAUDE_PROJECT_DIR anchors the turn's start when the prompt's cwd moved",
      async () => {
        const session = { sessionId: "sess-project-dir", cwd: submodule };
        const env = { ...blocking, CLAUDE_PROJECT_DIR: root };
        const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
        assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
        await addTokenLine(root, "PROJECT_DIR");
        // Even with the anchor file gone, the project dir finds the baseline.
        await Deno.remove(join(sb.dir, "home", ".local", "state", "review-gate", "anchors"), {
          recursive: true,
        });
        const s = await runHook(sb, "claude-stop", stopPayload({ ...session, cwd: sb.dir }), {
          env,
        });
        assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
      },
    );

    await t.step("a session whose repository is gone is NOT reviewed, and says why", async () => {
      const clone = join(sb.dir, "clone");
      await gitOk(sb, ["clone", "-q", root, clone], sb.dir);
      const session = { sessionId: "sess-gone", cwd: clone };
      await runHook(sb, "claude-prompt", promptPayload(session), { cwd: clone });
      await Deno.remove(clone, { recursive: true });
      const s = await runHook(sb, "claude-stop", stopPayload({ ...session, cwd: root }), {
        env: blocking,
      });
      const decision = stopDecision(s.stdout);
      assert.equal(decision?.decision, undefined);
      assert.match(
        String(decision?.systemMessage),
        /NOT reviewed: the repository this session's turn started in \(".*clone"\) is no longer a git checkout/,
      );
    });

    await t.step(
      "a stop whose turn start was never seen is NOT reviewed, and says so",
      async () => {
        const calls = await providerCalls(sb);
        const session = { sessionId: "sess-unseen", cwd: root };
        const s = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, undefined);
        assert.match(String(decision?.systemMessage), /NOT reviewed: its start was not seen/);
        assert.equal(await providerCalls(sb), calls);
        await addTokenLine(root, "AFTER_UNSEEN");
        const next = await runHook(sb, "claude-stop", stopPayload(session), { env: blocking });
        assert.equal(stopDecision(next.stdout)?.decision, "block", "the next stop is reviewed");
      },
    );
  } finally {
    await sb.cleanup();
  }
});
