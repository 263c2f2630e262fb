/**
 * End to end: a replace ref (`git replace`, `refs/replace/<id>`) or a graft (`.git/info/grafts`)
 * cannot hide a change from the gates or from `review`. git swaps a replaced object for its replacement on every read, but a push sends the real
 * objects (pack-objects ignores replace refs): an agent that replaced the tree its turn produced
 * with the baseline's, or a pushed commit with one holding its parent's tree, would otherwise have
 * its change read as "nothing changed" and let through unreviewed. A reviewer that creates a
 * replace ref fails the read-only proof.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  commitToken,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

Deno.test("replace refs: a turn whose tree the agent replaced with the baseline's is still reviewed", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const root = sb.repo.root;
    const session = { sessionId: "replaced-turn", cwd: root };
    const prompt = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.equal(prompt.code, 0, prompt.stderr);
    const baseline = await gitOk(sb, ["write-tree"]);
    await addTokenLine(root, "HIDDEN_BY_REPLACE");
    // the tree the stop will record (git add -A into a copy of the index), replaced by the baseline
    const index = join(sb.dir, "agent-index");
    await Deno.copyFile(join(root, ".git", "index"), index);
    const env = { GIT_INDEX_FILE: index };
    assert.equal((await runGit(sb, ["add", "-A"], { env })).code, 0);
    const changed = (await runGit(sb, ["write-tree"], { env })).stdout.trim();
    assert.notEqual(changed, baseline);
    await gitOk(sb, ["replace", "-f", changed, baseline]);

    const calls = await providerCalls(sb);
    const stop = await runHook(sb, "claude-stop", stopPayload(session), {
      env: scenario(await blockingScenario(sb)),
    });
    assert.equal(stop.code, 0, stop.stderr);
    assert.ok(await providerCalls(sb) > calls, "the model was asked about the turn");
    assert.equal(stopDecision(stop.stdout)?.decision, "block", stop.stdout + stop.stderr);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("replace refs: a pushed commit replaced by one holding its parent's tree is still reviewed", async () => {
  const sb = await makeGateSandbox();
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const before = await remoteRef(sb, "main");
    const head = await commitToken(sb, "HIDDEN_COMMIT");
    const parentTree = await gitOk(sb, ["rev-parse", "HEAD^^{tree}"]);
    const decoy = await gitOk(sb, ["commit-tree", "-p", "HEAD^", "-m", "decoy", parentTree]);
    await gitOk(sb, ["replace", head, decoy]);

    const r = await runGit(sb, ["push", "origin", "main"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
    assert.equal(await remoteRef(sb, "main"), before);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("replace refs: a reviewer that creates one fails the read-only proof", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const head = await gitOk(sb, ["rev-parse", "HEAD"]);
    const other = await gitOk(sb, ["commit-tree", "-m", "other", `${head}^{tree}`]);
    await addTokenLine(sb.repo.root, "EDIT");
    const scenarioFile = join(sb.dir, "replace-writer.json");
    await Deno.writeTextFile(
      scenarioFile,
      JSON.stringify({
        steps: [{
          kind: "write-file",
          path: join(sb.repo.root, ".git", "refs", "replace", head),
          content: `${other}\n`,
        }],
      }),
    );
    const r = await runCli(sb, ["review"], { env: scenario(scenarioFile) });
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, new RegExp(`read-only violation\\): refs/replace/${head}`));
  } finally {
    await sb.cleanup();
  }
});

Deno.test("grafts: a commit grafted onto a parent holding its own tree is still reviewed", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const head = await commitToken(sb, "HIDDEN_BY_GRAFT");
    const tree = await gitOk(sb, ["rev-parse", "HEAD^{tree}"]);
    const decoy = await gitOk(sb, ["commit-tree", "-p", "HEAD^", "-m", "decoy", tree]);
    await Deno.writeTextFile(join(sb.repo.root, ".git", "info", "grafts"), `${head} ${decoy}\n`);
    const r = await runCli(sb, ["review", "--commit", head]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /nothing to review/);
    assert.match(r.stdout, /approved/);
  } finally {
    await sb.cleanup();
  }
});
