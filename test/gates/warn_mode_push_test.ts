/**
 * End to end: warn first, block later (README "Warn first") on the pre-push gate. Real `git push`
 * into a local bare remote through the installed hook, with the fake provider: in warn mode a push
 * with blocking findings goes through, says what it would have blocked, and its ledger line says
 * `would_block`; a re-push answered from the verdict memo says it again (never replayed silently by
 * the hook's stamp). Trust: warn mode loosens the gate, so it counts only from the user's config or
 * the `.review-gate.json` the remote already has — a pushed commit or the worktree that sets it is
 * not applied, and the push still blocks.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  blockingScenario,
  commitToken,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeRepoConfig,
  writeUserConfig,
} from "./_gates.ts";
import { pushSandbox, resetFeature } from "./_push.ts";

const WARN = { gates: { pre_push: { mode: "warn" } } };

async function installed(): Promise<GateSandbox> {
  const sb = await makeGateSandbox();
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  return sb;
}

/**
 * Run the `gate block` command a would-block push names as the user would (the words after "To
 * have such findings block: review-gate"), then check that the next push with a blocking finding
 * is blocked.
 */
async function flipByHint(sb: GateSandbox, stderr: string, env: Record<string, string>) {
  const hint = /To have such findings block: review-gate (gate block pre-push(?: --user)?)( \(|\n)/
    .exec(stderr);
  assert.ok(hint, stderr);
  const flipped = await runCli(sb, hint[1].split(" "));
  assert.equal(flipped.code, 0, flipped.stderr);
  await commitToken(sb, "AFTER_FLIP");
  const next = await runGit(sb, ["push", "origin", "main"], { env });
  assert.notEqual(next.code, 0, next.stderr);
  assert.match(next.stderr, /push blocked: 1 blocking finding/);
}

/** The ledger's lines (records.jsonl), parsed. */
async function ledger(sb: GateSandbox): Promise<Record<string, unknown>[]> {
  const path = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

Deno.test("pre-push warn mode: the push goes through, says what it would block, and the ledger has would_block", async () => {
  const sb = await installed();
  try {
    await writeUserConfig(sb, WARN);
    const pushed = await commitToken(sb, "WARNED");
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await remoteRef(sb, "refs/heads/main"), pushed, "the push went through");
    assert.match(
      r.stderr,
      /review-gate: would block: 1 blocking finding in refs\/heads\/main \(1 commit\)/,
    );
    assert.match(r.stderr, /\[high\] src\/app\.ts:1 Exported constant breaks callers/);
    assert.match(r.stderr, /accept it: review-gate ack [0-9a-f]{12}/);
    assert.match(r.stderr, /Full review: .*review\.md/);
    assert.match(r.stderr, /gates\.pre_push\.mode is "warn" in your user config/);
    // warn mode came from the user config: the hint edits that one
    assert.match(r.stderr, /To have such findings block: review-gate gate block pre-push --user\n/);
    assert.doesNotMatch(r.stderr, /push blocked/);
    const [line] = await ledger(sb);
    assert.equal(line.gate, "pre-push");
    assert.equal(line.mode, "warn");
    assert.equal(line.blocking, false, "the push was not blocked");
    assert.equal(line.would_block, true);
    assert.equal(line.would_block_findings, 1);
    // the run folder says it too
    const run = JSON.parse(
      await Deno.readTextFile(
        join(sb.repo.root, ".git", "review-gate", "runs", String(line.id), "run.json"),
      ),
    );
    assert.equal(run.gateMode, "warn");
    assert.equal(run.wouldBlock, 1);
    // and its review.md says what warn mode did, not "blocking"
    const markdown = await Deno.readTextFile(
      join(sb.repo.root, ".git", "review-gate", "runs", String(line.id), "review.md"),
    );
    assert.match(markdown, /- Gate: warn mode — 1 finding would have blocked; the gate let/);
    assert.match(markdown, /### HIGH \(would block: warn mode\): Exported constant/);
    assert.doesNotMatch(markdown, /\(blocking\)/);
    // re-rendered for CI, the run says the same in every format
    const github = await runCli(sb, ["show", String(line.id), "--format", "github"]);
    assert.equal(github.code, 0, github.stderr);
    assert.match(
      github.stdout,
      /::warning .*title=review-gate \[high%2C would block \(warn mode\)\]/,
    );
    assert.match(github.stdout, /1 finding\(s\), 1 would block \(warn mode\)/);
    assert.doesNotMatch(github.stdout, /::error|[ ,]blocking[\],]|\d blocking/);
    const sarif = JSON.parse(
      (await runCli(sb, ["show", String(line.id), "--format", "sarif"])).stdout,
    );
    assert.equal(sarif.runs[0].results[0].level, "warning");
    assert.equal(sarif.runs[0].results[0].properties.wouldBlock, true);
    const json = JSON.parse((await runCli(sb, ["show", String(line.id), "--json"])).stdout);
    assert.deepEqual([json.blockingFindings, json.wouldBlockFindings], [0, 1]);

    // an approving review in warn mode is an ordinary pass, recorded in warn mode
    await commitToken(sb, "CLEAN");
    const clean = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(clean.code, 0, clean.stderr);
    assert.doesNotMatch(clean.stderr, /would block/);
    const last = (await ledger(sb)).at(-1)!;
    assert.equal(last.mode, "warn");
    assert.equal(last.would_block, undefined);
    await flipByHint(sb, r.stderr, scenario(await blockingScenario(sb)));
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push warn mode: a re-push from the verdict memo says would block again, never replayed", async () => {
  const { sb, started, push } = await pushSandbox();
  try {
    // the low finding of _push.ts blocks under fail_on low
    await writeUserConfig(sb, { fail_on: "low", gates: { pre_push: { mode: "warn" } } });
    await gitOk(sb, ["switch", "-q", "-c", "feature"]);
    await commitToken(sb, "MEMO");
    const first = await push(["feature"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /would block: 1 blocking finding in refs\/heads\/feature/);
    await resetFeature(sb);
    const again = await push(["feature"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stderr,
      /would block: 1 blocking finding in refs\/heads\/feature \(1 commit\) \(cached verdict, no model call\)/,
    );
    assert.equal(await started(), 2, "review-gate answered the re-push itself (no stamp replay)");
    assert.equal(await providerCalls(sb), 1, "the memo answered");
    const lines = (await Deno.readTextFile(
      join(sb.repo.root, ".git", "review-gate", "records.jsonl"),
    )).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.deepEqual(
      lines.map((l) => [l.cached, l.mode, l.blocking, l.would_block, l.would_block_findings]),
      [[false, "warn", false, true, 1], [true, "warn", false, true, 1]],
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push warn mode from a pushed commit or the worktree is not applied: the push still blocks", async () => {
  const sb = await installed();
  try {
    const env = scenario(await blockingScenario(sb));
    // a pushed commit that sets warn mode, with a bug
    await writeRepoConfig(sb, WARN);
    await gitOk(sb, ["add", ".review-gate.json"]);
    await commitToken(sb, "PUSHED_WARN");
    const pushed = await runGit(sb, ["push", "origin", "main"], { env });
    assert.notEqual(pushed.code, 0, pushed.stderr);
    assert.match(pushed.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
    assert.match(pushed.stderr, /not applied to it: .*\.review-gate\.json \(pushed\)/);
    assert.doesNotMatch(pushed.stderr, /would block/);

    // the same setting only in the worktree (uncommitted)
    await gitOk(sb, ["reset", "-q", "--hard", "origin/main"]);
    await commitToken(sb, "WORKTREE_WARN");
    await writeRepoConfig(sb, WARN);
    const worktree = await runGit(sb, ["push", "origin", "main"], { env });
    assert.notEqual(worktree.code, 0, worktree.stderr);
    assert.match(worktree.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
    assert.match(
      worktree.stderr,
      /not applied to it: \.review-gate\.json in the worktree \(gates\.pre_push\.mode\)/,
    );

    // once the remote has it (landed by the team), warn mode applies
    await gitOk(sb, ["reset", "-q", "--hard", "origin/main"]);
    await writeRepoConfig(sb, WARN);
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "team: warn first"]);
    const landed = await runGit(sb, ["push", "origin", "main"], { env: { REVIEW_GATE: "0" } });
    assert.equal(landed.code, 0, landed.stderr);
    await commitToken(sb, "ON_REMOTE");
    const warned = await runGit(sb, ["push", "origin", "main"], { env });
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /would block: 1 blocking finding in refs\/heads\/main/);
    // warn mode came from the team's file: the hint edits that one, not the user config
    assert.match(
      warned.stderr,
      /gates\.pre_push\.mode is "warn" in the \.review-gate\.json the remote has/,
    );
    assert.match(
      warned.stderr,
      /To have such findings block: review-gate gate block pre-push \(your pushes block at once; commit \.review-gate\.json and push it so everyone's do\)\n/,
    );
    assert.doesNotMatch(warned.stderr, /--user/);

    // the hint's command writes "block" to the worktree's file, stricter than the remote's warn: it
    // applies to the next push at once
    await flipByHint(sb, warned.stderr, env);
  } finally {
    await sb.cleanup();
  }
});
