/**
 * End to end: review-gate's Stop hook installed twice — as the Claude Code plugin
 * (`hook claude-stop --source plugin`) and in settings — runs twice, in parallel, for every stop
 * (Claude Code never merges them). The stop is claimed once (lib/gates/claude/claim.ts): one hook
 * reviews and blocks, the other allows at once and, the first time in the session, says that
 * review-gate runs twice. One model call, one block counted.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runCli,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

function withTranscript(payload: string, transcript: string): string {
  return JSON.stringify({ ...JSON.parse(payload), transcript_path: transcript });
}

Deno.test("a plugin Stop hook and a settings Stop hook for the same stop: one review, one block, one note", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const session = { sessionId: "sess-twice", cwd: root };
    const transcript = join(sb.dir, "transcript.jsonl");
    await Deno.writeTextFile(
      transcript,
      JSON.stringify({ type: "assistant", uuid: "a-1", message: {} }) + "\n",
    );
    const prompt = await runCli(sb, ["hook", "claude-prompt", "--source", "plugin"], {
      stdin: promptPayload(session),
    });
    assert.equal(prompt.code, 0, prompt.stderr);
    await addTokenLine(root, "twice");
    const stdin = withTranscript(stopPayload(session), transcript);
    const env = scenario(await blockingScenario(sb));
    const [plugin, settings] = await Promise.all([
      runCli(sb, ["hook", "claude-stop", "--source", "plugin"], { stdin, env }),
      runCli(sb, ["hook", "claude-stop"], { stdin, env }),
    ]);
    for (const out of [plugin, settings]) assert.equal(out.code, 0, out.stderr);
    const decisions = [plugin, settings].map((o) => stopDecision(o.stdout));
    assert.equal(
      decisions.filter((d) => d?.decision === "block").length,
      1,
      JSON.stringify(decisions),
    );
    const note = decisions.find((d) => d?.decision !== "block");
    assert.match(
      String(note?.systemMessage),
      /Stop hook is installed twice: as the Claude Code plugin and in settings; each stop is still reviewed once/,
    );
    assert.equal(await providerCalls(sb), 1);
    const state = JSON.parse(
      await Deno.readTextFile(join(root, ".git", "review-gate", "sessions", "sess-twice.json")),
    ).value; // sealed: the record is inside (lib/store/sealed.ts)
    assert.equal(state.consecutiveBlocks, 1);

    // Claude answers again after the block (a new assistant entry): claimed anew, no second note
    await Deno.writeTextFile(
      transcript,
      JSON.stringify({ type: "assistant", uuid: "a-2", message: {} }) + "\n",
      { append: true },
    );
    const again = await Promise.all([
      runCli(sb, ["hook", "claude-stop", "--source", "plugin"], { stdin, env }),
      runCli(sb, ["hook", "claude-stop"], { stdin, env }),
    ]);
    const next = again.map((o) => stopDecision(o.stdout));
    assert.equal(next.filter((d) => d?.decision === "block").length, 1, JSON.stringify(next));
    assert.equal(next.filter((d) => d === null).length, 1, "the loser says nothing this time");
    assert.equal(await providerCalls(sb), 1, "the same tree reuses the verdict");
  } finally {
    await sb.cleanup();
  }
});
