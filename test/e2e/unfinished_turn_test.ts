/**
 * End to end: a provider that exits 0 after an approving message but never finishes its turn —
 * codex without `turn.completed`, claude without its `result`, vibe whose last message is a tool
 * result — gives no answer. `review` says NOT reviewed (provider-error) and a gate that lets the
 * change through says NOT reviewed; neither ever says "approved". Driven through the fake
 * provider's `unfinished` step (fixtures/fake/README.md).
 *
 * @module
 */
import assert from "node:assert/strict";
import { lastRun, makeSandbox, type Provider, PROVIDERS, readFakeLog, runCli } from "./_cli.ts";
import {
  addTokenLine,
  commitToken,
  gitOk,
  makeGateSandbox,
  promptPayload,
  remoteRef,
  runHook,
  scenario,
  stopPayload,
} from "../gates/_gates.ts";

/** What each adapter says about a turn that never finished. */
const UNFINISHED = {
  claude: /Claude Code printed no result event \(exit code 0\)/,
  codex:
    /Codex ended without completing its turn \(exit code 0; an agent_message but no turn\.completed after it\)/,
  vibe: /Vibe ended without finishing its turn \(exit code 0; its last message is a tool result\)/,
  qwen: /Qwen Code printed no result event \(exit code 0\)/,
  gemini: /Gemini CLI printed no "response" \(exit code 0\)/,
  copilot: /Copilot printed no result event \(exit code 0\)/,
  opencode:
    /OpenCode ended without finishing its turn \(exit code 0; its last step asks for a tool\)/,
} satisfies Record<Provider, RegExp>;

for (const provider of PROVIDERS) {
  Deno.test(`review --provider ${provider}: an approving message in an unfinished turn is NOT reviewed`, async () => {
    const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
    try {
      await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
      const result = await runCli(sandbox, ["review", "--provider", provider], {
        scenario: "unfinished",
      });
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assert.ok(
        result.stdout.startsWith("review-gate: NOT reviewed — provider-error"),
        result.stdout,
      );
      assert.match(result.stdout, UNFINISHED[provider]);
      assert.doesNotMatch(result.stdout + result.stderr, /approved/);
      const log = await readFakeLog(sandbox);
      assert.deepEqual(log.map((l) => l.step), ["unfinished"], "called once, never resumed");
      const run = await lastRun(sandbox);
      assert.equal(run.run.status, "provider-error");
      assert.ok(!run.files.includes("answer.json") && !run.files.includes("review.md"));
    } finally {
      await sandbox.cleanup();
    }
  });
}

Deno.test("pre-push with codex: a turn without turn.completed lets the push through as NOT reviewed, never approved", async () => {
  const sb = await makeGateSandbox();
  try {
    const base = await gitOk(sb, ["rev-parse", "HEAD"]);
    const head = await commitToken(sb, "UNFINISHED");
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const r = await runCli(sb, ["hook", "pre-push", "origin", sb.remote], {
      stdin: `refs/heads/main ${head} refs/heads/main ${base}\n`,
      env: { ...scenario("unfinished"), REVIEW_GATE_PROVIDER: "codex" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /NOT reviewed/);
    assert.match(r.stderr, /Codex ended without completing its turn/);
    assert.doesNotMatch(r.stderr, /approved/);
    assert.equal(await remoteRef(sb, "main"), base, "the hook alone pushes nothing");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the Stop gate with codex: a turn without turn.completed is NOT reviewed, never approved", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const session = { sessionId: "sess-unfinished", cwd: sb.repo.root };
    const env = { ...scenario("unfinished"), REVIEW_GATE_PROVIDER: "codex" };
    const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
    assert.equal(p.code, 0, p.stderr);
    await addTokenLine(sb.repo.root, "UNFINISHED_TURN");
    const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(s.code, 0, s.stderr);
    assert.match(s.stdout, /NOT reviewed/);
    assert.match(s.stdout, /Codex ended without completing its turn/);
    assert.doesNotMatch(s.stdout + s.stderr, /approved/);
  } finally {
    await sb.cleanup();
  }
});
