/**
 * End to end: `review-gate install --git`, then real `git push` to a bare repository runs the
 * installed hook (our `main.ts`) with the fake provider. Asserts exit codes, what landed in the
 * remote, stderr, and every provider call the fake logged.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addedLines,
  blockingScenario,
  commitToken,
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

const SKIP_HINTS = ["git push --no-verify", "REVIEW_GATE=0"];

Deno.test("pre-push gate reviews real git pushes and blocks, skips and caches as it should", async (t) => {
  const sb = await makeGateSandbox();
  try {
    const blocking = await blockingScenario(sb);
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const hook = await Deno.readTextFile(join(sb.repo.root, ".git", "hooks", "pre-push"));
    assert.match(hook, /managed-by: review-gate/);

    await t.step(
      "an approved push lands; the pushed tree is reviewed, not the dirty worktree",
      async () => {
        const head = await commitToken(sb, "COMMITTED_ONE");
        const app = join(sb.repo.root, "src", "app.ts");
        const committed = await Deno.readTextFile(app);
        await Deno.writeTextFile(app, committed + 'export const dirty = "DIRTY_WORKTREE";\n');
        await Deno.writeTextFile(join(sb.repo.root, "untracked.txt"), "UNTRACKED_WORKTREE\n");
        const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /review-gate: refs\/heads\/main \(1 commit\): approved/);
        assert.equal(await remoteRef(sb, "main"), head);
        const log = await readFakeLog(sb);
        assert.equal(log.length, 1);
        assert.match(log[0].stdin ?? "", /COMMITTED_ONE/);
        assert.doesNotMatch(log[0].stdin ?? "", /DIRTY_WORKTREE|UNTRACKED_WORKTREE/);
        assert.equal(log[0].env.REVIEW_GATE_CHILD, "1");
        await Deno.writeTextFile(app, committed);
        await Deno.remove(join(sb.repo.root, "untracked.txt"));
      },
    );

    let blockedHead = "";
    await t.step("a blocking finding rejects the push and says how to skip", async () => {
      const before = await remoteRef(sb, "main");
      blockedHead = await commitToken(sb, "BLOCKED_TWO");
      const r = await runGit(sb, ["push", "origin", "main"], { env: scenario(blocking) });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
      assert.match(r.stderr, /\[high\] src\/app\.ts:1 Exported constant breaks callers/);
      for (const hint of SKIP_HINTS) {
        assert.ok(r.stderr.includes(hint), `missing "${hint}" in ${r.stderr}`);
      }
      assert.match(r.stderr, /failed to push|pre-push hook declined/);
      assert.equal(await remoteRef(sb, "main"), before);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step(
      "a re-push of the same commits reuses the cached verdict (no provider call)",
      async () => {
        const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
        assert.notEqual(r.code, 0, "the cached blocking verdict still blocks");
        assert.match(
          r.stderr,
          /push blocked: 1 blocking finding in .*\(cached verdict, no model call\)/,
        );
        assert.match(r.stderr, /to review them again: REVIEW_GATE_CACHE=0 git push/);
        assert.equal(await providerCalls(sb), 2);
        // the cached answer's records line leads to a run folder: the run that gave the verdict
        const state = join(sb.repo.root, ".git", "review-gate");
        const lines = (await Deno.readTextFile(join(state, "records.jsonl"))).trim().split("\n");
        const last = JSON.parse(lines[lines.length - 1]);
        assert.equal(last.cached, true);
        assert.ok((await Deno.stat(join(state, "runs", last.id))).isDirectory, last.id);
      },
    );

    await t.step("--no-verify pushes without running the hook", async () => {
      const r = await runGit(sb, ["push", "--no-verify", "origin", "main"], {
        env: scenario(blocking),
      });
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /review-gate:/);
      assert.equal(await remoteRef(sb, "main"), blockedHead);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step("REVIEW_GATE=0 pushes without a review", async () => {
      const head = await commitToken(sb, "SKIPPED_THREE");
      const r = await runGit(sb, ["push", "origin", "main"], {
        env: { ...scenario(blocking), REVIEW_GATE: "0" },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await remoteRef(sb, "main"), head);
      assert.equal(await providerCalls(sb), 2);
    });

    await t.step("a new branch reviews only the commits the remote lacks", async () => {
      await gitOk(sb, ["switch", "-q", "-c", "feature"]);
      const head = await commitToken(sb, "FEATURE_FOUR");
      const r = await runGit(sb, ["push", "origin", "feature"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /refs\/heads\/feature \(1 commit\): approved/);
      assert.equal(await remoteRef(sb, "feature"), head);
      const log = await readFakeLog(sb);
      assert.equal(log.length, 3);
      assert.match(addedLines(log[2].stdin), /FEATURE_FOUR/);
      assert.doesNotMatch(
        addedLines(log[2].stdin),
        /SKIPPED_THREE|BLOCKED_TWO/,
        "already on the remote",
      );
    });

    await t.step(
      "a new branch whose commits are all on the remote says there is nothing new, also when replayed",
      async () => {
        const line =
          "review-gate: refs/heads/feature-copy: nothing new to review (every commit is already on the remote)\n";
        const r = await runGit(sb, ["push", "origin", "feature:feature-copy"], {
          env: scenario(blocking),
        });
        assert.equal(r.code, 0, r.stderr);
        assert.ok(r.stderr.includes(line), r.stderr);
        assert.equal(await providerCalls(sb), 3);
        await gitOk(sb, ["push", "-q", "origin", "--delete", "feature-copy"]);
        const again = await runGit(sb, ["push", "origin", "feature:feature-copy"], {
          env: scenario(blocking),
        });
        assert.equal(again.code, 0, again.stderr);
        assert.ok(again.stderr.includes(line), again.stderr);
        await gitOk(sb, ["push", "-q", "origin", "--delete", "feature-copy"]);
      },
    );

    await t.step("deleting a branch needs no review", async () => {
      const r = await runGit(sb, ["push", "origin", "--delete", "feature"], {
        env: scenario(blocking),
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await remoteRef(sb, "feature"), null);
      assert.equal(await providerCalls(sb), 3);
      await gitOk(sb, ["switch", "-q", "main"]);
    });

    await t.step("tags are skipped by default (lightweight and annotated)", async () => {
      await gitOk(sb, ["tag", "v1"]);
      await gitOk(sb, ["tag", "-a", "v2", "-m", "v2"]);
      const r = await runGit(sb, ["push", "origin", "v1", "v2"], { env: scenario(blocking) });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(await remoteRef(sb, "refs/tags/v1"));
      assert.ok(await remoteRef(sb, "refs/tags/v2"));
      assert.equal(await providerCalls(sb), 3);
    });

    await t.step(
      "a force push over commits we do not have reviews only our new commits",
      async () => {
        // Someone else pushes OTHER_FIVE to main; we never fetch it.
        const other = join(sb.dir, "other");
        await gitOk(sb, ["clone", "-q", sb.remote, other], sb.dir);
        const theirs = await commitToken(sb, "OTHER_FIVE", other);
        await gitOk(sb, ["push", "-q", "origin", "main"], other);
        assert.equal(await remoteRef(sb, "main"), theirs);
        const ours = await commitToken(sb, "FORCED_SIX");
        // origin's only branch moved to a commit we lack: what else it has cannot be proven
        const unproven = await runGit(sb, ["push", "--force", "origin", "main"], {
          env: scenario("valid"),
        });
        assert.equal(unproven.code, 0, unproven.stderr);
        assert.match(
          unproven.stderr,
          /refs\/heads\/main was NOT reviewed: origin has moved on to commits that are not here.*\(git fetch origin, then push again\)/,
        );
        assert.equal(await providerCalls(sb), 3);
        await gitOk(
          sb,
          ["push", "-q", "--no-verify", "--force", "origin", `${theirs}:main`],
          other,
        );
        await gitOk(sb, ["fetch", "-q", "origin"]);
        const r = await runGit(sb, ["push", "--force", "origin", "main"], {
          env: scenario("valid"),
        });
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stderr,
          /Force push over refs\/heads\/main \([0-9a-f]{12}\): reviewing the commits not on "origin"/,
        );
        assert.equal(await remoteRef(sb, "main"), ours);
        const log = await readFakeLog(sb);
        assert.equal(log.length, 4);
        assert.match(addedLines(log[3].stdin), /FORCED_SIX/);
        assert.doesNotMatch(addedLines(log[3].stdin), /SKIPPED_THREE|OTHER_FIVE/);
      },
    );

    await t.step(
      "a review that could not run allows loudly, or blocks with on_error block",
      async () => {
        const head = await commitToken(sb, "ERROR_SEVEN");
        const allowed = await runGit(sb, ["push", "origin", "main"], { env: scenario("error") });
        assert.equal(allowed.code, 0, allowed.stderr);
        assert.match(
          allowed.stderr,
          /WARNING: refs\/heads\/main \(1 commit\) was NOT reviewed: provider-error/,
        );
        assert.match(allowed.stderr, /The push goes ahead unreviewed/);
        assert.equal(await remoteRef(sb, "main"), head);

        await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } } });
        const calls = await providerCalls(sb);
        await commitToken(sb, "ERROR_EIGHT");
        const blocked = await runGit(sb, ["push", "origin", "main"], { env: scenario("error") });
        assert.notEqual(blocked.code, 0);
        assert.match(blocked.stderr, /was NOT reviewed/);
        assert.match(blocked.stderr, /blocked because gates\.pre_push\.on_error is "block"/);
        for (const hint of SKIP_HINTS) assert.ok(blocked.stderr.includes(hint));
        assert.equal(await remoteRef(sb, "main"), head);
        assert.ok((await providerCalls(sb)) > calls, "the provider was asked");
        await writeRepoConfig(sb, null);
      },
    );

    await t.step("REVIEW_GATE_CACHE=0 reviews commits whose cached verdict blocks", async () => {
      const before = await remoteRef(sb, "main");
      const head = await commitToken(sb, "RECHECK_NINE");
      const first = await runGit(sb, ["push", "origin", "main"], { env: scenario(blocking) });
      assert.notEqual(first.code, 0);
      const calls = await providerCalls(sb);
      const cached = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
      assert.notEqual(cached.code, 0, "the cached blocking verdict still blocks");
      assert.match(cached.stderr, /to review them again: REVIEW_GATE_CACHE=0 git push/);
      assert.equal(await providerCalls(sb), calls);
      const again = await runGit(sb, ["push", "origin", "main"], {
        env: { ...scenario("valid"), REVIEW_GATE_CACHE: "0" },
      });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(await providerCalls(sb), calls + 1);
      assert.equal(await remoteRef(sb, "main"), head);
      // put the remote back, so a plain push offers the same commits again: the fresh (approving)
      // verdict was cached, so it passes without a model call (a model call would block here)
      const reset = await runGit(sb, [
        "push",
        "--no-verify",
        "--force",
        "origin",
        `${before}:main`,
      ]);
      assert.equal(reset.code, 0, reset.stderr);
      const plain = await runGit(sb, ["push", "origin", "main"], { env: scenario(blocking) });
      assert.equal(plain.code, 0, plain.stderr);
      assert.equal(await providerCalls(sb), calls + 1, "the provider was asked again");
      assert.equal(await remoteRef(sb, "main"), head);
    });
  } finally {
    await sb.cleanup();
  }
});
