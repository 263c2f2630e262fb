import assert from "node:assert/strict";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { makeTestRepo } from "./test_repo.ts";
import { gitTreeView, worktreeView } from "./tree_view.ts";

Deno.test("gitTreeView() answers absent paths from one tree listing, without a git call each", async () => {
  const repo = await makeTestRepo({
    "a.txt": "1\n2\n3\n",
    "dir/b.txt": "x",
    "link": "",
  });
  try {
    await Deno.remove(`${repo.root}/link`);
    await Deno.symlink("a.txt", `${repo.root}/link`);
    await repo.git("add", "-A");
    await repo.git("commit", "-q", "-m", "link");
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    const calls: ExecRequest[] = [];
    const counted = (req: ExecRequest) => (calls.push(req), runProcess(req));
    const view = gitTreeView(counted, repo.root, { deleted: new Set(["old.txt"]), tree });
    for (let i = 0; i < 500; i++) assert.equal(await view.lineCount(`made/up/${i}.ts`), null);
    assert.equal(calls.length, 1, "one ls-tree for every absent path");
    assert.equal(await view.lineCount("a.txt"), 3);
    assert.equal(await view.lineCount("a.txt"), 3);
    assert.equal(await view.lineCount("dir/b.txt"), 1);
    assert.equal(await view.lineCount("dir"), null);
    assert.equal(await view.lineCount("../a.txt"), null);
    assert.equal(await view.lineCount("link"), 1);
    assert.equal(calls.length, 4, "one cat-file per distinct present path");
    assert.equal(view.isDeleted("old.txt"), true);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("text() reads a file of the reviewed tree, or null outside it", async () => {
  const repo = await makeTestRepo({ "a.txt": "committed\n" });
  try {
    await Deno.writeTextFile(`${repo.root}/a.txt`, "on disk\n");
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    const committed = gitTreeView(runProcess, repo.root, { deleted: new Set(), tree });
    const disk = worktreeView(repo.root, { deleted: new Set() });
    assert.equal(await committed.text("a.txt"), "committed\n");
    assert.equal(await disk.text("a.txt"), "on disk\n");
    for (const view of [committed, disk]) {
      assert.equal(await view.text("missing.txt"), null);
      assert.equal(await view.text("../a.txt"), null);
    }
  } finally {
    await repo.cleanup();
  }
});
