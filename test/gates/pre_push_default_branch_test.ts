/**
 * End to end: a loosening the repository's config grants (warn mode, the gate disabled, a higher
 * `fail_on`) counts for a push only when the remote's default branch has it too (README "Warn
 * first", "Team rules" → "Where the rules are read from"). A branch cut from a commit of the warn
 * era, or an orphan branch whose first push carried warn mode, is judged by the block mode main
 * switched back to, and the push says why; a push onto main itself while main says warn still
 * warns. Real `git push` into a local bare remote through the installed hook, fake provider.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  blockingScenario,
  commitToken,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeRepoConfig,
} from "./_gates.ts";

const WARN = { gates: { pre_push: { mode: "warn" } } };

async function installed(): Promise<GateSandbox> {
  const sb = await makeGateSandbox();
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  return sb;
}

/** Commit `.review-gate.json` (`null`: remove it) on the current branch and land it unreviewed. */
async function land(sb: GateSandbox, config: unknown | null, ref: string): Promise<void> {
  await writeRepoConfig(sb, config);
  await gitOk(sb, ["add", "-A", "."]);
  await gitOk(sb, ["commit", "-q", "-m", `team: config ${JSON.stringify(config)}`]);
  const r = await runGit(sb, ["push", "-q", "origin", `HEAD:${ref}`], {
    env: { REVIEW_GATE: "0" },
  });
  assert.equal(r.code, 0, r.stderr);
}

Deno.test("pre-push: a branch cut in the warn era is blocked once main switched back to block, and says why", async () => {
  const sb = await installed();
  try {
    const env = scenario(await blockingScenario(sb));
    await land(sb, WARN, "refs/heads/main");
    await gitOk(sb, ["branch", "warn-era"]);
    await land(sb, null, "refs/heads/main"); // main back to block (the default)
    await gitOk(sb, ["switch", "-q", "warn-era"]);
    const pushed = await commitToken(sb, "OLD_BRANCH");
    const r = await runGit(sb, ["push", "origin", "warn-era"], { env });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/warn-era/);
    assert.doesNotMatch(r.stderr, /would block/);
    assert.match(
      r.stderr,
      /gates\.pre_push\.mode "warn" .*not applied: the remote's default branch refs\/heads\/main \([0-9a-f]{12}\) does not have it/,
    );
    assert.equal(await remoteRef(sb, "refs/heads/warn-era"), null, "the push was stopped");

    // the gate disabled in the branch's base does not switch it off either
    await gitOk(sb, ["switch", "-q", "main"]);
    await gitOk(sb, ["reset", "-q", "--hard", "origin/main"]);
    await gitOk(sb, ["switch", "-q", "-c", "off-era"]);
    await land(sb, { gates: { pre_push: { enabled: false } } }, "refs/heads/off-era");
    await commitToken(sb, "OFF_BRANCH");
    const off = await runGit(sb, ["push", "origin", "off-era"], { env });
    assert.notEqual(off.code, 0, off.stderr);
    assert.match(off.stderr, /push blocked: 1 blocking finding in refs\/heads\/off-era/);
    assert.match(off.stderr, /gates\.pre_push\.enabled false .*not applied/);
    assert.notEqual(pushed, "");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: an orphan branch whose config says warn is blocked", async () => {
  const sb = await installed();
  try {
    const env = scenario(await blockingScenario(sb));
    await gitOk(sb, ["switch", "-q", "--orphan", "loose"]);
    await Deno.mkdir(`${sb.repo.root}/src`, { recursive: true });
    await Deno.writeTextFile(`${sb.repo.root}/src/app.ts`, "export const a = 1;\n");
    await land(sb, WARN, "refs/heads/loose");
    await commitToken(sb, "ORPHAN");
    const r = await runGit(sb, ["push", "origin", "loose"], { env });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/loose/);
    assert.match(r.stderr, /gates\.pre_push\.mode "warn" .*not applied/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: main's own warn mode applies to a branch cut from it; a remote without a default branch blocks", async () => {
  const sb = await installed();
  try {
    const env = scenario(await blockingScenario(sb));
    await land(sb, WARN, "refs/heads/main");
    await gitOk(sb, ["switch", "-q", "-c", "topic"]);
    await commitToken(sb, "TOPIC");
    const topic = await runGit(sb, ["push", "origin", "topic"], { env });
    assert.equal(topic.code, 0, topic.stderr);
    assert.match(topic.stderr, /would block: 1 blocking finding in refs\/heads\/topic/);
    assert.doesNotMatch(topic.stderr, /not applied/);

    // a remote whose HEAD names no branch with commits: the default branch cannot be established,
    // so the stricter value applies, and the push says so
    await gitOk(sb, ["symbolic-ref", "HEAD", "refs/heads/gone"], sb.remote);
    await commitToken(sb, "NO_DEFAULT");
    const unknown = await runGit(sb, ["push", "origin", "topic"], { env });
    assert.notEqual(unknown.code, 0, unknown.stderr);
    assert.match(unknown.stderr, /push blocked: 1 blocking finding in refs\/heads\/topic/);
    assert.match(
      unknown.stderr,
      /mode "warn" — not applied: the remote's default branch could not be established \(the remote's HEAD names no branch\)/,
    );
  } finally {
    await sb.cleanup();
  }
});
