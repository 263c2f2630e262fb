/**
 * End-to-end: the bundled `first_changed_line.json` scenario of the fake provider (README.md "Try
 * it") blocks any change a user gives it, at the first line the change adds — and follows the diff
 * when it moves, where a hand-written answer for exact lines would go stale; and the README's flow
 * with it gets through: a blocked push, acknowledged, the acknowledgement landed first, then the
 * branch on top of it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { FIXTURES, makeSandbox, runCli } from "./_cli.ts";
import { addTokenLine, gitOk, makeGateSandbox, remoteRef, runGit } from "../gates/_gates.ts";

const SCENARIO = `${FIXTURES}/fake/scenarios/first_changed_line.json`;

Deno.test("the first-changed-line scenario blocks at the first added line, wherever the diff moves", async () => {
  const sandbox = await makeSandbox({
    "README.md": "# demo\n",
    "src/app.ts": "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
  });
  try {
    await sandbox.repo.write(
      "src/app.ts",
      "export const a = 1;\nexport const b = 20;\nexport const c = 3;\n",
    );
    const first = await runCli(sandbox, ["review", "--no-cache"], { scenario: SCENARIO });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.match(first.stdout, /needs attention/);
    assert.match(first.stdout, /\[HIGH\][^\n]*\n?[^\n]*src\/app\.ts:2\b/);

    // the change moves: two new lines on top of another file come first in the diff (README.md < src/)
    await sandbox.repo.write("README.md", "# demo\n\nIntro.\n");
    const moved = await runCli(sandbox, ["review", "--no-cache"], { scenario: SCENARIO });
    assert.equal(moved.code, 1, moved.stdout + moved.stderr);
    assert.match(moved.stdout, /README\.md:2\b/);

    // a change that adds no line is approved
    await sandbox.repo.write("README.md", "# demo\n");
    await sandbox.repo.write("src/app.ts", "export const a = 1;\nexport const c = 3;\n");
    const removed = await runCli(sandbox, ["review", "--no-cache"], { scenario: SCENARIO });
    assert.equal(removed.code, 0, removed.stdout + removed.stderr);
    assert.match(removed.stdout, /approved/);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("README's flow with the first-changed-line scenario: a blocked push, acknowledged and landed, goes through", async () => {
  const sb = await makeGateSandbox();
  const env = { REVIEW_GATE_FAKE_SCENARIO: SCENARIO };
  try {
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    await gitOk(sb, ["switch", "-q", "-c", "try"]);
    await addTokenLine(sb.repo.root, "TRY_IT");
    await gitOk(sb, ["commit", "-qam", "try"]);
    const blocked = await runGit(sb, ["push", "origin", "try"], { env });
    assert.notEqual(blocked.code, 0, blocked.stderr);
    assert.match(blocked.stderr, /push blocked: 1 blocking finding/);
    const id = /review-gate ack ([0-9a-f]{12}) --reason/.exec(blocked.stderr)?.[1];
    assert.ok(id, blocked.stderr);

    const ack = await runCli(sb, ["ack", id, "--reason", "just trying review-gate"], { env });
    assert.equal(ack.code, 0, ack.stderr);
    // the worktree's acknowledgement counts for a review by hand: the acks file is not flagged
    const byHand = await runCli(sb, ["review", "--base", "main"], { env });
    assert.equal(byHand.code, 0, byHand.stdout + byHand.stderr);
    assert.doesNotMatch(byHand.stdout, /acks\.json:\d/);

    // land the acknowledgement first: a push that adds nothing but it is approved
    await gitOk(sb, ["switch", "-q", "main"]);
    await gitOk(sb, ["add", ".review-gate/acks.json"]);
    await gitOk(sb, ["commit", "-qm", "Acknowledge a finding"]);
    const landed = await runGit(sb, ["push", "origin", "main"], { env });
    assert.equal(landed.code, 0, landed.stderr);
    assert.match(landed.stderr, /refs\/heads\/main \(1 commit\): approved/);
    assert.doesNotMatch(landed.stderr, /acks\.json:1/);

    // then the branch on top of it: its finding is acknowledged by what the remote has
    await gitOk(sb, ["switch", "-q", "try"]);
    await gitOk(sb, ["rebase", "-q", "main"]);
    const through = await runGit(sb, ["push", "origin", "try"], { env });
    assert.equal(through.code, 0, through.stderr);
    assert.match(
      through.stderr,
      /refs\/heads\/try \(1 commit\): needs-attention, 1 acknowledged finding/,
    );
    assert.equal(await remoteRef(sb, "refs/heads/try"), await gitOk(sb, ["rev-parse", "HEAD"]));
  } finally {
    await sb.cleanup();
  }
});
