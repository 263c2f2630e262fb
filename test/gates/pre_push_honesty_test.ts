/**
 * End to end: a push never reads as reviewed when part of it did not reach the model. Real
 * `git push` into a local bare remote through the installed hook: a push of more commits than
 * `max_commits` still shows the oldest commit's file to the model; a tag push (review_tags off), a
 * push with the gate disabled, and a push line whose id is not a commit here each print one line
 * saying the ref was NOT reviewed and why; a push blocked by `on_partial: "block"` is recorded as
 * blocking.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  gitOk,
  makeGateSandbox,
  providerCalls,
  readFakeLog,
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeRepoConfig,
  writeUserConfig,
} from "./_gates.ts";

Deno.test("pre-push over max_commits shows the oldest pushed commit's file to the model", async () => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    // the user's own config (a worktree .review-gate.json may only make a push stricter)
    await writeUserConfig(sb, { gates: { pre_push: { max_commits: 2 } } });
    await Deno.writeTextFile(join(sb.repo.root, "evil.ts"), 'export const EVIL_PAYLOAD = "x";\n');
    await gitOk(sb, ["add", "evil.ts"]);
    await gitOk(sb, ["commit", "-qm", "evil"]);
    for (const n of ["one", "two"]) {
      await Deno.writeTextFile(join(sb.repo.root, `${n}.ts`), `export const ${n} = 1;\n`);
      await gitOk(sb, ["add", `${n}.ts`]);
      await gitOk(sb, ["commit", "-qm", n]);
    }
    const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /refs\/heads\/main \(3 commits\): approved/);
    assert.match(r.stderr, /3 new commits \(more than max_commits, 2\)/);
    const log = await readFakeLog(sb);
    assert.equal(log.length, 1);
    const prompt = log[0].stdin ?? "";
    assert.match(prompt, /EVIL_PAYLOAD/, "the file the oldest commit added is in the prompt");
    assert.match(prompt, /export const two = 1/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push says NOT reviewed for a tag, a disabled gate and an id that is not a commit", async (t) => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);

    await t.step("a tag push (review_tags off) goes ahead with one NOT reviewed line", async () => {
      await gitOk(sb, ["tag", "v1"]);
      const r = await runGit(sb, ["push", "origin", "v1"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /review-gate: refs\/tags\/v1 was NOT reviewed: tags are not reviewed \(set gates\.pre_push\.review_tags: true/,
      );
      assert.equal(await providerCalls(sb), 0);
    });

    await t.step("a push line whose id is not in the repository says NOT reviewed", async () => {
      const missing = "ab".repeat(20);
      const r = await runCli(sb, ["hook", "pre-push", "origin", sb.remote], {
        stdin: `refs/heads/x ${missing} refs/heads/x ${"0".repeat(40)}\n`,
        env: scenario("valid"),
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`refs/heads/x was NOT reviewed: ${missing} is not a commit in this repository`),
      );
    });

    await t.step("with the gate disabled, the push goes ahead and says NOT reviewed", async () => {
      // the user's own switch: one in the worktree's .review-gate.json cannot turn a push gate off
      const off = await runCli(sb, ["gate", "disable", "pre-push", "--user"]);
      assert.equal(off.code, 0, off.stderr);
      await Deno.writeTextFile(join(sb.repo.root, "late.ts"), "export const late = 1;\n");
      await gitOk(sb, ["add", "late.ts"]);
      await gitOk(sb, ["commit", "-qm", "late"]);
      const head = await gitOk(sb, ["rev-parse", "HEAD"]);
      const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /refs\/heads\/main was NOT reviewed: the pre-push gate is disabled .*review-gate gate enable pre-push --user/,
      );
      assert.equal(await remoteRef(sb, "main"), head);
      assert.equal(await providerCalls(sb), 0);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a push blocked by on_partial is recorded as blocking, and stats counts the block", async () => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    await writeRepoConfig(sb, { gates: { pre_push: { on_partial: "block" } } });
    await Deno.writeFile(join(sb.repo.root, "logo.png"), new Uint8Array([0x89, 0, 1, 2]));
    await Deno.writeTextFile(join(sb.repo.root, "note.ts"), "export const note = 1;\n");
    await gitOk(sb, ["add", "logo.png", "note.ts"]);
    await gitOk(sb, ["commit", "-qm", "logo and note"]);
    const before = await remoteRef(sb, "main");
    const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /only PARTIALLY reviewed by claude [^:\n]+: .*not shown at all: 1 binary file \("logo\.png"\)/,
    );
    assert.match(r.stderr, /blocked because gates\.pre_push\.on_partial is "block"/);
    assert.equal(await remoteRef(sb, "main"), before);
    const stats = await runCli(sb, ["stats", "--json"]);
    assert.equal(stats.code, 0, stats.stderr);
    assert.equal(JSON.parse(stats.stdout).total.blocks, 1);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("gate status says per gate whether it is installed and where, not only the config switch", async () => {
  const sb = await makeGateSandbox();
  try {
    const before = await runCli(sb, ["gate", "status"]);
    assert.equal(before.code, 0, before.stderr);
    assert.match(
      before.stdout,
      /^pre-push: enabled; NOT installed, so it never runs \(git runs hooks from .*; run "review-gate install --git"\)$/m,
    );
    assert.match(before.stdout, /^claude-stop: enabled; NOT installed, so it never runs/m);
    assert.match(before.stdout, /^codex-stop: enabled; NOT installed, so it never runs/m);
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const after = await runCli(sb, ["gate", "status"]);
    assert.match(after.stdout, /^pre-push: enabled; installed and reached \(.*pre-push\)$/m);
    assert.match(after.stdout, /^claude-stop: enabled; NOT installed/m);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a push whose part failed is never reused as a complete verdict: the same change pushed again asks the failed part", async () => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    await writeRepoConfig(sb, { jobs: 1, budgets: { total_bytes: 4096, file_bytes: 2048 } });
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-qm", "config"]);
    assert.equal((await runGit(sb, ["push", "--no-verify", "origin", "main"])).code, 0);
    const base = await gitOk(sb, ["rev-parse", "HEAD"]);
    const lines = Array.from({ length: 300 }, (_, i) => `export const v${i} = ${i}; // padding`);
    await Deno.writeTextFile(join(sb.repo.root, "big.ts"), lines.join("\n") + "\n");
    await gitOk(sb, ["add", "big.ts"]);
    await gitOk(sb, ["commit", "-qm", "big"]);
    // part 1 answers, part 2 is refused twice (its one corrective resume too), the rest answer
    const steps = join(sb.repo.root, "..", "refuse2.json");
    await Deno.writeTextFile(
      steps,
      JSON.stringify({ steps: ["valid", "schema-invalid", "schema-invalid", "valid"] }),
    );
    // the hook as git runs it, without the push landing (the user's push failed, or was not made)
    const hook = async (value: string) =>
      await runCli(sb, ["hook", "pre-push", "origin", sb.remote], {
        stdin: `refs/heads/main ${await gitOk(sb, [
          "rev-parse",
          "HEAD",
        ])} refs/heads/main ${base}\n`,
        env: scenario(value),
      });
    const first = await hook(steps);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /only PARTIALLY reviewed/);
    const before = await providerCalls(sb);
    // the same change reached another way: an empty commit on top
    await gitOk(sb, ["commit", "-q", "--allow-empty", "-m", "empty"]);
    const again = await hook("valid");
    assert.equal(again.code, 0, again.stderr);
    assert.ok(await providerCalls(sb) > before, `the failed part is asked again: ${again.stderr}`);
    assert.match(again.stderr, /: approved/);
    assert.doesNotMatch(again.stderr, /PARTIALLY|cached verdict/, again.stderr);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a push answered from the cached verdict appends a ledger line; a replayed push does not", async () => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    await gitOk(sb, ["switch", "-q", "-c", "feature"]);
    await Deno.writeTextFile(join(sb.repo.root, "note.ts"), "export const note = 1;\n");
    await gitOk(sb, ["add", "note.ts"]);
    await gitOk(sb, ["commit", "-qm", "note"]);
    const ledger = async () => {
      const stats = await runCli(sb, ["stats", "--json", "--by", "gate"]);
      assert.equal(stats.code, 0, stats.stderr);
      return JSON.parse(stats.stdout).total;
    };
    // the remote's feature back at main's tip, running no hook: the same update line each time
    const reset = () =>
      gitOk(sb, ["push", "-q", "--no-verify", "--force", "origin", "main:refs/heads/feature"]);
    for (const expected of [{ runs: 1, cacheHits: 0 }, { runs: 2, cacheHits: 1 }]) {
      await reset();
      const r = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /refs\/heads\/feature \(1 commit\)/);
      // fresh or cached, the line names who reviewed, as review's headline does
      assert.match(r.stderr, /; reviewed by claude claude-fake-1 \(auto\) \(the bundled fake\)\n/);
      const total = await ledger();
      assert.deepEqual({ runs: total.runs, cacheHits: total.cacheHits }, expected);
    }
    await reset();
    // The same push again is replayed by the installed hook without starting review-gate.
    const replayed = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.match(
      replayed.stderr,
      /refs\/heads\/feature \(1 commit\): approved \(cached verdict, no model call\); reviewed by claude claude-fake-1 \(auto\) \(the bundled fake\)\n/,
      "the hook's own replay names the reviewer too",
    );
    assert.equal((await ledger()).runs, 2);
    assert.equal(await providerCalls(sb), 1);
  } finally {
    await sb.cleanup();
  }
});
