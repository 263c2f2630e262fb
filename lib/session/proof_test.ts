import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../exec/exec.ts";
import { resolveRepo } from "../git/repo.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { reviewProof } from "./proof.ts";
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
