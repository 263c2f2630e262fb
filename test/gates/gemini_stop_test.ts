/**
 * End to end: the Gemini CLI AfterAgent gate driven as Gemini CLI 0.61.0 drives it
 * (lib/gates/gemini/door.ts) — payloads shaped like the captured ones
 * (test/contract/gemini_samples/) piped into `main.ts hook gemini-prompt` / `hook gemini-stop`,
 * with the fake provider as reviewer. Gemini CLI fires `BeforeAgent` once per user prompt and again
 * after each block with the block's reason as the prompt, and its `stop_hook_active` is false on a
 * stop after a block whenever a tool ran: neither may reset the turn's baseline or the block
 * counter, so `max_blocks` still holds; a turn that changes nothing costs no model call; an edit of
 * Gemini CLI's own settings during the turn is caught; `gate disable gemini-stop` is honoured.
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

/** A Gemini CLI hook payload (transcripts under `~/.gemini/tmp/<project>/chats/`). */
function payload(sb: GateSandbox, session: string, event: string, extra: object): string {
  const transcriptDir = [".gemini", "tmp", "repo", "chats"];
  return settingsHookPayload(sb, { session, event, transcriptDir }, extra);
}

const prompt = (sb: GateSandbox, session: string, text: string) =>
  runCli(sb, ["hook", "gemini-prompt"], {
    stdin: payload(sb, session, "BeforeAgent", { prompt: text }),
  });

/**
 * An AfterAgent stop, answered as Gemini CLI reads it (test/gates/_settings_agents.ts): a block
 * with `decision` "block" or "deny" hands the reason back as the next prompt; `continue: false`
 * would end the session instead.
 */
function stop(
  sb: GateSandbox,
  session: string,
  env: Record<string, string>,
): Promise<Record<string, unknown> | null> {
  const extra = {
    prompt: "Please change the constants.",
    prompt_response: "Done.",
    stop_hook_active: false,
  };
  return runSettingsStop(sb, "gemini-stop", payload(sb, session, "AfterAgent", extra), {
    env,
    continueWould: "end the session",
  });
}

Deno.test("gemini AfterAgent gate: the reason handed back as BeforeAgent neither restarts the turn nor resets max_blocks", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = scenario(await blockingScenario(sb));
    const session = "84786f0d-gemini-session";

    await t.step("prompt → edit → AfterAgent blocks with our finding", async () => {
      const p = await prompt(sb, session, "Please change the constants.");
      assert.deepEqual([p.code, p.stdout], [0, ""], "gemini-prompt prints nothing");
      await addTokenLine(root, "GEMINI_TURN");
      const decision = await stop(sb, session, blocking);
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /\[high\] src\/app\.ts:1 Exported constant/);
      assert.equal(await providerCalls(sb), 1);
    });

    await t.step("BeforeAgent with our reason, a fix, and the next stop passes", async () => {
      await prompt(sb, session, "review-gate found 1 blocking finding in this turn's changes:");
      await addTokenLine(root, "GEMINI_FIXED");
      assert.equal(await stop(sb, session, scenario("valid")), null);
      assert.equal(await providerCalls(sb), 2, "the fix was reviewed, from the turn's baseline");
    });

    await t.step("a turn that changes nothing makes no model call", async () => {
      await prompt(sb, session, "What does src/app.ts do?");
      assert.equal(await stop(sb, session, blocking), null);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step("an always-blocking review is capped by max_blocks", async () => {
      await writeRepoConfig(sb, { gates: { gemini_stop: { max_blocks: 2 } } });
      await prompt(sb, session, "I set max_blocks in .review-gate.json; now change the constants");
      const decisions = [];
      for (let i = 0; i < 4; i++) {
        await addTokenLine(root, `GEMINI_LOOP_${i}`);
        decisions.push(await stop(sb, session, blocking));
        // after a block Gemini CLI fires BeforeAgent with the reason before the model's next
        // request; after an allow the turn is over and nothing fires until the user's next prompt
        if (decisions[i]?.decision === "block") {
          await prompt(sb, session, String(decisions[i]?.reason));
        }
      }
      assert.deepEqual(decisions.map((d) => d?.decision), ["block", "block", undefined, undefined]);
      assert.match(String(decisions[2]?.systemMessage), /stopped blocking after 2 blocks in a row/);
    });

    await t.step("an edit of Gemini CLI's user settings during the turn is caught", async () => {
      const settings = join(sb.env.HOME, ".gemini", "settings.json");
      await Deno.mkdir(join(sb.env.HOME, ".gemini"), { recursive: true });
      await Deno.writeTextFile(settings, '{"hooks": {}}\n');
      await prompt(sb, session, "Add a comment to src/app.ts");
      await Deno.writeTextFile(settings, '{"hooksConfig": {"enabled": false}}\n');
      const decision = await stop(sb, session, scenario("valid"));
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /Gemini CLI's user settings/);
      assert.match(String(decision?.reason), /, which controls? the review gate/);
    });

    await t.step("gate disable gemini-stop switches it off", async () => {
      const other = "3f5ebc10-gemini-session";
      assert.equal((await runCli(sb, ["gate", "disable", "gemini-stop"])).code, 0);
      await prompt(sb, other, "Change the constants again.");
      await addTokenLine(root, "GEMINI_OFF");
      const calls = await providerCalls(sb);
      assert.equal(await stop(sb, other, blocking), null);
      assert.equal(await providerCalls(sb), calls);
      assert.equal((await runCli(sb, ["gate", "enable", "gemini-stop"])).code, 0);
    });
  } finally {
    await sb.cleanup();
  }
});
