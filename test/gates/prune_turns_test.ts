/**
 * End to end: `review-gate prune` never drops a turn no Stop answered for (README "Where runs are
 * stored"). A session whose last Stop blocked keeps its turn record and anchor whatever their age,
 * named in the kept list with the reason, so the resumed session's Stop still reviews (and blocks
 * on) the work from the turn's baseline; a session whose Stop answered is pruned as before. And a
 * Stop whose session record is gone says NOT reviewed, never passes silently.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  forgetTurns,
  makeGateSandbox,
  promptPayload,
  runCli,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

const DAY = 86_400_000;

/** Make every file of `dir` `ms` old. */
async function ageAll(dir: string, ms: number): Promise<void> {
  const when = new Date(Date.now() - ms);
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) await Deno.utime(join(dir, entry.name), when, when);
  }
}

Deno.test("prune keeps a blocked turn's record and anchor; the resumed session's Stop still blocks", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const sessions = join(root, ".git", "review-gate", "sessions");
  const anchors = join(sb.env.HOME, ".local", "state", "review-gate", "anchors");
  try {
    const env = scenario(await blockingScenario(sb));
    // an answered session: pruned as before
    const done = { sessionId: "sess-answered", cwd: root };
    assert.equal((await runHook(sb, "claude-prompt", promptPayload(done))).code, 0);
    const allowed = await runHook(sb, "claude-stop", stopPayload(done), { env: scenario("valid") });
    assert.equal(stopDecision(allowed.stdout)?.decision, undefined, allowed.stdout);
    await forgetTurns(sb); // the next session starts on its own (no take-over)
    assert.equal((await runHook(sb, "claude-prompt", promptPayload(done))).code, 0);
    assert.equal(
      (await runHook(sb, "claude-stop", stopPayload(done), { env: scenario("valid") })).code,
      0,
    );

    const session = { sessionId: "sess-blocked", cwd: root };
    assert.equal((await runHook(sb, "claude-prompt", promptPayload(session))).code, 0);
    await addTokenLine(root, "BLOCKED");
    const first = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(stopDecision(first.stdout)?.decision, "block", first.stdout);

    await ageAll(sessions, 40 * DAY);
    await ageAll(anchors, 40 * DAY);
    const pruned = await runCli(sb, ["prune", "--json"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    const out = JSON.parse(pruned.stdout);
    const kept = out.kept as { kind: string; path: string; reason: string }[];
    const record = kept.find((k) => k.kind === "turn records" && k.path.includes("sess-blocked"));
    assert.ok(record, pruned.stdout);
    assert.match(record.reason, /its last Stop blocked/);
    const anchor = kept.find((k) => k.kind === "anchors" && k.path.includes("sess-blocked"));
    assert.ok(anchor, pruned.stdout);
    assert.match(anchor.reason, /its last Stop blocked/);
    await Deno.stat(join(sessions, "sess-blocked.json"));
    await Deno.stat(join(anchors, "sess-blocked.json"));
    // the answered session went
    assert.equal(kept.some((k) => k.path.includes("sess-answered")), false, pruned.stdout);
    await assert.rejects(Deno.stat(join(sessions, "sess-answered.json")));

    // the session resumes: its Stop still reviews the work its last Stop blocked
    assert.equal((await runHook(sb, "claude-prompt", promptPayload(session))).code, 0);
    const resumed = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(stopDecision(resumed.stdout)?.decision, "block", resumed.stdout);
    assert.match(String(stopDecision(resumed.stdout)?.reason), /Exported constant breaks callers/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a Stop whose session record and anchor are gone says NOT reviewed, never passes silently", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const env = scenario(await blockingScenario(sb));
    const session = { sessionId: "sess-gone", cwd: root };
    assert.equal((await runHook(sb, "claude-prompt", promptPayload(session))).code, 0);
    await addTokenLine(root, "GONE");
    await forgetTurns(sb);
    const stop = await runHook(sb, "claude-stop", stopPayload(session), { env });
    assert.equal(stop.code, 0, stop.stderr);
    const decision = stopDecision(stop.stdout);
    assert.ok(decision, "the Stop said something");
    assert.match(
      String(decision.systemMessage ?? decision.reason),
      /NOT reviewed[\s\S]*its start was not seen/,
    );
  } finally {
    await sb.cleanup();
  }
});
