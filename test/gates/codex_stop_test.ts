/**
 * End to end: the Codex Stop gate driven as codex-cli 0.171.0 drives it (lib/gates/codex/door.ts) —
 * payloads piped into `main.ts hook codex-prompt` / `hook codex-stop` across a sequence of turns,
 * with the fake provider as reviewer. The same turn gate as Claude Code's: prompt → edit → stop
 * blocks → fix → stop passes; a turn that changes nothing costs no model call; `max_blocks` is the
 * only loop guard (Codex has none); `codex-prompt` prints nothing (Codex would hand it to the model);
 * a subagent's prompt does not reset the main turn; answers carry only keys Codex accepts.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  addTokenLine,
  blockingScenario,
  codexPromptPayload,
  codexStopPayload,
  makeGateSandbox,
  providerCalls,
  runCli,
  runHook,
  scenario,
  stopDecision,
  writeRepoConfig,
} from "./_gates.ts";

/** Keys Codex's Stop output schema accepts; any other voids the answer (fails open). */
const STOP_KEYS = new Set([
  "continue",
  "decision",
  "reason",
  "stopReason",
  "suppressOutput",
  "systemMessage",
]);

function codexDecision(stdout: string): Record<string, unknown> | null {
  const decision = stopDecision(stdout);
  for (const key of Object.keys(decision ?? {})) {
    assert.ok(STOP_KEYS.has(key), `Codex rejects "${key}"`);
  }
  if (decision?.decision !== undefined) {
    assert.equal(decision.decision, "block");
    assert.ok(
      typeof decision.reason === "string" && decision.reason !== "",
      "a block needs a reason",
    );
  }
  return decision;
}

Deno.test("codex Stop gate across turns: block, fix, idle turn, subagent prompt, loop cap", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    const session = { sessionId: "019a-codex-session", turnId: "turn-1", cwd: root };

    await t.step("prompt → edit → stop blocks with our finding", async () => {
      const p = await runHook(sb, "codex-prompt", codexPromptPayload(session));
      assert.deepEqual([p.code, p.stdout], [0, ""], "codex-prompt prints nothing");
      await addTokenLine(root, "CODEX_TURN");
      const s = await runHook(sb, "codex-stop", codexStopPayload(session), { env: blocking });
      assert.equal(s.code, 0, s.stderr);
      const decision = codexDecision(s.stdout);
      assert.equal(decision?.decision, "block");
      assert.match(
        String(decision?.reason),
        /\[high\] src\/app\.ts:1 Exported constant breaks callers/,
      );
      assert.equal(await providerCalls(sb), 1);
    });

    await t.step("a subagent's prompt does not reset the main turn's baseline", async () => {
      const sub = { ...session, agentId: "agent-7", prompt: "look around" };
      const p = await runHook(sb, "codex-prompt", codexPromptPayload(sub));
      assert.deepEqual([p.code, p.stdout], [0, ""]);
      const s = await runHook(
        sb,
        "codex-stop",
        codexStopPayload({ ...session, stopHookActive: true }),
        {
          env: blocking,
        },
      );
      assert.equal(codexDecision(s.stdout)?.decision, "block", "the turn's change is still there");
      assert.equal(await providerCalls(sb), 1, "the same change reuses the verdict");
    });

    await t.step("fix → the next stop (stop_hook_active) passes", async () => {
      await addTokenLine(root, "CODEX_FIXED");
      const s = await runHook(
        sb,
        "codex-stop",
        codexStopPayload({ ...session, stopHookActive: true, lastAssistantMessage: null }),
        { env: scenario("valid") },
      );
      assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step("a turn that changes nothing makes no model call", async () => {
      const turn = { ...session, turnId: "turn-2" };
      await runHook(sb, "codex-prompt", codexPromptPayload(turn));
      const s = await runHook(sb, "codex-stop", codexStopPayload(turn), { env: blocking });
      assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step(
      "an always-blocking review is capped by max_blocks (Codex has no cap of its own)",
      async () => {
        // The user's config edit between turns belongs to the next turn: its prompt names it.
        await writeRepoConfig(sb, { gates: { codex_stop: { max_blocks: 2 } } });
        const turn = { ...session, turnId: "turn-3" };
        const prompt = "I set max_blocks in .review-gate.json; now change the constants\n";
        await runHook(sb, "codex-prompt", codexPromptPayload({ ...turn, prompt }));
        const decisions = [];
        for (let i = 0; i < 4; i++) {
          await addTokenLine(root, `CODEX_LOOP_${i}`);
          const s = await runHook(
            sb,
            "codex-stop",
            codexStopPayload({ ...turn, stopHookActive: i > 0 }),
            {
              env: blocking,
            },
          );
          decisions.push(codexDecision(s.stdout));
        }
        assert.deepEqual(decisions.map((d) => d?.decision), [
          "block",
          "block",
          undefined,
          undefined,
        ]);
        assert.match(
          String(decisions[2]?.systemMessage),
          /stopped blocking after 2 blocks in a row/,
        );
        assert.match(
          String(decisions[3]?.systemMessage),
          /stopped blocking after 2 blocks in a row/,
        );
      },
    );

    await t.step(
      "gate disable codex-stop switches it off; SubagentStop is never reviewed",
      async () => {
        assert.equal((await runCli(sb, ["gate", "disable", "codex-stop"])).code, 0);
        // the user's change between turns counts once their prompt names the setting
        const turn = { ...session, turnId: "turn-4" };
        const prompt = "I disabled the codex-stop gate; change the constants\n";
        await runHook(sb, "codex-prompt", codexPromptPayload({ ...turn, prompt }));
        await addTokenLine(root, "CODEX_OFF");
        const calls = await providerCalls(sb);
        const off = await runHook(sb, "codex-stop", codexStopPayload(turn), { env: blocking });
        assert.deepEqual([off.code, off.stdout], [0, ""]);
        assert.equal((await runCli(sb, ["gate", "enable", "codex-stop"])).code, 0);
        const sub = await runHook(sb, "codex-stop", codexStopPayload(turn, "SubagentStop"), {
          env: blocking,
        });
        assert.deepEqual([sub.code, sub.stdout], [0, ""]);
        assert.equal(await providerCalls(sb), calls);
      },
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("codex Stop gate: a gate change made during the turn without the agent markers is the turn's", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const valid = scenario("valid");
  let n = 0;
  const turn = async (edit: () => Promise<unknown>) => {
    const session = { sessionId: "019a-codex-ctl", turnId: `turn-${++n}`, cwd: root };
    await runHook(sb, "codex-prompt", codexPromptPayload(session), { env: valid });
    await edit();
    const s = await runHook(sb, "codex-stop", codexStopPayload(session), { env: valid });
    assert.equal(s.code, 0, s.stderr);
    return codexDecision(s.stdout);
  };
  try {
    await t.step("`env -u CODEX_SANDBOX review-gate gate disable codex-stop`", async () => {
      const decision = await turn(async () => {
        await addTokenLine(root, "CODEX_OFF");
        assert.equal((await runCli(sb, ["gate", "disable", "codex-stop"])).code, 0);
      });
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /\.review-gate\.json:1 .*review-gate's config/);
      assert.equal(await providerCalls(sb), 1, "reviewed with the config the turn started with");
    });
    await t.step("`export REVIEW_GATE=0` appended to ~/.zshrc", async () => {
      await writeRepoConfig(sb, null);
      const home = sb.env.HOME!;
      await Deno.mkdir(home, { recursive: true });
      const decision = await turn(() =>
        Deno.writeTextFile(`${home}/.zshrc`, "export REVIEW_GATE=0\n", { append: true })
      );
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /\.zshrc:1 .*a shell startup file/);
    });
  } finally {
    await sb.cleanup();
  }
});
