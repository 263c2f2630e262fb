/**
 * A push during an agent turn whose start is unknown (lib/gates/pre_push/reviewer_env.ts): the
 * agent moves `XDG_STATE_HOME` or `HOME` for its `git push`, so the user's key is not found and the
 * turn's record does not verify. The push's own reviewer variables are held back (the list an open
 * turn holds back), a review that cannot run blocks, and the push names what it held back and the
 * moved key. Real `git push` into a local bare remote through the installed hook, with the fake.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  FAKE_BIN,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  runHook,
  scenario,
} from "./_gates.ts";

/** The agent's own "reviewer": the bundled fake behind a wrapper, fixed to approve. */
async function agentReviewer(dir: string): Promise<string> {
  const path = join(dir, "agent-claude");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nREVIEW_GATE_FAKE_SCENARIO=valid exec '${join(FAKE_BIN, "claude")}' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** Open a turn, commit a change the fake blocks, and push it with `extra` in the environment. */
async function pushDuringTurn(
  sb: GateSandbox,
  extra: (dir: string) => Promise<Record<string, string>>,
): Promise<{ code: number; stderr: string; pushed: boolean }> {
  const inst = await runCli(sb, ["install", "--git"]);
  assert.equal(inst.code, 0, inst.stderr);
  const env = scenario(await blockingScenario(sb));
  const p = await runHook(
    sb,
    "claude-prompt",
    promptPayload({ sessionId: "s1", cwd: sb.repo.root }),
    { env },
  );
  assert.equal(p.code, 0, p.stderr);
  await addTokenLine(sb.repo.root, "PUSHBUG");
  await gitOk(sb, ["commit", "-q", "-am", "bug"]);
  const r = await runGit(sb, ["push", "origin", "main"], {
    env: { ...env, ...await extra(sb.dir) },
  });
  const pushed =
    (await remoteRef(sb, "refs/heads/main")) === (await gitOk(sb, ["rev-parse", "HEAD"]));
  return { code: r.code, stderr: r.stderr, pushed };
}

Deno.test("push, key moved: the agent's REVIEW_GATE_PROVIDER and CLAUDE_BIN do not approve", async () => {
  const sb = await makeGateSandbox();
  try {
    const r = await pushDuringTurn(sb, async (dir) => {
      await Deno.mkdir(join(dir, "moved-state"), { recursive: true });
      return {
        XDG_STATE_HOME: join(dir, "moved-state"),
        REVIEW_GATE_PROVIDER: "claude",
        REVIEW_GATE_CLAUDE_BIN: await agentReviewer(dir),
      };
    });
    assert(!r.pushed, r.stderr);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(await providerCalls(sb), 0, "the agent's reviewer ran");
    assert.doesNotMatch(r.stderr, /approved/);
    const text = r.stderr.replace(/\s+/g, " ");
    assert.match(text, /whose start is unknown/);
    assert.match(text, /REVIEW_GATE_CLAUDE_BIN/);
    assert.match(text, /REVIEW_GATE_PROVIDER/);
    assert.match(
      text,
      /key \S+moved-state\/review-gate\/key is not usable \(it does not exist\): XDG_STATE_HOME=/,
    );
    assert.match(text, /NOT reviewed/);
  } finally {
    await sb.cleanup();
  }
});

for (const moved of ["HOME", "XDG_STATE_HOME"]) {
  Deno.test(`push, ${moved} moved: REVIEW_GATE_FAIL_ON=critical does not loosen`, async () => {
    const sb = await makeGateSandbox();
    try {
      const r = await pushDuringTurn(sb, async (dir) => {
        await Deno.mkdir(join(dir, "moved"), { recursive: true });
        return { [moved]: join(dir, "moved"), REVIEW_GATE_FAIL_ON: "critical" };
      });
      assert(!r.pushed, r.stderr);
      assert.equal(r.code, 1, r.stderr);
      const text = r.stderr.replace(/\s+/g, " ");
      assert(!/non-blocking finding/.test(text), text);
      assert.match(text, /REVIEW_GATE_FAIL_ON/);
      assert.match(text, new RegExp(`${moved}=\\S+/moved`));
    } finally {
      await sb.cleanup();
    }
  });
}
