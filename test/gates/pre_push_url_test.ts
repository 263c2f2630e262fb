/**
 * End to end: `git push <url> …` through the installed pre-push hook. Only commits known to be on
 * *that* remote are left out: a URL is matched to the configured remote with that URL, and a push
 * to a URL no remote has never counts another remote's commits (a fetched fork) as already there:
 * what that URL has is asked (`git ls-remote`), and the rest is reviewed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  blockingScenario,
  commitToken,
  gitOk,
  makeGateSandbox,
  remoteRef,
  runCli,
  runGit,
  scenario,
} from "./_gates.ts";

Deno.test("pre-push by URL reviews a fetched fork's commits pushed to the remote with that URL, and to a URL no remote has", async (t) => {
  const sb = await makeGateSandbox();
  try {
    const blocking = scenario(await blockingScenario(sb));
    // A contributor's fork of origin with one commit, fetched as the remote "contrib".
    const fork = join(sb.dir, "fork");
    await gitOk(sb, ["clone", "-q", "-b", "main", sb.remote, fork], sb.dir);
    await commitToken(sb, "CONTRIB", fork);
    await gitOk(sb, ["remote", "add", "contrib", fork]);
    await gitOk(sb, ["fetch", "-q", "contrib"]);
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);

    await t.step("by origin's URL: blocked like the same push by name", async () => {
      const push = await runGit(sb, ["push", sb.remote, "contrib/main:refs/heads/feature"], {
        env: blocking,
      });
      assert.notEqual(push.code, 0, push.stderr);
      assert.match(push.stderr, /push blocked: 1 blocking finding in refs\/heads\/feature/);
      assert.equal(await remoteRef(sb, "refs/heads/feature"), null);
    });

    await t.step(
      "by a URL no remote has: that remote is asked what it has, and it is reviewed",
      async () => {
        const other = join(sb.dir, "other.git");
        await gitOk(sb, ["init", "-q", "--bare", "-b", "main", other], sb.dir);
        const push = await runGit(sb, ["push", other, "contrib/main:refs/heads/feature"], {
          env: blocking,
        });
        assert.notEqual(push.code, 0, push.stderr);
        assert.match(
          push.stderr,
          /push blocked: 1 blocking finding in refs\/heads\/feature \(2 commits\)/,
        );
      },
    );
  } finally {
    await sb.cleanup();
  }
});
