/**
 * End to end: the gates with a council (`council: ["claude", "codex"]`) where one member's call
 * fails and the other approves. The push and the stop must not read as plainly approved: the part
 * was not reviewed by the whole council, so the gate says it was only partially reviewed and names
 * the member that did not answer, and a re-push asks that member again.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  APP,
  commitToken,
  gitOk,
  makeGateSandbox,
  promptPayload,
  readFakeLog,
  runCli,
  runHook,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";
import { join } from "node:path";

const COUNCIL = { council: ["claude", "codex"], council_policy: "all" };
const CODEX_FAILS = {
  REVIEW_GATE_FAKE_SCENARIO: "valid",
  REVIEW_GATE_FAKE_SCENARIO_CODEX: "error",
};

Deno.test("pre-push with a council: a member that fails makes the push partially reviewed, naming it", async () => {
  const sb = await makeGateSandbox();
  try {
    await writeRepoConfig(sb, COUNCIL);
    await gitOk(sb, ["add", "-A"]);
    await gitOk(sb, ["commit", "-qm", "council"]);
    await gitOk(sb, ["push", "-q", "--no-verify", "origin", "main"]);
    const base = (await gitOk(sb, ["rev-parse", "HEAD"])).trim();
    const head = (await commitToken(sb, "tokenCouncil")).trim();
    const line = `refs/heads/main ${head} refs/heads/main ${base}\n`;
    const push = () =>
      runCli(sb, ["hook", "pre-push", "origin", sb.remote], { stdin: line, env: CODEX_FAILS });
    const first = await push();
    const out = first.stdout + first.stderr;
    assert.doesNotMatch(out, /refs\/heads\/main \(1 commit\): approved\n/, out);
    assert.match(out, /PARTIALLY reviewed/, out);
    assert.match(out, /not reviewed by codex/, out);
    const calls = (await readFakeLog(sb)).filter((c) => c.cli === "codex").length;
    const again = await push();
    assert.match(again.stdout + again.stderr, /not reviewed by codex/);
    assert.ok(
      (await readFakeLog(sb)).filter((c) => c.cli === "codex").length > calls,
      "the failed member is asked again, not served from a cache",
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop gate with a council: a member that fails is named, never a silent allow", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, COUNCIL);
    await gitOk(sb, ["add", "-A"]);
    await gitOk(sb, ["commit", "-qm", "council"]);
    const o = { sessionId: "council-stop", cwd: sb.repo.root };
    await runHook(sb, "claude-prompt", promptPayload(o));
    await Deno.writeTextFile(
      join(sb.repo.root, APP),
      (await Deno.readTextFile(join(sb.repo.root, APP))) + "export const ok3 = 3;\n",
    );
    const stop = await runHook(sb, "claude-stop", stopPayload(o), { env: CODEX_FAILS });
    const out = stop.stdout + stop.stderr;
    assert.notEqual(out.trim(), "", "not a silent allow");
    assert.match(out, /not reviewed by codex/, out);
  } finally {
    await sb.cleanup();
  }
});
