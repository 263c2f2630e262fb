/**
 * End to end: Stop gate regressions found by QA — an internal error follows `on_error` (counted and
 * capped), a verdict is reused only for the same baseline *and* tree, concurrent stops of one
 * session make one model call, and provider messages reach the user without control characters.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  APP,
  blockingScenario,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";

// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

Deno.test("claude Stop gate internal error follows on_error: block is counted and capped, allow is loud", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const session = { sessionId: "sess-internal", cwd: root };
    await writeRepoConfig(sb, { gates: { claude_stop: { on_error: "block", max_blocks: 2 } } });
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
    await addTokenLine(root, "NESTED");
    // `git add -A` fails on a file whose required clean filter fails
    await gitOk(sb, ["config", "filter.broken.clean", "false"]);
    await gitOk(sb, ["config", "filter.broken.required", "true"]);
    await Deno.writeTextFile(join(root, ".gitattributes"), "*.bin filter=broken\n");
    await Deno.writeTextFile(join(root, "broken.bin"), "x\n");

    await t.step("on_error block blocks, naming the file and how to disable the gate", async () => {
      const decisions = [];
      for (let i = 0; i < 3; i++) {
        const s = await runHook(
          sb,
          "claude-stop",
          stopPayload({ ...session, stopHookActive: i > 0 }),
          {
            env: scenario("valid"),
          },
        );
        assert.equal(s.code, 0, s.stderr);
        decisions.push(stopDecision(s.stdout));
      }
      assert.deepEqual(decisions.map((d) => d?.decision), ["block", "block", undefined]);
      const reason = String(decisions[0]?.reason);
      assert.match(reason, /the Stop gate failed/);
      assert.match(reason, /broken\.bin/, "the message names the offending path");
      assert.match(reason, /"review-gate gate disable claude-stop" or REVIEW_GATE=0/);
      assert.match(
        String(decisions[2]?.systemMessage),
        /could not review this turn: it was NOT reviewed .*broken\.bin.* stopped blocking after 2 blocks in a row \(max_blocks\)/,
      );
      assert.equal(await providerCalls(sb), 0);
    });

    await t.step(
      "the default on_error allows with a loud systemMessage naming the file",
      async () => {
        // The user changes the config between turns and says so, naming the loosened setting; the
        // new turn's start (whose snapshot fails on broken.bin) still records the prompt.
        await writeRepoConfig(sb, null);
        const prompt = "I removed the review-gate config, on_error included; change the constants.";
        const p = await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt }));
        assert.match(p.stderr, /could not record the turn baseline: .*broken\.bin/);
        const s = await runHook(sb, "claude-stop", stopPayload(session), {
          env: scenario("valid"),
        });
        assert.equal(s.code, 0, s.stderr);
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, undefined);
        assert.match(String(decision?.systemMessage), /NOT reviewed: the Stop gate failed/);
        assert.match(String(decision?.systemMessage), /broken\.bin/);
      },
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("claude Stop gate reviews the user's edits between turns with the next turn, from the tree the last stop answered for", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = await blockingScenario(sb);
    const session = { sessionId: "sess-baseline", cwd: root };
    const original = await Deno.readTextFile(join(root, APP));
    // Turn 1: baseline = HEAD; the turn adds a line and the review approves it.
    await runHook(sb, "claude-prompt", promptPayload(session));
    await addTokenLine(root, "BAD");
    const turnOneTree = await Deno.readTextFile(join(root, APP));
    const first = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario("valid"),
    });
    assert.deepEqual([first.code, first.stdout], [0, ""], first.stderr);
    assert.equal(await providerCalls(sb), 1);
    // The user fixes the file between turns; turn 2 puts the approved code back: since the tree
    // the last stop answered for, nothing changed.
    await Deno.writeTextFile(join(root, APP), original + 'export const t = "FIXED";\n');
    await runHook(sb, "claude-prompt", promptPayload(session));
    await Deno.writeTextFile(join(root, APP), turnOneTree);
    const second = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(blocking),
    });
    assert.deepEqual([second.code, second.stdout], [0, ""], second.stderr);
    assert.equal(await providerCalls(sb), 1, "back at the answered tree: no model call");
    // The user edits again between turns, and turn 3 changes nothing: the user's edit is reviewed.
    await addTokenLine(root, "USER_EDIT");
    await runHook(sb, "claude-prompt", promptPayload(session));
    const third = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(blocking),
    });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(await providerCalls(sb), 2, "the edit between turns is reviewed");
    assert.equal(stopDecision(third.stdout)?.decision, "block");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("claude Stop gate serialises concurrent stops of one session: one model call", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const slow = join(sb.dir, "slow.json");
    await Deno.writeTextFile(slow, JSON.stringify({ steps: [{ kind: "valid", delayMs: 1500 }] }));
    const session = { sessionId: "sess-concurrent", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await addTokenLine(root, "CONCURRENT");
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        runHook(sb, "claude-stop", stopPayload(session), { env: scenario(slow) })
      ),
    );
    for (const r of results) assert.deepEqual([r.code, r.stdout], [0, ""], r.stderr);
    assert.equal(await providerCalls(sb), 1);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("claude Stop gate shows a provider error message without control characters", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const hostile = join(sb.dir, "hostile.json");
    await Deno.writeTextFile(
      hostile,
      JSON.stringify({
        steps: [{ kind: "error", message: "overloaded \u001b]0;T\u0007\u001b[2J\u202e" }],
      }),
    );
    const session = { sessionId: "sess-hostile", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(session));
    await addTokenLine(root, "HOSTILE");
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env: scenario(hostile) });
    assert.equal(s.code, 0, s.stderr);
    const message = String(stopDecision(s.stdout)?.systemMessage);
    assert.match(message, /NOT reviewed/, `${s.stdout} ${s.stderr}`);
    assert.doesNotMatch(message, RAW_CONTROL);
    assert.doesNotMatch(s.stderr, RAW_CONTROL);
  } finally {
    await sb.cleanup();
  }
});
