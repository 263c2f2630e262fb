/**
 * End to end: an acknowledged finding (`review-gate ack`) stops blocking a real `git push` and a
 * Claude Code Stop, and a change to a line the finding points at blocks again; `ack` refuses to run
 * inside the agent's session; every gate (pre-push, Claude Code Stop, Codex Stop) prints the exact
 * `ack` command of each blocking finding, past the three it lists in full.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  APP,
  BLOCKING_ANSWER,
  blockingScenario,
  codexPromptPayload,
  codexStopPayload,
  commitToken,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

/** The `review-gate ack <id> --reason …` command a block printed: its short fingerprint. */
function ackIdIn(text: string): string {
  const id = /review-gate ack ([0-9a-f]{12}) --reason/.exec(text)?.[1];
  assert.ok(id, `no ack command in:\n${text}`);
  return id;
}

/** Every `review-gate ack <id> --reason …` command in a text: the short fingerprints. */
function ackIdsIn(text: string): string[] {
  return [...text.matchAll(/review-gate ack ([0-9a-f]{12}) --reason "…"/g)].map((m) => m[1]);
}

/** Change line 1 of APP, the line the blocking finding points at. */
async function editLineOne(root: string): Promise<void> {
  const path = join(root, APP);
  const [first, ...rest] = (await Deno.readTextFile(path)).split("\n");
  await Deno.writeTextFile(path, [first.replace(/";$/, '_CHANGED";'), ...rest].join("\n"));
}

Deno.test("acknowledged finding: a real git push goes through, a changed line at it blocks again", async () => {
  const sb = await makeGateSandbox();
  try {
    const blocking = scenario(await blockingScenario(sb));
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    await gitOk(sb, ["switch", "-q", "-c", "feature"]);
    await commitToken(sb, "PUSH_ONE");
    const blocked = await runGit(sb, ["push", "origin", "feature"], { env: blocking });
    assert.notEqual(blocked.code, 0);
    assert.match(blocked.stderr, /push blocked: 1 blocking finding/);
    const id = ackIdIn(blocked.stderr);
    assert.match(blocked.stderr, /records it in \.review-gate\/acks\.json/);

    const ack = await runCli(sb, ["ack", id, "--reason", "callers were updated in this PR"]);
    assert.equal(ack.code, 0, ack.stderr);
    assert.match(ack.stdout, new RegExp(`Acknowledged ${id}: \\[high\\] src/app\\.ts:1`));
    const file = JSON.parse(await Deno.readTextFile(join(sb.repo.root, ".review-gate/acks.json")));
    assert.equal(file.acks.length, 1);
    assert.ok(file.acks[0].fingerprint.startsWith(id));
    assert.equal(file.acks[0].reason, "callers were updated in this PR");

    // a push counts the acknowledgements the remote already has: the worktree's do not apply yet
    const still = await runGit(sb, ["push", "origin", "feature"], { env: blocking });
    assert.notEqual(still.code, 0, still.stderr);
    assert.match(still.stderr, /push blocked: 1 blocking finding/);
    assert.match(still.stderr, /not applied to it: \.review-gate\/acks\.json \(worktree\)/);

    // the team lands the acknowledgement on main (reviewed like code), and the branch builds on it
    await gitOk(sb, ["switch", "-q", "main"]);
    await gitOk(sb, ["add", ".review-gate/acks.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "acknowledge the finding"]);
    const landed = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(landed.code, 0, landed.stderr);
    await gitOk(sb, ["switch", "-q", "feature"]);
    await gitOk(sb, ["rebase", "-q", "main"]);
    const head = await gitOk(sb, ["rev-parse", "HEAD"]);

    const calls = await providerCalls(sb);
    const through = await runGit(sb, ["push", "origin", "feature"], { env: blocking });
    assert.equal(through.code, 0, through.stderr);
    assert.equal(await remoteRef(sb, "refs/heads/feature"), head);
    assert.doesNotMatch(through.stderr, /push blocked/);
    assert.match(
      through.stderr,
      /: needs-attention, 1 acknowledged finding; reviewed by claude [^\n]*\n {2}- \[high\] src\/app\.ts:1 [^\n]+\n {4}acknowledged in \.review-gate\/acks\.json[^\n]*: "callers were updated in this PR"\n/,
      "the push says the finding it lets through is acknowledged, and why",
    );
    assert.equal(
      await providerCalls(sb),
      calls + 1,
      "the acknowledgements are part of the verdict",
    );

    await editLineOne(sb.repo.root);
    await gitOk(sb, ["commit", "-q", "-am", "change the acknowledged line"]);
    const again = await runGit(sb, ["push", "origin", "feature"], { env: blocking });
    assert.notEqual(again.code, 0, "the code at the finding changed: it blocks again");
    assert.match(again.stderr, /push blocked: 1 blocking finding/);
    assert.notEqual(ackIdIn(again.stderr), id, "a new fingerprint");
    assert.equal(await remoteRef(sb, "refs/heads/feature"), head);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("acknowledged finding: the next Stop allows; a turn changing the line blocks again", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const session = { sessionId: "sess-acks", cwd: root };
  try {
    const blocking = scenario(await blockingScenario(sb));
    const stop = (active = false) =>
      runHook(sb, "claude-stop", stopPayload({ ...session, stopHookActive: active }), {
        env: blocking,
      });
    let id = "";
    await t.step("the block reason carries the ack command, for the user", async () => {
      await runHook(sb, "claude-prompt", promptPayload(session));
      await addTokenLine(root, "TURN_ONE");
      const s = await stop();
      const decision = stopDecision(s.stdout);
      assert.equal(decision?.decision, "block", s.stderr);
      id = ackIdIn(String(decision?.reason));
      assert.match(String(decision?.reason), /Only they may accept a finding/);
      assert.match(String(decision?.reason), /\[high\] src\/app\.ts:1 Exported constant/);
    });
    await t.step("the agent cannot acknowledge it from its own session", async () => {
      const r = await runCli(sb, ["ack", id, "--reason", "fine"], { env: { CLAUDECODE: "1" } });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Refusing to acknowledge a finding from inside a coding agent/);
    });
    await t.step(
      "an ack run mid-turn without the agent marker is the turn's: blocked",
      async () => {
        // `env -u CLAUDECODE review-gate ack …` from the agent's shell: the marker proves nothing
        const ack = await runCli(sb, ["ack", id, "--reason", "fine"]);
        assert.equal(ack.code, 0, ack.stderr);
        assert.match(
          ack.stdout,
          /^note: an agent session's next Stop treats this as a change to its gate; ask for it by name \("\.review-gate\/acks\.json", with a verb such as "change" or "ack"\) in your next prompt to it so the change applies$/m,
        );
        const s = await stop(true);
        const decision = stopDecision(s.stdout);
        assert.equal(decision?.decision, "block", s.stdout + s.stderr);
        assert.match(String(decision?.reason), /\.review-gate\/acks\.json:1/);
        assert.match(String(decision?.reason), /repository files, which control the review gate/);
        // the user may have run it: the agent is told not to undo it, and the words that allow it
        assert.match(
          String(decision?.reason),
          /If the user made this change, do not undo it: tell the user that review-gate needs their next prompt to ask for it by name \("\.review-gate\/acks\.json", in a sentence with a verb/,
        );
      },
    );
    await t.step(
      "a next prompt that does not name the ack: still the unanswered turn's edit",
      async () => {
        // the blocked stop answered for nothing: the next turn starts where turn one did, and the
        // ack is still a gate-control edit of the work since then
        await runHook(sb, "claude-prompt", promptPayload(session));
        const s = await stop();
        assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
        assert.match(String(stopDecision(s.stdout)?.reason), /\.review-gate\/acks\.json:1/);
      },
    );
    await t.step("the user's ack holds once a prompt names it", async () => {
      const prompt = "I accepted that finding in .review-gate/acks.json; carry on.";
      await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt }));
      const s = await stop();
      assert.equal(stopDecision(s.stdout), null, s.stdout + s.stderr);
    });
    await t.step("a turn that changes the line the finding points at blocks again", async () => {
      await runHook(sb, "claude-prompt", promptPayload(session));
      await editLineOne(root);
      const s = await stop();
      const decision = stopDecision(s.stdout);
      assert.equal(decision?.decision, "block", s.stdout);
      assert.notEqual(ackIdIn(String(decision?.reason)), id);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("every gate prints the exact ack command of each of five blocking findings", async () => {
  const sb = await makeGateSandbox();
  const root = sb.repo.root;
  const tokens = ["T1", "T2", "T3", "T4", "T5"];
  const addLines = async () => {
    for (const t of tokens) await addTokenLine(root, t);
  };
  try {
    // five findings, one per added line (lines 1-5 after the five prepends)
    const [model] = BLOCKING_ANSWER.findings;
    const findings = tokens.map((_, i) => ({
      ...model,
      title: `Finding ${i + 1}`,
      line_start: i + 1,
      line_end: i + 1,
    }));
    const path = join(sb.dir, "five.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({ steps: [{ kind: "valid", answer: { ...BLOCKING_ANSWER, findings } }] }),
    );
    const five = scenario(path);

    const claude = { sessionId: "sess-five", cwd: root };
    await runHook(sb, "claude-prompt", promptPayload(claude));
    await addLines();
    const claudeStop = await runHook(sb, "claude-stop", stopPayload(claude), { env: five });
    const claudeReason = String(stopDecision(claudeStop.stdout)?.reason);
    const ids = ackIdsIn(claudeReason);
    assert.equal(new Set(ids).size, 5, claudeReason);
    assert.match(claudeReason, /… and 2 more, each with its ack command/);

    await gitOk(sb, ["checkout", "--", APP]);
    const codex = { sessionId: "019a-five", turnId: "turn-1", cwd: root };
    await runHook(sb, "codex-prompt", codexPromptPayload(codex));
    await addLines();
    const codexStop = await runHook(sb, "codex-stop", codexStopPayload(codex), { env: five });
    const codexReason = String(stopDecision(codexStop.stdout)?.reason);
    assert.equal(stopDecision(codexStop.stdout)?.decision, "block", codexStop.stderr);
    assert.deepEqual(ackIdsIn(codexReason), ids, "the same findings, the same commands");

    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    await gitOk(sb, ["commit", "-q", "-am", "five lines"]);
    const blocked = await runGit(sb, ["push", "origin", "main"], { env: five });
    assert.notEqual(blocked.code, 0);
    assert.deepEqual(ackIdsIn(blocked.stderr), ids, blocked.stderr);

    // each printed command, run as printed (with a reason), accepts its finding
    for (const id of ids) {
      const ack = await runCli(sb, ["ack", id, "--reason", "reviewed by hand"]);
      assert.equal(ack.code, 0, ack.stderr);
    }
    const listed = await runCli(sb, ["acks"]);
    assert.equal(listed.code, 0, listed.stderr);
    for (const id of ids) assert.match(listed.stdout, new RegExp(id));
    // a push counts them once the remote has them; until then it says they were not applied
    const still = await runGit(sb, ["push", "origin", "main"], { env: five });
    assert.notEqual(still.code, 0, still.stderr);
    assert.match(still.stderr, /not applied to it: \.review-gate\/acks\.json \(worktree\)/);
  } finally {
    await sb.cleanup();
  }
});
