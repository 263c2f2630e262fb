import assert from "node:assert/strict";
import { GitError, StoreError, UsageError } from "../base/errors.ts";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { liveTempDirs } from "../exec/tmpdir.ts";
import {
  noCommitRepos,
  snapshotIndexTree,
  snapshotWorktree,
  snapshotWorktreeTree,
} from "./live_tree.ts";
import { type Repo, resolveRepo } from "./repo.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";

async function withRepo(fn: (t: TestRepo, repo: Repo) => Promise<void>): Promise<void> {
  const t = await makeTestRepo({ "a.txt": "one\n" });
  try {
    await fn(t, await resolveRepo(runProcess, t.root));
  } finally {
    await t.cleanup();
  }
}

const isAdd = (request: ExecRequest) => request.cmd === "git" && request.args.includes("add");

Deno.test("snapshotWorktree() leaves nested repositories and linked worktrees out of the tree", async () => {
  await withRepo(async (t, repo) => {
    await t.write("b.txt", "two\n");
    const plain = await snapshotWorktreeTree(runProcess, repo);
    const init = (dir: string) =>
      new Deno.Command("git", { args: ["init", "-q", `${t.root}/${dir}`] }).output();
    assert.ok((await init("empty")).success, "a nested repository without a commit");
    assert.ok((await init("vendor/lib")).success);
    await t.write("vendor/lib/x.txt", "x\n");
    await t.git("-C", "vendor/lib", "add", "x.txt");
    await t.git("-C", "vendor/lib", "commit", "-qm", "x");
    await t.git("worktree", "add", "-q", ".claude/worktrees/other", "-b", "other");
    const snap = await snapshotWorktree(runProcess, repo);
    assert.equal(snap.tree, plain, "none of them is part of the tree");
    assert.deepEqual(snap.excluded, [
      { path: ".claude/worktrees/other", reason: "linked-worktree" },
      { path: "empty", reason: "nested-repository" },
      { path: "vendor/lib", reason: "nested-repository" },
    ]);
    // another session's commit in the linked worktree does not change this worktree's tree
    await t.write(".claude/worktrees/other/c.txt", "c\n");
    await t.git("-C", ".claude/worktrees/other", "add", "c.txt");
    await t.git("-C", ".claude/worktrees/other", "commit", "-qm", "other session");
    assert.equal(await snapshotWorktreeTree(runProcess, repo), plain);
    // a gitlink already in the index (a submodule) stays
    await t.git("add", "vendor/lib");
    const withGitlink = await snapshotWorktree(runProcess, repo);
    assert.notEqual(withGitlink.tree, plain);
    assert.deepEqual(withGitlink.excluded.map((e) => e.path), [".claude/worktrees/other", "empty"]);
  });
});

Deno.test("snapshotWorktreeTree() goes on past files git could not index (--ignore-errors)", async () => {
  await withRepo(async (t, repo) => {
    await t.write("b.txt", "two\n");
    const expected = await snapshotWorktreeTree(runProcess, repo);
    const seen: string[][] = [];
    // Root reads every file, so the unreadable file is played: git's exit 1 and stderr for it.
    const runner = async (request: ExecRequest) => {
      const result = await runProcess(request);
      if (!isAdd(request)) return result;
      seen.push([...request.args]);
      const stderr =
        `error: open("secret"): Permission denied\nerror: unable to index file 'secret'\n`;
      return { ...result, code: 1, stderr: new TextEncoder().encode(stderr) };
    };
    assert.equal(await snapshotWorktreeTree(runner, repo), expected);
    assert.ok(seen[0].includes("--ignore-errors"), seen[0].join(" "));
  });
});

Deno.test("snapshotWorktreeTree() keeps git's stderr on any other failure", async () => {
  await withRepo(async (_t, repo) => {
    const runner = async (request: ExecRequest) => {
      const result = await runProcess(request);
      if (!isAdd(request)) return result;
      return { ...result, code: 128, stderr: new TextEncoder().encode("fatal: disk on fire\n") };
    };
    const error = await snapshotWorktreeTree(runner, repo).catch((e) => e);
    assert.ok(error instanceof GitError);
    assert.match(error.message, /failed with exit code 128: fatal: disk on fire/);
    assert.equal(error.stderr, "fatal: disk on fire");
  });
});

Deno.test("snapshotWorktreeTree() registers its temp index dir for signal cleanup", async () => {
  await withRepo(async (_t, repo) => {
    let live: string[] = [];
    const runner = (request: ExecRequest) => {
      if (isAdd(request)) live = liveTempDirs();
      return runProcess(request);
    };
    await snapshotWorktreeTree(runner, repo);
    assert.equal(live.length, 1);
    assert.match(live[0], /\/review-gate-index-[^/]+$/);
    assert.deepEqual(liveTempDirs(), []);
    assert.equal(await Deno.stat(live[0]).then(() => true, () => false), false);
  });
});

Deno.test("snapshotIndexTree() reports a bad TMPDIR as StoreError, not an internal error", async () => {
  await withRepo(async (_t, repo) => {
    const saved = Deno.env.get("TMPDIR");
    Deno.env.set("TMPDIR", "/nonexistent/review-gate-tmp");
    try {
      const error = await snapshotIndexTree(runProcess, repo).catch((e) => e);
      assert.ok(error instanceof StoreError, String(error));
      assert.equal(error.exitCode, 3);
      assert.match(
        error.message,
        /^Cannot write a temp directory in "\/nonexistent\/review-gate-tmp": .*check permissions and free space$/,
      );
    } finally {
      if (saved === undefined) Deno.env.delete("TMPDIR");
      else Deno.env.set("TMPDIR", saved);
    }
  });
});

Deno.test("noCommitRepos() reads every path git names", () => {
  const stderr = "error: 'a b/' does not have a commit checked out\n" +
    "error: 'vendor/' does not have a commit checked out\nfatal: adding files failed";
  assert.deepEqual(noCommitRepos(stderr), ["a b/", "vendor/"]);
  assert.deepEqual(noCommitRepos("fatal: other"), []);
});

Deno.test("snapshotIndexTree() explains an index with unmerged paths", async () => {
  const repo = await makeTestRepo({ "a.txt": "base\n" });
  try {
    await repo.git("switch", "-q", "-c", "other");
    await repo.write("a.txt", "other\n");
    await repo.git("commit", "-qam", "other");
    await repo.git("switch", "-q", "-");
    await repo.write("a.txt", "main\n");
    await repo.git("commit", "-qam", "main");
    await repo.git("merge", "-q", "other").catch(() => {});
    const resolved = await resolveRepo(runProcess, repo.root);
    await assert.rejects(
      snapshotIndexTree(runProcess, resolved),
      (e: Error) => e instanceof UsageError && /unmerged paths/.test(e.message),
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("snapshotWorktree() reads files marked assume-unchanged or skip-worktree", async () => {
  await withRepo(async (t, repo) => {
    await t.write("b.txt", "two\n");
    await t.write("c.txt", "three\n");
    await t.write("gone.txt", "sparse\n");
    await t.git("add", "-A");
    await t.git("commit", "-qm", "more");
    const clean = await snapshotWorktreeTree(runProcess, repo);
    await t.git("update-index", "--assume-unchanged", "a.txt");
    await t.git("update-index", "--skip-worktree", "b.txt");
    await t.git("update-index", "--skip-worktree", "--assume-unchanged", "c.txt");
    await t.git("update-index", "--skip-worktree", "gone.txt");
    await Deno.remove(`${t.root}/gone.txt`); // a sparse checkout's absent file: not a deletion
    assert.equal(await snapshotWorktreeTree(runProcess, repo), clean);
    await t.write("a.txt", "one\nhidden edit\n");
    await t.write("b.txt", "two\nhidden edit\n");
    await t.write("c.txt", "three\nhidden edit\n");
    const tree = await snapshotWorktreeTree(runProcess, repo);
    const diff = await t.git("diff", "--name-only", clean, tree);
    assert.deepEqual(diff.trim().split("\n"), ["a.txt", "b.txt", "c.txt"]);
    const flags = await t.git("ls-files", "-v");
    assert.match(flags, /^h a\.txt$/m, "the user's index keeps its bits");
    assert.match(flags, /^S b\.txt$/m);
  });
});
