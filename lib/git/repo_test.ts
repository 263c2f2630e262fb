import assert from "node:assert/strict";
import { GitError } from "../base/errors.ts";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { EMPTY_TREE, emptyTree, resolveRepo } from "./repo.ts";
import { makeTestRepo } from "./test_repo.ts";

function counting() {
  const calls: ExecRequest[] = [];
  const runner = (r: ExecRequest) => {
    calls.push(r);
    return runProcess(r);
  };
  return { runner, calls };
}

Deno.test("resolveRepo() resolves root, git dirs, hooks dir, HEAD and format in one call", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" });
  try {
    const { runner, calls } = counting();
    const resolved = await resolveRepo(runner, `${repo.root}/sub`);
    assert.equal(calls.length, 1);
    assert.deepEqual(resolved, {
      root: repo.root,
      gitDir: `${repo.root}/.git`,
      commonDir: `${repo.root}/.git`,
      hooksDir: `${repo.root}/.git/hooks`,
      head: (await repo.git("rev-parse", "HEAD")).trim(),
      objectFormat: "sha1",
    });
  } finally {
    await repo.cleanup();
  }
});

Deno.test("resolveRepo() reports an unborn branch as head null", async () => {
  const repo = await makeTestRepo();
  try {
    const resolved = await resolveRepo(runProcess, repo.root);
    assert.equal(resolved.head, null);
    assert.equal(resolved.root, repo.root);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("resolveRepo() handles sha256 repositories", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" }, { objectFormat: "sha256" });
  try {
    const resolved = await resolveRepo(runProcess, repo.root);
    assert.equal(resolved.objectFormat, "sha256");
    assert.equal(emptyTree(resolved), EMPTY_TREE.sha256);
    assert.equal(
      (await repo.git("hash-object", "-t", "tree", "/dev/null")).trim(),
      EMPTY_TREE.sha256,
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("resolveRepo() refuses a directory outside any repository", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(resolveRepo(runProcess, dir), (error: unknown) => {
      assert.ok(error instanceof GitError);
      assert.equal(error.exitCode, 2);
      assert.equal(
        error.message,
        `Not a git repository: "${dir}". Run review-gate inside a git repository (cd into it first)`,
      );
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveRepo() refuses a bare repository", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await new Deno.Command("git", { args: ["init", "-q", "--bare", dir] }).output();
    await assert.rejects(resolveRepo(runProcess, dir), /No working tree at .*bare repository/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveRepo() names the hooks directory core.hooksPath sets", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    await repo.git("config", "core.hooksPath", "my-hooks");
    const resolved = await resolveRepo(runProcess, repo.root);
    assert.equal(resolved.hooksDir, `${repo.root}/my-hooks`);
  } finally {
    await repo.cleanup();
  }
});
