import assert from "node:assert/strict";
import { runProcess } from "../exec/exec.ts";
import { resolveRepo } from "../git/repo.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { FROM_WORKTREE, MAX_RULE_FILE_BYTES, readRuleFiles, resolveRulesFrom } from "./source.ts";

Deno.test("readRuleFiles() reads a commit's files in one git call, or the worktree's", async () => {
  const repo = await makeTestRepo({
    "REVIEW.md": "root\n",
    "a b/REVIEW.md": "spaced\n",
    "big/REVIEW.md": "x".repeat(MAX_RULE_FILE_BYTES + 10),
  });
  try {
    await repo.write("REVIEW.md", "edited\n");
    const r = await resolveRepo(runProcess, repo.root);
    const wanted = ["REVIEW.md", "a b/REVIEW.md", "missing/REVIEW.md", "big/REVIEW.md", "../x"];
    let calls = 0;
    const counting = (req: Parameters<typeof runProcess>[0]) => (calls++, runProcess(req));
    const base = await resolveRulesFrom(runProcess, r, "HEAD", "base");
    const fromTree = await readRuleFiles(counting, r, base, wanted);
    assert.equal(calls, 1);
    assert.deepEqual([...fromTree.keys()].sort(), ["REVIEW.md", "a b/REVIEW.md", "big/REVIEW.md"]);
    assert.equal(fromTree.get("REVIEW.md")?.text, "root\n");
    assert.equal(fromTree.get("big/REVIEW.md")?.truncated, true);
    assert.equal(fromTree.get("big/REVIEW.md")?.text.length, MAX_RULE_FILE_BYTES);
    const fromDisk = await readRuleFiles(runProcess, r, FROM_WORKTREE, wanted);
    assert.equal(fromDisk.get("REVIEW.md")?.text, "edited\n");
    assert.equal(fromDisk.get("a b/REVIEW.md")?.text, "spaced\n");
    assert.equal(fromDisk.has("missing/REVIEW.md"), false);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("readRuleFiles() does not follow a worktree symlink out of the repository", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  const outside = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(outside, "secret\n");
    await Deno.symlink(outside, `${repo.root}/REVIEW.md`);
    const r = await resolveRepo(runProcess, repo.root);
    assert.equal((await readRuleFiles(runProcess, r, FROM_WORKTREE, ["REVIEW.md"])).size, 0);
  } finally {
    await Deno.remove(outside);
    await repo.cleanup();
  }
});
