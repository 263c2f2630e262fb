/**
 * End to end: the agent cannot hide its own edit from the Stop gate through git's own machinery —
 * the index's assume-unchanged and skip-worktree bits, the repository's `info/attributes` and
 * `info/exclude`, and git config (`core.attributesFile`, `core.excludesFile`, clean filters).
 * Hidden bits are ignored, so the edit is reviewed; the other edits control what the gate sees and
 * get the blocking finding every gate-control edit gets unless the user's prompt asked for it.
 * Payloads piped as Claude Code sends them.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  addTokenLine,
  APP,
  blockingScenario,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

async function turn(
  sb: GateSandbox,
  sessionId: string,
  edit: () => Promise<unknown>,
  env: Record<string, string>,
  prompt = "Please change the constants.",
): Promise<Record<string, unknown> | null> {
  const session = { sessionId, cwd: sb.repo.root, prompt };
  const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
  await edit();
  const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
  assert.equal(s.code, 0, s.stderr);
  return stopDecision(s.stdout);
}

for (const flag of ["--assume-unchanged", "--skip-worktree"]) {
  Deno.test(`claude Stop gate reviews an edit to a file marked ${flag}`, async () => {
    const sb = await makeGateSandbox({ remote: false });
    try {
      const env = scenario(await blockingScenario(sb));
      const decision = await turn(sb, `hide${flag}`, async () => {
        await gitOk(sb, ["update-index", flag, APP]);
        await addTokenLine(sb.repo.root, "HIDDEN");
      }, env);
      assert.equal(await providerCalls(sb), 1, "the hidden edit reached the model");
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /Exported constant breaks callers/);
    } finally {
      await sb.cleanup();
    }
  });
}
