/**
 * End to end: a loosening of review-gate's config that no prompt named is held back, setting by
 * setting, through the installed Stop hook script (`hooks/turn-stop.sh` in front of `hook
 * claude-stop`), payloads piped as Claude Code sends them. A turn that loosens the config unasked
 * and sits out `max_blocks` ends, but the change is NOT accepted: the next turn's Stop still judges
 * with the held config and says so, until a prompt names the setting. A prompt naming one setting
 * accepts that one only: another loosening in the same file stays held and gets the guard finding.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAIN } from "../e2e/_cli.ts";
import {
  addTokenLine,
  blockingScenario,
  type CliResult,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  type Sandbox,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

const SCRIPT = new URL("../../hooks/turn-stop.sh", import.meta.url).pathname;
const REVIEW_GATE = [
  ...[Deno.execPath(), "run", "--allow-read", "--allow-write", "--allow-env", "--allow-run"],
  ...[MAIN, "hook", "claude-stop"],
];

/** Pipe a Stop payload into the installed script, review-gate behind it. */
async function stopHook(sb: Sandbox, payload: string, env: Record<string, string>) {
  const child = new Deno.Command("sh", {
    args: [SCRIPT, ...REVIEW_GATE],
    cwd: sb.repo.root,
    env: { ...sb.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  const r: CliResult = {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
  assert.equal(r.code, 0, r.stderr);
  return stopDecision(r.stdout);
}

async function prompt(sb: Sandbox, sessionId: string, text: string, env: Record<string, string>) {
  const payload = promptPayload({ sessionId, cwd: sb.repo.root, prompt: text });
  const p = await runHook(sb, "claude-prompt", payload, { env });
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
}

Deno.test("a config loosening the agent sat out max_blocks on stays held in the next turns until a prompt names it", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const config = join(root, ".review-gate.json");
  const id = "hold-warn";
  const valid = scenario("valid"); // the model approves: only the guard blocks
  const blocking = scenario(await blockingScenario(sb));
  try {
    await Deno.writeTextFile(config, '{"gates":{"claude_stop":{"max_blocks":2}}}\n');
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "config"]);

    await t.step("the turn that switched to warn mode unasked ends after max_blocks", async () => {
      await prompt(sb, id, "Please change the constants.", valid);
      await addTokenLine(root, "TURN_ONE");
      await Deno.writeTextFile(
        config,
        '{"gates":{"claude_stop":{"max_blocks":2,"mode":"warn"}}}\n',
      );
      const decisions = [];
      for (let i = 0; i < 3; i++) {
        decisions.push(await stopHook(sb, stopPayload({ sessionId: id, cwd: root }), valid));
      }
      assert.deepEqual(decisions.map((d) => d?.decision), ["block", "block", undefined]);
      assert.match(String(decisions[0]?.reason), /loosened gates\.claude_stop\.mode/);
      const gaveUp = String(decisions[2]?.systemMessage);
      assert.match(gaveUp, /stopped blocking after 2 blocks in a row \(max_blocks\)/);
      assert.match(gaveUp, /gates\.claude_stop\.mode .*was NOT accepted/);
      assert.match(gaveUp, /name it in a prompt \("gates\.claude_stop\.mode"/);
    });

    await t.step(
      "the next turn's Stop still blocks under the held config, and says so",
      async () => {
        await prompt(sb, id, "Now rename the constant.", blocking);
        await addTokenLine(root, "TURN_TWO");
        const calls = await providerCalls(sb);
        const decision = await stopHook(sb, stopPayload({ sessionId: id, cwd: root }), blocking);
        assert.equal(await providerCalls(sb), calls + 1, "the turn was reviewed");
        assert.equal(decision?.decision, "block", JSON.stringify(decision));
        const reason = String(decision?.reason);
        assert.match(reason, /Exported constant breaks callers/);
        assert.doesNotMatch(reason, /would block/);
        assert.doesNotMatch(
          reason,
          /This turn loosened/,
          "told once, as a note, not a new finding",
        );
        assert.match(
          reason,
          /the config change to gates\.claude_stop\.mode \(\.review-gate\.json\) is held back since \S+: it was NOT accepted/,
        );
      },
    );

    await t.step("after a prompt naming the setting, the new config applies", async () => {
      await prompt(sb, id, "Yes, switch the claude-stop gate to warn mode.", blocking);
      await addTokenLine(root, "TURN_THREE");
      const decision = await stopHook(sb, stopPayload({ sessionId: id, cwd: root }), blocking);
      assert.notEqual(decision?.decision, "block", JSON.stringify(decision));
      const message = String(decision?.systemMessage);
      assert.match(message, /would block/);
      assert.doesNotMatch(message, /held back/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a prompt naming fail_on accepts fail_on only: disabling the gate in the same file is held and named", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const id = "hold-fail-on";
  const blocking = scenario(await blockingScenario(sb)); // one high finding
  try {
    await prompt(sb, id, "Set fail_on to critical in .review-gate.json.", blocking);
    await addTokenLine(root, "FAIL_ON");
    await Deno.writeTextFile(
      join(root, ".review-gate.json"),
      '{"fail_on":"critical","gates":{"claude_stop":{"enabled":false}}}\n',
    );
    const calls = await providerCalls(sb);
    const decision = await stopHook(sb, stopPayload({ sessionId: id, cwd: root }), blocking);
    assert.equal(await providerCalls(sb), calls + 1, "the gate was not disabled: it reviewed");
    assert.equal(decision?.decision, "block", JSON.stringify(decision));
    const reason = String(decision?.reason);
    assert.match(reason, /This turn loosened gates\.claude_stop\.enabled in review-gate's config/);
    assert.match(reason, /"disable the gate" for \.review-gate\.json/);
    assert.doesNotMatch(reason, /loosened[^\n]*fail_on/, "fail_on was asked for");
    // fail_on: critical applied: the review's high finding does not block
    assert.doesNotMatch(reason, /Exported constant breaks callers/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a gate disabled unasked stays on at the next turn's start, until a prompt names it", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const config = join(root, ".review-gate.json");
  const id = "hold-off";
  const blocking = scenario(await blockingScenario(sb));
  const stop = () => stopHook(sb, stopPayload({ sessionId: id, cwd: root }), blocking);
  try {
    await Deno.writeTextFile(config, '{"gates":{"claude_stop":{"max_blocks":1}}}\n');
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "config"]);
    await prompt(sb, id, "Please change the constants.", blocking);
    await addTokenLine(root, "FIRST_TURN");
    await Deno.writeTextFile(
      config,
      '{"gates":{"claude_stop":{"max_blocks":1,"enabled":false}}}\n',
    );
    assert.deepEqual([(await stop())?.decision, (await stop())?.decision], ["block", undefined]);

    // the prompt hook sees the gate off on disk, but the held config keeps it on
    await prompt(sb, id, "Now rename the constant.", blocking);
    await addTokenLine(root, "NEXT_TURN");
    const calls = await providerCalls(sb);
    const next = await stop();
    assert.equal(await providerCalls(sb), calls + 1, "the turn was reviewed");
    assert.equal(next?.decision, "block", JSON.stringify(next));
    assert.match(String(next?.reason), /gates\.claude_stop\.enabled .*is held back/);

    await prompt(sb, id, "I want it off: disable the gate.", blocking);
    const off = await stop();
    assert.equal(off, null, "the gate is off now: the stop is let through");
    assert.equal(await providerCalls(sb), calls + 1, "no review ran");
  } finally {
    await sb.cleanup();
  }
});
