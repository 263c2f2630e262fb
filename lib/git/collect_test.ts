import assert from "node:assert/strict";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { collectChange, fingerprintOf, isCleanWorktree } from "./collect.ts";
import { snapshotWorktreeTree } from "./live_tree.ts";
import { resolveRepo } from "./repo.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";
import type { Budgets, Target } from "./types.ts";

const BIG: Budgets = { perFileBytes: 1_000_000, totalBytes: 10_000_000 };

function counting() {
  const calls: string[][] = [];
  const runner = (r: ExecRequest) => {
    calls.push([...r.args]);
    return runProcess(r);
  };
  return { runner, calls };
}

async function collect(repo: TestRepo, target: Target, budgets = BIG) {
  const r = await resolveRepo(runProcess, repo.root);
  return collectChange(runProcess, { repo: r, target, budgets });
}

async function withRepo(
  files: Record<string, string | Uint8Array> | undefined,
  body: (repo: TestRepo) => Promise<void>,
) {
  const repo = await makeTestRepo(files);
  try {
    await body(repo);
  } finally {
    await repo.cleanup();
  }
}

Deno.test("collectChange() collects the worktree with untracked files in 3 git calls (add, write-tree, one diff-tree; no ls-files or diff-files for an index without flagged entries or submodules), index untouched", async () => {
  await withRepo({ "a.txt": "one\n", "gone.txt": "x\n" }, async (repo) => {
    await repo.write("a.txt", "one\ntwo\n");
    await repo.write("new dir/ü ñ.txt", "hola\n");
    await Deno.remove(`${repo.root}/gone.txt`);
    const indexBefore = await repo.read(".git/index");
    const r = await resolveRepo(runProcess, repo.root);
    const { runner, calls } = counting();
    const change = await collectChange(runner, {
      repo: r,
      target: { kind: "worktree" },
      budgets: BIG,
    });
    assert.equal(calls.length, 3, JSON.stringify(calls));
    assert.deepEqual(await repo.read(".git/index"), indexBefore);
    assert.equal(change.label, "working tree");
    assert.equal(change.to, "worktree");
    assert.deepEqual(change.files.map((f) => [f.path, f.status, f.additions, f.deletions]), [
      ["a.txt", "modified", 1, 0],
      ["gone.txt", "deleted", 0, 1],
      ["new dir/ü ñ.txt", "added", 1, 0],
    ]);
    assert.match(change.diff, /^diff --git a\/a.txt b\/a.txt\n/);
    assert.match(change.diff, /\+\+\+ b\/new dir\/ü ñ.txt\t?\n@@ -0,0 \+1 @@\n\+hola\n/);
    assert.equal(change.coverage.status, "complete");
    assert.equal(change.coverage.reviewedBytes, new TextEncoder().encode(change.diff).length);
    assert.equal(change.coverage.reviewedLines, 3);
    assert.equal(await change.tree.lineCount("a.txt"), 2);
    assert.equal(await change.tree.lineCount("new dir/ü ñ.txt"), 1);
    assert.equal(await change.tree.lineCount("gone.txt"), null);
    assert.equal(await change.tree.lineCount("new dir"), null);
    assert.equal(await change.tree.lineCount("../etc/passwd"), null);
    assert.equal(change.tree.isDeleted("gone.txt"), true);
    assert.equal(change.tree.isDeleted("a.txt"), false);
    assert.equal(change.toTree, await snapshotWorktreeTree(runProcess, r));
    assert.match(change.fingerprint, /^[0-9a-f]{64}$/);
  });
});

Deno.test("collectChange() keeps the fingerprint stable and sensitive to content", async () => {
  await withRepo({ "a.txt": "one\n" }, async (repo) => {
    await repo.write("a.txt", "two\n");
    const first = await collect(repo, { kind: "worktree" });
    assert.equal((await collect(repo, { kind: "worktree" })).fingerprint, first.fingerprint);
    await repo.write("a.txt", "three\n");
    assert.notEqual((await collect(repo, { kind: "worktree" })).fingerprint, first.fingerprint);
  });
});

Deno.test("collectChange() on an unborn branch diffs against the empty tree", async () => {
  await withRepo(undefined, async (repo) => {
    await repo.write("staged.txt", "s\n");
    await repo.git("add", "staged.txt");
    await repo.write("untracked.txt", "u\n");
    const worktree = await collect(repo, { kind: "worktree" });
    assert.deepEqual(worktree.files.map((f) => f.path), ["staged.txt", "untracked.txt"]);
    const staged = await collect(repo, { kind: "staged" });
    assert.deepEqual(staged.files.map((f) => [f.path, f.status]), [["staged.txt", "added"]]);
    assert.equal(await staged.tree.lineCount("staged.txt"), 1);
    assert.equal(await staged.tree.lineCount("untracked.txt"), null);
  });
});

Deno.test("collectChange() reviews staged changes only for the staged target", async () => {
  await withRepo({ "a.txt": "1\n", "b.txt": "1\n" }, async (repo) => {
    await repo.write("a.txt", "1\n2\n");
    await repo.git("add", "a.txt");
    await repo.write("a.txt", "1\n2\n3\n");
    await repo.write("b.txt", "changed\n");
    const indexBefore = await repo.read(".git/index");
    const change = await collect(repo, { kind: "staged" });
    assert.deepEqual(await repo.read(".git/index"), indexBefore);
    assert.equal(change.to, "index");
    assert.deepEqual(change.files.map((f) => [f.path, f.additions]), [["a.txt", 1]]);
    assert.equal(await change.tree.lineCount("a.txt"), 2); // the index's version, not the disk's
  });
});

Deno.test("collectChange() collects base, range and commit targets from commits", async () => {
  await withRepo({ "a.txt": "1\n" }, async (repo) => {
    await repo.git("checkout", "-q", "-b", "feature");
    await repo.write("a.txt", "1\n2\n");
    await repo.git("commit", "-qam", "two");
    await repo.write("worktree-only.txt", "w\n");
    for (
      const target of [
        { kind: "base", ref: "main" },
        { kind: "range", from: "main", to: "feature" },
        { kind: "commit", sha: "HEAD" },
      ] as Target[]
    ) {
      const change = await collect(repo, target);
      assert.deepEqual(change.files.map((f) => f.path), ["a.txt"], target.kind);
      assert.match(change.diff, /\+2\n/);
      assert.equal(await change.tree.lineCount("a.txt"), 2);
      assert.equal(await change.tree.lineCount("worktree-only.txt"), null);
    }
  });
});

Deno.test("collectChange() survives names with spaces, quotes, newlines and non-ASCII", async () => {
  const names = [
    "with space.txt",
    'quo"te.txt',
    "new\nline.txt",
    "ü ñ.txt",
    "back\\slash.txt",
    "tab\there.txt",
  ];
  await withRepo({ "keep.txt": "k\n" }, async (repo) => {
    for (const name of names) await repo.write(name, `content of ${JSON.stringify(name)}\n`);
    const change = await collect(repo, { kind: "worktree" });
    assert.deepEqual(change.files.map((f) => f.path).sort(), [...names].sort());
    assert.ok(change.files.every((f) => f.status === "added" && f.additions === 1));
    assert.equal(change.diff.match(/^diff --git /gm)?.length, names.length);
    for (const name of names) assert.equal(await change.tree.lineCount(name), 1, name);
  });
});

Deno.test("collectChange() keeps CRLF in the diff text", async () => {
  await withRepo({ "win.txt": "a\r\nb\r\n" }, async (repo) => {
    await repo.write("win.txt", "a\r\nB\r\n");
    const change = await collect(repo, { kind: "worktree" });
    assert.match(change.diff, /\n-b\r\n\+B\r\n$/);
    assert.equal(change.files[0].additions, 1);
    assert.equal(await change.tree.lineCount("win.txt"), 2);
  });
});

Deno.test("collectChange() lists binary files without inlining them", async () => {
  await withRepo({ "img.bin": new Uint8Array([0, 1, 2, 3]) }, async (repo) => {
    await repo.write("img.bin", new Uint8Array([0, 1, 2, 4, 0]));
    await repo.write("t.txt", "t\n");
    const change = await collect(repo, { kind: "worktree" });
    assert.deepEqual(change.files[0], {
      path: "img.bin",
      status: "modified",
      binary: true,
      additions: 0,
      deletions: 0,
      omitted: "binary",
    });
    assert.doesNotMatch(change.diff, /img\.bin/);
    assert.match(change.diff, /t\.txt/);
    assert.deepEqual(change.coverage.omitted, [
      { path: "img.bin", reason: "binary", lines: 0, bytes: 5 },
    ]);
    assert.equal(change.coverage.status, "partial", "a binary file is not reviewed: partial");
  });
});

Deno.test("collectChange() detects renames", async () => {
  const body = Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join("");
  await withRepo({ "old name.txt": body }, async (repo) => {
    await Deno.rename(`${repo.root}/old name.txt`, `${repo.root}/new name.txt`);
    await repo.write("new name.txt", `${body}extra\n`);
    const change = await collect(repo, { kind: "worktree" });
    assert.deepEqual(change.files, [{
      path: "new name.txt",
      oldPath: "old name.txt",
      status: "renamed",
      binary: false,
      additions: 1,
      deletions: 0,
    }]);
    assert.match(change.diff, /rename from old name.txt\nrename to new name.txt\n/);
    assert.equal(change.tree.isDeleted("old name.txt"), true);
  });
});

Deno.test("collectChange() budgets by hunks: shows the hunks that fit and names the rest", async () => {
  // 3,000 changed lines of one file in 30 hunks of 100 (the "one large file" sample)
  const lines = Array.from({ length: 6000 }, (_, i) => `line ${i + 1}`);
  await withRepo({ "big.txt": lines.join("\n") + "\n", "small.txt": "s\n" }, async (repo) => {
    const edited = lines.map((l, i) => (Math.floor(i / 100) % 2 === 0 ? `${l} edited` : l));
    await repo.write("big.txt", edited.join("\n") + "\n");
    await repo.write("small.txt", "s2\n");
    const change = await collect(repo, { kind: "worktree" }, {
      perFileBytes: 64 * 1024,
      totalBytes: 64 * 1024,
    });
    const big = change.files.find((f) => f.path === "big.txt")!;
    assert.equal(big.additions, 3000);
    assert.equal(big.omitted, undefined, "part of big.txt is in the prompt");
    assert.equal(change.coverage.status, "partial");
    const [omitted] = change.coverage.omitted;
    assert.equal(omitted.path, "big.txt");
    assert.equal(omitted.reason, "budget");
    const shown = change.diff.match(/^@@ -\d+,\d+ \+(\d+),\d+ @@/gm)!;
    assert.ok(shown.length >= 2, "several hunks of big.txt are shown");
    assert.match(change.diff, /^diff --git a\/small\.txt b\/small\.txt$/m);
    // every hunk is either in the prompt or named with its lines
    const bigDiff = change.diff.slice(0, change.diff.indexOf("diff --git a/small.txt"));
    const shownStarts = new Set(
      [...bigDiff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)/gm)].map((m) => Number(m[1])),
    );
    for (const h of omitted.hunks!) assert.equal(shownStarts.has(h.newStart), false);
    assert.equal(shownStarts.size + omitted.hunks!.length, 30);
    assert.equal(change.coverage.reviewedLines + change.coverage.omittedLines, 6000 + 2);
    assert.equal(omitted.lines, omitted.hunks!.length * 200);
    assert.ok(change.coverage.reviewedBytes <= 64 * 1024);
    assert.equal(change.coverage.reviewedBytes, new TextEncoder().encode(change.diff).length);
    // with room for everything, the same change is complete
    const whole = await collect(repo, { kind: "worktree" });
    assert.equal(whole.coverage.status, "complete");
    assert.notEqual(whole.planId, change.planId, "another plan, another verdict");
    assert.equal(whole.fingerprint, change.fingerprint);
  });
});

Deno.test("collectChange() handles a ~20k-line change quickly", async () => {
  await withRepo({ "k.txt": "k\n" }, async (repo) => {
    for (let f = 0; f < 10; f++) {
      await repo.write(
        `gen/f${f}.txt`,
        Array.from({ length: 2000 }, (_, i) => `row ${f} ${i}\n`).join(""),
      );
    }
    const started = performance.now();
    const change = await collect(repo, { kind: "worktree" });
    const ms = performance.now() - started;
    assert.equal(change.files.reduce((n, f) => n + f.additions, 0), 20_000);
    assert.equal(change.diff.match(/^\+row /gm)?.length, 20_000);
    assert.ok(ms < 3000, `took ${ms} ms`);
  });
});

Deno.test("collectChange() returns an empty change when nothing differs", async () => {
  await withRepo({ "a.txt": "a\n" }, async (repo) => {
    const change = await collect(repo, { kind: "worktree" });
    assert.deepEqual(change.files, []);
    assert.equal(change.diff, "");
    assert.equal(change.coverage.status, "complete");
  });
});

Deno.test("collectChange() plans several chunks when maxCalls allows, in path order", async () => {
  await withRepo({ "k.txt": "k\n" }, async (repo) => {
    for (let f = 0; f < 12; f++) {
      await repo.write(
        `d${f % 3}/f${String(f).padStart(2, "0")}.txt`,
        `${"x".repeat(60)}\n`.repeat(40),
      );
    }
    const r = await resolveRepo(runProcess, repo.root);
    const budgets = { perFileBytes: 4096, totalBytes: 12 * 1024 };
    const one = await collectChange(runProcess, { repo: r, target: { kind: "worktree" }, budgets });
    assert.equal(one.chunks.length, 1);
    assert.equal(one.coverage.status, "partial");
    const many = await collectChange(runProcess, {
      repo: r,
      target: { kind: "worktree" },
      budgets: { ...budgets, maxCalls: 8 },
    });
    assert.equal(many.coverage.status, "complete");
    assert.ok(many.chunks.length >= 3 && many.chunks.length <= 8, `${many.chunks.length} chunks`);
    for (const chunk of many.chunks) assert.ok(chunk.bytes <= 12 * 1024);
    assert.deepEqual(many.chunks.flatMap((c) => c.paths), many.files.map((f) => f.path));
    assert.equal(many.diff, many.chunks.map((c) => c.diff).join(""));
    assert.notEqual(many.planId, one.planId);
  });
});

Deno.test('collectChange() omits submodules as "submodule" and makes coverage partial', async (t) => {
  const sub = await makeTestRepo({ "s.txt": "s\n" });
  try {
    await withRepo({ "a.txt": "a\n" }, async (repo) => {
      await repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.root, "sm");
      await repo.git("commit", "-q", "-m", "submodule");
      await t.step("an uncommitted edit inside the submodule alone is a change", async () => {
        await repo.write("sm/s.txt", "edited\n");
        const change = await collect(repo, { kind: "worktree" });
        assert.deepEqual(change.files, [{
          path: "sm",
          status: "modified",
          binary: false,
          additions: 0,
          deletions: 0,
          omitted: "submodule",
        }]);
        assert.equal(change.diff, "");
        assert.equal(change.coverage.status, "partial");
        assert.deepEqual(change.coverage.omitted, [
          { path: "sm", reason: "submodule", lines: 0, bytes: 0 },
        ]);
        await repo.write("sm/s.txt", "edited again\n");
        const again = await collect(repo, { kind: "worktree" });
        assert.notEqual(again.fingerprint, change.fingerprint, "content inside counts");
        assert.equal((await collect(repo, { kind: "worktree" })).fingerprint, again.fingerprint);
      });
      await t.step("a changed gitlink next to a file edit", async () => {
        await repo.git("-C", "sm", "commit", "-q", "-am", "inner");
        await repo.write("a.txt", "a2\n");
        const change = await collect(repo, { kind: "worktree" });
        assert.deepEqual(change.files.map((f) => [f.path, f.omitted]), [
          ["a.txt", undefined],
          ["sm", "submodule"],
        ]);
        assert.equal("gitlink" in change.files[1], false);
        assert.doesNotMatch(change.diff, /Subproject commit/);
        assert.equal(change.coverage.status, "partial");
        await repo.git("commit", "-q", "-am", "bump");
        const commit = await collect(repo, { kind: "commit", sha: "HEAD" });
        assert.deepEqual(commit.coverage.omitted, [
          { path: "sm", reason: "submodule", lines: 0, bytes: 0 },
        ]);
        assert.equal(commit.coverage.status, "partial");
        assert.doesNotMatch(commit.diff, /Subproject commit/);
        assert.match(commit.diff, /^diff --git a\/a.txt b\/a.txt\n/);
      });
    });
  } finally {
    await sub.cleanup();
  }
});

Deno.test("fingerprintOf() keeps the digests of the incremental node:crypto hash it replaced", async () => {
  const raw = new Uint8Array([0x3a, 0x31, 0, 0xff, 0x41]);
  // Values computed with createHash("sha256").update("range\0").update(raw)[.update("\0").update(extra)].
  assert.equal(
    await fingerprintOf("range", raw),
    "6c0e12654328f3d516e90ade6f916a5b805297e67228c0638036880e09ec7b68",
  );
  assert.equal(
    await fingerprintOf("range", raw, "sub \u00e9"),
    "95cb58f8b89805fa7a9cca8ee97a5793c818eb6ef932da085b58013dadd93491",
  );
});

Deno.test("collectChange() gives the reviewed tree the lines the change edited, per file", async () => {
  const ten = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join("");
  await withRepo({ "a.txt": ten, "b.txt": "keep\n", "gone.txt": "x\n" }, async (repo) => {
    await repo.write("a.txt", ten.replace("line 3\n", "LINE 3\n").replace("line 8\n", ""));
    await repo.write("new.txt", "n1\nn2\n");
    await Deno.remove(`${repo.root}/gone.txt`);
    const worktree = (await collect(repo, { kind: "worktree" })).tree;
    assert.deepEqual(worktree.changedLines("a.txt"), [{ start: 3, end: 3 }, { start: 7, end: 8 }]);
    assert.deepEqual(worktree.changedLines("new.txt"), [{ start: 1, end: 2 }]);
    assert.deepEqual(worktree.changedLines("b.txt"), [], "a file outside the change");
    await repo.git("add", "-A");
    await repo.git("commit", "-q", "-m", "edit");
    const { tree } = await collect(repo, { kind: "commit", sha: "HEAD" });
    assert.deepEqual(tree.changedLines("a.txt"), [{ start: 3, end: 3 }, { start: 7, end: 8 }]);
    assert.deepEqual(tree.changedLines("b.txt"), []);
  });
});

Deno.test("collectChange() reads a patch too large to hold while the path filter runs a second time, with the same result", async () => {
  const line = "x".repeat(79);
  const big = Array.from({ length: 120_000 }, (_, i) => `${i} ${line}\n`).join(""); // ~10 MB
  await withRepo({ "big.txt": "old\n", "small.txt": "s\n" }, async (repo) => {
    await repo.write("big.txt", big);
    await repo.write("small.txt", "s\nt\n");
    const r = await resolveRepo(runProcess, repo.root);
    const budgets = { perFileBytes: 50_000, totalBytes: 100_000 };
    const plain = await collectChange(runProcess, {
      repo: r,
      target: { kind: "worktree" },
      budgets,
    });
    const { runner, calls } = counting();
    let patchRead = () => {};
    const done = new Promise<void>((resolve) => (patchRead = resolve));
    const late = await collectChange((request) => {
      const result = runner(request);
      if (request.args.includes("diff-tree")) result.then(() => patchRead());
      return result;
    }, {
      repo: r,
      target: { kind: "worktree" },
      budgets,
      // a slow path filter: git has printed the whole patch before it answers
      exclude: async () => (await done, { excluded: [], notExcluded: [] }),
    });
    const diffTrees = calls.filter((c) => c.includes("diff-tree"));
    assert.equal(diffTrees.length, 2, "the patch was read again");
    assert.ok(!diffTrees[1].includes("--raw"), "the second call reads the patch alone");
    assert.equal(late.fingerprint, plain.fingerprint);
    assert.equal(late.planId, plain.planId);
    assert.equal(late.diff, plain.diff);
    assert.deepEqual(late.coverage, plain.coverage);
  });
});

Deno.test("isCleanWorktree() is true only for a working tree with no change: untracked, behind index bits, or left out", async () => {
  await withRepo({ "a.txt": "1\n", ".gitignore": "*.log\n" }, async (repo) => {
    const clean = async () => isCleanWorktree(await collect(repo, { kind: "worktree" }));
    assert.equal(await clean(), true);
    await repo.write("x.log", "ignored\n");
    assert.equal(await clean(), true, "an ignored file is no change");
    await repo.git("update-index", "--assume-unchanged", "a.txt");
    await repo.write("a.txt", "1\nhidden edit\n");
    assert.equal(await clean(), false, "an edit behind assume-unchanged");
    await repo.write("a.txt", "1\n");
    assert.equal(await clean(), true);
    await repo.write("new.txt", "n\n");
    assert.equal(await clean(), false, "an untracked file");
    await Deno.remove(`${repo.root}/new.txt`);
    await repo.write("vendor/v.txt", "v\n");
    await repo.git("-C", "vendor", "init", "-q");
    await repo.git("-C", "vendor", "add", "-A");
    await repo.git("-C", "vendor", "commit", "-q", "-m", "nested");
    const nested = await collect(repo, { kind: "worktree" });
    assert.deepEqual(nested.files, []);
    assert.equal(isCleanWorktree(nested), false, "a nested repository is left out and named");
  });
});

Deno.test("collectChange() counts each file's lines from the patch as git's --numstat does (binary, rename, type change, CRLF, no final newline, a cut hunk)", async () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}\n`).join("");
  await withRepo({
    "crlf.txt": "a\r\nb\r\n",
    "tail.txt": "x\ny",
    "bin.dat": new Uint8Array([0, 1, 2, 3]),
    "old name.txt": lines(40),
    "link": "target\n",
    "gone.txt": "g\nh\n",
    "big.txt": lines(5000),
  }, async (repo) => {
    await repo.write("crlf.txt", "a\r\nB\r\nc\r\n");
    await repo.write("tail.txt", "x\nz");
    await repo.write("bin.dat", new Uint8Array([0, 1, 9, 3, 4]));
    await repo.git("mv", "old name.txt", "new name.txt");
    await repo.write("new name.txt", lines(40).replace("line 7\n", "line seven\n"));
    await Deno.remove(`${repo.root}/link`);
    await Deno.symlink("crlf.txt", `${repo.root}/link`);
    await Deno.remove(`${repo.root}/gone.txt`);
    await repo.write("big.txt", lines(6000).replaceAll("line 1", "LINE 1"));
    // small budgets: big.txt's one large hunk is cut into parts, most of them not shown
    const change = await collect(repo, { kind: "worktree" }, {
      perFileBytes: 8_000,
      totalBytes: 20_000,
    });
    const tree = change.toTree!;
    const numstat = new TextDecoder().decode(
      await new Deno.Command("git", {
        args: ["diff-tree", "-r", "-z", "-M", "--numstat", change.from!, tree],
        cwd: repo.root,
      }).output().then((o) => o.stdout),
    ).split("\0");
    const expected = new Map<string, [boolean, number, number]>();
    for (let i = 0; i < numstat.length - 1; i++) {
      const [added, deleted, path] = numstat[i].split("\t");
      const name = path === "" ? numstat[i += 2] : path; // a rename names both paths after it
      expected.set(name, [added === "-", Number(added) || 0, Number(deleted) || 0]);
    }
    assert.equal(expected.size, change.files.length);
    for (const f of change.files) {
      assert.deepEqual([f.binary, f.additions, f.deletions], expected.get(f.path), f.path);
    }
  });
});
