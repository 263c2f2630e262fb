/**
 * End to end: `review-gate stats` gives a team the evidence to flip a gate from warn to block
 * (README "Warn first"): real pushes through the installed pre-push hook with the fake provider — a
 * blocked push in block mode, then in warn mode a push that would block, a finding the team then
 * acknowledges (landed on the remote, so the next push with it is let through on its merits) and a
 * clean push — and the exact numbers per gate and mode, in the table and in `--json`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  APP,
  APP_TEXT,
  blockingScenario,
  commitToken,
  gitOk,
  makeGateSandbox,
  runCli,
  runGit,
  scenario,
  writeUserConfig,
} from "./_gates.ts";

Deno.test("stats: would-have-blocked and acknowledged rates per gate and mode, exact", async () => {
  const sb = await makeGateSandbox();
  const root = sb.repo.root;
  try {
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    const blocking = scenario(await blockingScenario(sb));
    const skip = { REVIEW_GATE: "0" };

    // block mode: the push is blocked (then put aside)
    await commitToken(sb, "BLOCKED");
    const blocked = await runGit(sb, ["push", "origin", "main"], { env: blocking });
    assert.notEqual(blocked.code, 0, blocked.stderr);
    await gitOk(sb, ["reset", "-q", "--hard", "origin/main"]);

    // warn mode: the same kind of push goes through and would block
    await writeUserConfig(sb, { gates: { pre_push: { mode: "warn" } } });
    await commitToken(sb, "A");
    const warned = await runGit(sb, ["push", "origin", "main"], { env: blocking });
    assert.equal(warned.code, 0, warned.stderr);
    const fingerprint = /accept it: review-gate ack ([0-9a-f]{12})/.exec(warned.stderr)?.[1];
    assert.ok(fingerprint, warned.stderr);

    // the team accepts the finding and lands the acknowledgement
    const ack = await runCli(sb, ["ack", fingerprint, "--reason", "the constant is meant"]);
    assert.equal(ack.code, 0, ack.stderr);
    await gitOk(sb, ["add", ".review-gate/acks.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "ack"]);
    await Deno.writeTextFile(join(root, APP), APP_TEXT);
    await gitOk(sb, ["commit", "-q", "-am", "drop the line"]);
    assert.equal((await runGit(sb, ["push", "origin", "main"], { env: skip })).code, 0);

    // the same line again: acknowledged, so nothing would block
    await addTokenLine(root, "A");
    await gitOk(sb, ["commit", "-q", "-am", "the line again"]);
    const acked = await runGit(sb, ["push", "origin", "main"], { env: blocking });
    assert.equal(acked.code, 0, acked.stderr);
    assert.match(acked.stderr, /1 acknowledged finding/);
    assert.doesNotMatch(acked.stderr, /would block/);

    // and a clean push
    await commitToken(sb, "CLEAN");
    const clean = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(clean.code, 0, clean.stderr);

    const json = await runCli(sb, ["stats", "--json"]);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).modes, [
      {
        gate: "pre-push",
        mode: "block",
        reviews: 1,
        blocked: 1,
        wouldBlock: 0,
        acknowledged: 0,
        blockRate: 1,
        acknowledgedRate: 0,
      },
      {
        gate: "pre-push",
        mode: "warn",
        reviews: 3,
        blocked: 0,
        wouldBlock: 1,
        acknowledged: 1,
        blockRate: 1 / 3,
        acknowledgedRate: 1 / 3,
      },
    ]);
    const text = await runCli(sb, ["stats"]);
    assert.equal(text.code, 0, text.stderr);
    // the modes section ends where the skips section (the REVIEW_GATE=0 push above) begins
    const from = text.stdout.indexOf("gates by mode");
    const table = text.stdout.slice(from, text.stdout.indexOf("skipped without a review", from));
    assert.equal(
      table,
      "gates by mode (reviews that gave a verdict; acknowledged: with a finding the team accepted):\n" +
        "  gate      mode   reviews   blocked  would block  acknowledged\n" +
        "  pre-push  block        1  1 (100%)            -        0 (0%)\n" +
        "  pre-push  warn         3    0 (0%)      1 (33%)       1 (33%)\n",
    );
    // the main table's blocks count the push that was blocked, not the one warn mode let through
    assert.equal(JSON.parse(json.stdout).total.blocks, 1);
  } finally {
    await sb.cleanup();
  }
});
