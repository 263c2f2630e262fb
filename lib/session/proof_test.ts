import assert from "node:assert/strict";
import { join } from "node:path";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { GitError } from "../base/errors.ts";
import { resolveRepo } from "../git/repo.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { reviewProof, startReviewProof } from "./proof.ts";
import { withReviewWorkspace } from "./workspace.ts";

Deno.test("reviewProof() names writes into the copy and persistence files outside the repository", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n", "src/b.txt": "two\n" });
  const home = await Deno.makeTempDir({ prefix: "rg-proof-home-" });
  try {
    await Deno.mkdir(join(home, ".claude", "skills"), { recursive: true });
    await Deno.writeTextFile(join(home, ".gitconfig"), "[user]\n\tname = u\n");
    const env = { HOME: home };
    const resolved = await resolveRepo(runProcess, repo.root);
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    await withReviewWorkspace(runProcess, { repo: resolved, tree }, async (workspace) => {
      const proof = reviewProof(runProcess, { repo: resolved, env, workspace });
      const before = await proof.take();
      // what the CLIs write on every run: not a violation
      await Deno.writeTextFile(join(home, ".claude.json"), "{}");
      await Deno.mkdir(join(home, ".claude", "projects", "x"), { recursive: true });
      await Deno.mkdir(join(home, ".claude", "plugins", "store"), { recursive: true });
      await Deno.writeTextFile(join(home, ".claude", "plugins", "store", "p.json"), "{}");
      assert.deepEqual(proof.compare(before, await proof.take()), []);
      // a reviewer that persisted, and one that wrote into the copy
      await Deno.writeTextFile(join(home, ".gitconfig"), "[core]\n\tfsmonitor = /tmp/evil\n");
      await Deno.mkdir(join(home, ".claude", "skills", "evil"));
      await Deno.writeTextFile(join(home, ".claude", "skills", "evil", "SKILL.md"), "x");
      await Deno.writeTextFile(join(home, ".bashrc"), "export X=1\n");
      await Deno.chmod(join(workspace.tree, "src"), 0o755);
      await Deno.writeTextFile(join(workspace.tree, "src", "new.txt"), "x");
      await Deno.chmod(join(workspace.tree, "a.txt"), 0o644);
      await Deno.writeTextFile(join(workspace.tree, "a.txt"), "changed!\n");
      assert.deepEqual(proof.compare(before, await proof.take()), [
        "reviewed copy/a.txt",
        "reviewed copy/src/new.txt",
        "~/.bashrc",
        "~/.claude/skills/evil/SKILL.md",
        "~/.gitconfig",
      ]);
    });
  } finally {
    await repo.cleanup();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("withReviewWorkspace() makes one copy for several calls and removes it after", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n", "AGENTS.md": "steer\n" });
  try {
    const resolved = await resolveRepo(runProcess, repo.root);
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    let dir = "";
    await withReviewWorkspace(runProcess, { repo: resolved, tree }, async (workspace) => {
      dir = workspace.dir;
      assert.equal(workspace.root, repo.root);
      assert.equal(workspace.treeId, tree);
      assert.equal(await Deno.readTextFile(join(workspace.tree, "a.txt")), "one\n");
      assert.deepEqual(workspace.copy.skipped, [{
        path: "AGENTS.md",
        reason: "agent instructions",
      }]);
      assert.equal((await Deno.stat(workspace.dir)).mode! & 0o777, 0o700);
    });
    await assert.rejects(Deno.lstat(dir), Deno.errors.NotFound);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("reviewProof() leaves out another run's --output file while its bytes are ours, and names any other change to it", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n" });
  const home = await Deno.makeTempDir({ prefix: "rg-proof-home-" });
  try {
    const resolved = await resolveRepo(runProcess, repo.root);
    const { contentSignature } = await import("../git/status_listing.ts");
    const ours = '{"runId":"x"}\n';
    const own = { "out/b.json": await contentSignature(new TextEncoder().encode(ours)) };
    const proof = reviewProof(runProcess, {
      repo: resolved,
      env: { HOME: home },
      ownOutputs: () => Promise.resolve(own),
    });
    const before = await proof.take();
    await Deno.mkdir(join(repo.root, "out"));
    await Deno.writeTextFile(join(repo.root, "out", "b.json"), ours);
    assert.deepEqual(proof.compare(before, await proof.take()), [], "our own output");
    await Deno.writeTextFile(join(repo.root, "out", "b.json"), ours + "tampered\n");
    await Deno.writeTextFile(join(repo.root, "c.txt"), "new\n");
    assert.deepEqual(proof.compare(before, await proof.take()), ["c.txt", "out/b.json"]);
  } finally {
    await repo.cleanup();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("startReviewProof() snapshots the repository while the workspace is made, then proves like reviewProof()", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n" });
  const home = await Deno.makeTempDir({ prefix: "rg-proof-home-" });
  try {
    await repo.write("a.txt", "dirty\n");
    const resolved = await resolveRepo(runProcess, repo.root);
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    const calls: string[][] = [];
    const runner = (request: ExecRequest) => {
      calls.push([...request.args]);
      return runProcess(request);
    };
    const env = { HOME: home };
    const started = startReviewProof(runner, { repo: resolved, env });
    assert.equal(calls.filter((c) => c.includes("status")).length, 1, "under way at once");
    await withReviewWorkspace(runProcess, { repo: resolved, tree }, async (workspace) => {
      const proof = started(workspace);
      const before = await proof.take();
      const plain = await reviewProof(runProcess, { repo: resolved, env, workspace }).take();
      assert.deepEqual(before, plain, "the same snapshot, the copy's fingerprint included");
      assert.equal(calls.filter((c) => c.includes("status")).length, 1, "no second status");
      assert.deepEqual(proof.compare(before, await proof.take()), []);
      await repo.write("new.txt", "n\n");
      await Deno.chmod(join(workspace.tree, "a.txt"), 0o644);
      await Deno.writeTextFile(join(workspace.tree, "a.txt"), "changed!\n");
      assert.deepEqual(proof.compare(before, await proof.take()), [
        "new.txt",
        "reviewed copy/a.txt",
      ]);
    });
  } finally {
    await repo.cleanup();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("startReviewProof() throws a failed first snapshot from the first take, never unhandled", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n" });
  try {
    const resolved = await resolveRepo(runProcess, repo.root);
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    const failing = (request: ExecRequest) =>
      runProcess({ ...request, args: [...request.args, "--no-such-option"] });
    const started = startReviewProof(failing, { repo: resolved, env: {} });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the snapshot has failed by now
    await withReviewWorkspace(runProcess, { repo: resolved, tree }, async (workspace) => {
      await assert.rejects(started(workspace).take(), GitError);
    });
  } finally {
    await repo.cleanup();
  }
});

Deno.test("reviewProof() names a write to a file a git config includes, the repository's or the user's, present or not", async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n" });
  const home = await Deno.makeTempDir({ prefix: "rg-proof-home-" });
  try {
    await Deno.writeTextFile(join(home, ".gitconfig"), "[include]\n\tpath = ~/.gitconfig.local\n");
    await repo.git("config", "include.path", "extra.cfg");
    const resolved = await resolveRepo(runProcess, repo.root);
    const proof = reviewProof(runProcess, { repo: resolved, env: { HOME: home } });
    const before = await proof.take();
    // a reviewer that would make the user's next git status run a program
    await Deno.writeTextFile(join(home, ".gitconfig.local"), "[core]\n\tfsmonitor = /tmp/evil\n");
    await Deno.writeTextFile(join(repo.root, ".git", "extra.cfg"), "[core]\n\tpager = /tmp/evil\n");
    assert.deepEqual(proof.compare(before, await proof.take()), [
      `git config includes ${join(resolved.commonDir, "extra.cfg")}`,
      "~/.gitconfig includes ~/.gitconfig.local",
    ]);
  } finally {
    await repo.cleanup();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test('reviewProof() of scope "private" (a review while the agent works) leaves the agent\'s worktree, index and commits out and names the copy, git config, hooks and the state key', async () => {
  const repo = await makeTestRepo({ "a.txt": "one\n" });
  const home = await Deno.makeTempDir({ prefix: "rg-proof-home-" });
  try {
    const keyDir = join(home, "state", "review-gate");
    await Deno.mkdir(keyDir, { recursive: true });
    await Deno.writeTextFile(join(keyDir, "key"), `${"a".repeat(64)}\n`);
    const env = { HOME: home };
    const stateKey = join(keyDir, "key");
    const resolved = await resolveRepo(runProcess, repo.root);
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    await withReviewWorkspace(runProcess, { repo: resolved, tree }, async (workspace) => {
      const proof = reviewProof(runProcess, {
        repo: resolved,
        env,
        workspace,
        scope: "private",
        stateKey,
      });
      const before = await proof.take();
      // the agent goes on: edits, a new file, git add, a commit (HEAD, index, refs)
      await Deno.writeTextFile(join(repo.root, "a.txt"), "two\n");
      await Deno.writeTextFile(join(repo.root, "b.txt"), "new\n");
      await repo.git("add", "-A");
      await repo.git("commit", "-q", "-m", "agent");
      assert.deepEqual(proof.compare(before, await proof.take()), []);
      const full = reviewProof(runProcess, { repo: resolved, env, workspace });
      const fullBefore = await full.take();
      await Deno.writeTextFile(join(repo.root, "a.txt"), "three\n");
      assert.deepEqual(
        full.compare(fullBefore, await full.take()),
        ["a.txt"],
        "the default sees it",
      );
      // a reviewer that wrote its copy, the git config, a hook, or replaced the state key
      await Deno.chmod(join(workspace.tree, "a.txt"), 0o644);
      await Deno.writeTextFile(join(workspace.tree, "a.txt"), "changed!\n");
      await Deno.writeTextFile(join(resolved.commonDir, "config"), "[core]\n\tfsmonitor = x\n", {
        append: true,
      });
      await Deno.writeTextFile(join(resolved.commonDir, "hooks", "pre-push"), "#!/bin/sh\n");
      await Deno.remove(join(keyDir, "key"));
      await Deno.writeTextFile(join(keyDir, "key"), `${"b".repeat(64)}\n`);
      assert.deepEqual(proof.compare(before, await proof.take()), [
        ".git/hooks/pre-push",
        "git config",
        "reviewed copy/a.txt",
        "review-gate key",
      ]);
    });
  } finally {
    await repo.cleanup();
    await Deno.remove(home, { recursive: true });
  }
});
