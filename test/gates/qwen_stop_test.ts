/**
 * End to end: the Qwen Code Stop gate driven as Qwen Code 0.15.10 drives it (lib/gates/qwen/door.ts)
 * — payloads shaped like the captured ones (test/contract/qwen_samples/) piped into `main.ts hook
 * qwen-prompt` / `hook qwen-stop`, with the fake provider as reviewer. Qwen Code fires
 * `UserPromptSubmit` before every model request (`prompt: ""` after a tool call, the Stop reasons
 * after a block) and sends `stop_hook_active: true` on every stop: neither may reset the turn's
 * baseline or the block counter, so `max_blocks` still holds; a turn that changes nothing costs no
 * model call; an edit of Qwen Code's own hook settings during the turn is caught; `SubagentStop`
 * and `gate disable qwen-stop` are never reviewed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  type GateSandbox,
  makeGateSandbox,
  providerCalls,
  runCli,
  scenario,
  writeRepoConfig,
} from "./_gates.ts";
import { runSettingsStop, settingsHookPayload } from "./_settings_agents.ts";

/** A Qwen Code hook payload (transcripts under `~/.qwen/projects/<project>/chats/`). */
function payload(sb: GateSandbox, session: string, event: string, extra: object): string {
  const transcriptDir = [".qwen", "projects", "p", "chats"];
  return settingsHookPayload(sb, { session, event, transcriptDir }, extra);
}

const prompt = (sb: GateSandbox, session: string, text: string) =>
  runCli(sb, ["hook", "qwen-prompt"], {
    stdin: payload(sb, session, "UserPromptSubmit", { prompt: text }),
  });

/**
 * A Stop (or `SubagentStop`), answered as Qwen Code reads it (test/gates/_settings_agents.ts): a
 * block with `decision` "block" (or "deny"); our blocks always carry a reason and nothing else
 * decides.
 */
function stop(
  sb: GateSandbox,
  session: string,
  env: Record<string, string>,
  event = "Stop",
): Promise<Record<string, unknown> | null> {
  const extra = event === "Stop" ? { stop_hook_active: true, last_assistant_message: "Done." } : {
    stop_hook_active: false,
    agent_id: "general-purpose-call_1",
    agent_type: "general-purpose",
  };
  return runSettingsStop(sb, "qwen-stop", payload(sb, session, event, extra), {
    env,
    continueWould: "send the model back too",
  });
}

Deno.test("qwen Stop gate: tool follow-ups and block continuations neither restart the turn nor reset max_blocks", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    const session = "0f0089c2-qwen-session";

    await t.step("prompt → edit → tool follow-up → stop blocks with our finding", async () => {
      const p = await prompt(sb, session, "Please change the constants.");
      assert.deepEqual([p.code, p.stdout], [0, ""], "qwen-prompt prints nothing");
      await addTokenLine(root, "QWEN_TURN");
      // the request after the write_file call: it must not take the edit into the baseline
      assert.equal((await prompt(sb, session, "")).code, 0);
      const decision = await stop(sb, session, blocking);
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /\[high\] src\/app\.ts:1 Exported constant/);
      assert.equal(await providerCalls(sb), 1);
    });

    await t.step("the continuation with our reason, a fix, and the next stop passes", async () => {
      await prompt(sb, session, "review-gate found 1 blocking finding in this turn's changes:");
      await addTokenLine(root, "QWEN_FIXED");
      await prompt(sb, session, "");
      assert.equal(await stop(sb, session, scenario("valid")), null);
      assert.equal(await providerCalls(sb), 2, "the fix was reviewed");
    });

    await t.step("a turn that changes nothing makes no model call", async () => {
      await prompt(sb, session, "What does src/app.ts do?");
      assert.equal(await stop(sb, session, blocking), null);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step("an always-blocking review is capped by max_blocks", async () => {
      await writeRepoConfig(sb, { gates: { qwen_stop: { max_blocks: 2 } } });
      await prompt(sb, session, "I set max_blocks in .review-gate.json; now change the constants");
      const decisions = [];
      for (let i = 0; i < 4; i++) {
        await addTokenLine(root, `QWEN_LOOP_${i}`);
        await prompt(sb, session, "");
        decisions.push(await stop(sb, session, blocking));
        // Qwen Code sends the reason back through UserPromptSubmit before the model's next request
        await prompt(sb, session, String(decisions[i]?.reason ?? ""));
      }
      assert.deepEqual(decisions.map((d) => d?.decision), ["block", "block", undefined, undefined]);
      assert.match(String(decisions[2]?.systemMessage), /stopped blocking after 2 blocks in a row/);
    });

    await t.step("an edit of Qwen Code's user settings during the turn is caught", async () => {
      const settings = join(sb.env.HOME, ".qwen", "settings.json");
      await Deno.mkdir(join(sb.env.HOME, ".qwen"), { recursive: true });
      await Deno.writeTextFile(settings, '{"hooks": {}}\n');
      await prompt(sb, session, "Add a comment to src/app.ts");
      await Deno.writeTextFile(settings, '{"disableAllHooks": true}\n');
      const decision = await stop(sb, session, scenario("valid"));
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /Qwen Code's user settings/);
      assert.match(String(decision?.reason), /, which controls? the review gate/);
    });

    await t.step(
      "gate disable qwen-stop switches it off; SubagentStop is never reviewed",
      async () => {
        const other = "3f5ebc10-qwen-session";
        assert.equal((await runCli(sb, ["gate", "disable", "qwen-stop"])).code, 0);
        await prompt(sb, other, "Change the constants again.");
        await addTokenLine(root, "QWEN_OFF");
        const calls = await providerCalls(sb);
        assert.equal(await stop(sb, other, blocking), null);
        assert.equal((await runCli(sb, ["gate", "enable", "qwen-stop"])).code, 0);
        assert.equal(await stop(sb, other, blocking, "SubagentStop"), null);
        assert.equal(await providerCalls(sb), calls);
      },
    );
  } finally {
    await sb.cleanup();
  }
});
