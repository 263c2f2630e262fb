/**
 * End to end: real `git push` of a feature branch that merged an already-pushed `main` reviews only
 * the branch's own work (what the fake provider was sent), a merge whose base conflicts falls back
 * to the whole range with a note, and one push reviews at most 20 ref updates.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addedLines,
  commitToken,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  providerCalls,
  readFakeLog,
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeRepoConfig,
} from "./_gates.ts";

/** Write `path` with one line carrying `token` and commit it; returns the commit id. */
async function commitNewFile(sb: GateSandbox, path: string, token: string): Promise<string> {
  await Deno.writeTextFile(join(sb.repo.root, path), `export const t = "${token}";\n`);
  await gitOk(sb, ["add", "--", path]);
  await gitOk(sb, ["commit", "-q", "-m", `add ${token}`]);
  return await gitOk(sb, ["rev-parse", "HEAD"]);
}

/** main gets `token` (in `path`) and is pushed without a review; back on `feature` after. */
async function advanceMain(sb: GateSandbox, path: string, token: string): Promise<void> {
  await gitOk(sb, ["switch", "-q", "main"]);
  if (path === "src/app.ts") await commitToken(sb, token);
  else await commitNewFile(sb, path, token);
  const pushed = await runGit(sb, ["push", "-q", "origin", "main"], { env: { REVIEW_GATE: "0" } });
  assert.equal(pushed.code, 0, pushed.stderr);
  await gitOk(sb, ["switch", "-q", "feature"]);
}

async function withInstalled(fn: (sb: GateSandbox) => Promise<void>): Promise<void> {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    await fn(sb);
  } finally {
    await sb.cleanup();
  }
}

Deno.test("pre-push gate leaves main's already-pushed changes out of a merged feature branch", async () => {
  await withInstalled(async (sb) => {
    await gitOk(sb, ["switch", "-q", "-c", "feature"]);
    await commitNewFile(sb, "src/feature.ts", "FEATURE_OWN");
    await advanceMain(sb, "src/main_only.ts", "MAIN_PUSHED");
    await gitOk(sb, ["merge", "-q", "--no-ff", "-m", "merge main", "main"]);
    const head = await commitNewFile(sb, "src/feature2.ts", "FEATURE_AFTER_MERGE");
    const r = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Left out changes already on "origin" brought in by merges/);
    assert.match(r.stderr, /refs\/heads\/feature \(3 commits\): approved/);
    assert.equal(await remoteRef(sb, "feature"), head);
    const log = await readFakeLog(sb);
    assert.equal(log.length, 1);
    const sent = log[0].stdin ?? "";
    assert.match(addedLines(sent), /FEATURE_OWN/);
    assert.match(addedLines(sent), /FEATURE_AFTER_MERGE/);
    assert.doesNotMatch(sent, /MAIN_PUSHED|main_only\.ts/, "main's pushed file is not sent");

    // Pushed again after merging main once more: only the new merge's own work is reviewed.
    await advanceMain(sb, "src/main_two.ts", "MAIN_PUSHED_TWO");
    await gitOk(sb, ["merge", "-q", "--no-ff", "-m", "merge main again", "main"]);
    await commitNewFile(sb, "src/feature3.ts", "FEATURE_THIRD");
    const again = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /refs\/heads\/feature \(2 commits\): approved/);
    const second = (await readFakeLog(sb))[1].stdin ?? "";
    assert.match(addedLines(second), /FEATURE_THIRD/);
    assert.doesNotMatch(second, /MAIN_PUSHED_TWO|main_two\.ts|FEATURE_OWN/);
  });
});

Deno.test("pre-push gate reviews the whole range with a note when the merge base conflicts", async () => {
  await withInstalled(async (sb) => {
    await gitOk(sb, ["switch", "-q", "-c", "feature"]);
    await commitToken(sb, "FEATURE_SIDE");
    const first = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
    assert.equal(first.code, 0, first.stderr);
    await advanceMain(sb, "src/app.ts", "MAIN_SIDE");
    const merge = await runGit(sb, ["merge", "-q", "-m", "merge main", "main"]);
    assert.notEqual(merge.code, 0, "the merge conflicts");
    const app = join(sb.repo.root, "src", "app.ts");
    const text = await Deno.readTextFile(app);
    await Deno.writeTextFile(app, text.split("\n").filter((l) => !/^[<=>]{7}/.test(l)).join("\n"));
    await gitOk(sb, ["commit", "-q", "-am", "merge main"]);
    const r = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /review-gate: reviewing the whole range: could not separate already-pushed merged changes/,
    );
    const log = await readFakeLog(sb);
    assert.equal(log.length, 2);
    assert.match(addedLines(log[1].stdin), /MAIN_SIDE/, "the fallback diff holds main's change");
  });
});

Deno.test("pre-push gate reviews at most 20 ref updates per push and reports the rest", async () => {
  await withInstalled(async (sb) => {
    const push = async (token: string, count: number) => {
      await gitOk(sb, ["switch", "-q", "main"]);
      await commitToken(sb, token);
      const names = Array.from({ length: count }, (_, i) => `${token.toLowerCase()}-${i}`);
      for (const name of names) await gitOk(sb, ["branch", name]);
      return {
        names,
        r: await runGit(sb, ["push", "origin", ...names], { env: scenario("valid") }),
      };
    };
    const { names, r } = await push("MANY", 22);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stderr.match(/: approved/g) ?? []).length, 20, r.stderr);
    assert.match(
      r.stderr,
      /WARNING: everything past the first 20 ref updates \(2: refs\/heads\/many-20, refs\/heads\/many-21\) was NOT reviewed: at most 20 ref updates are reviewed per push/,
    );
    assert.match(r.stderr, /The push goes ahead unreviewed/);
    assert.equal(await providerCalls(sb), 1, "one model call, the same commits hit the cache");
    assert.ok(await remoteRef(sb, names[21]));

    await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } } });
    const blocked = await push("MORE", 21);
    assert.notEqual(blocked.r.code, 0);
    assert.match(
      blocked.r.stderr,
      /first 20 ref updates \(1: refs\/heads\/more-20\) was NOT reviewed/,
    );
    assert.match(blocked.r.stderr, /blocked because gates\.pre_push\.on_error is "block"/);
    assert.equal(await remoteRef(sb, blocked.names[0]), null, "nothing was pushed");
  });
});
