import assert from "node:assert/strict";
import { scanIndex, scanIndexFile, scanRepoIndex } from "./index_file.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";

/** What git itself says: a lowercase or S/s tag in `ls-files -v`, a 160000 mode in `ls-files -s`. */
async function gitSays(repo: TestRepo) {
  const tags = (await repo.git("ls-files", "-v", "-z")).split("\0").filter((e) => e !== "");
  const modes = (await repo.git("ls-files", "-s", "-z")).split("\0").filter((e) => e !== "");
  return {
    flagged: tags.some((e) => e[0] === "S" || e[0] === "s" || e[0] !== e[0].toUpperCase()),
    gitlinks: modes.some((e) => e.startsWith("160000 ")),
  };
}

async function scan(repo: TestRepo, objectFormat: "sha1" | "sha256" = "sha1") {
  return scanIndex(await repo.read(".git/index"), objectFormat);
}

Deno.test("scanIndex() agrees with git ls-files in every index version and object format", async (t) => {
  for (const objectFormat of ["sha1", "sha256"] as const) {
    for (const version of ["2", "3", "4"]) {
      await t.step(`${objectFormat}, version ${version}`, async () => {
        const long = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(210, "d")).join("/");
        const repo = await makeTestRepo({
          "a.txt": "a\n",
          "dir/b.txt": "b\n",
          "dir/sub/c.txt": "c\n",
          "ü ñ.txt": "x\n",
        }, { objectFormat });
        const sub = await makeTestRepo({ "s.txt": "s\n" }, { objectFormat });
        try {
          await repo.git("update-index", "--index-version", version);
          // a path longer than the 12-bit name length (4095) and than PATH_MAX: index only
          const blob = (await repo.git("rev-parse", "HEAD:a.txt")).trim();
          await repo.git("update-index", "--add", "--cacheinfo", `100644,${blob},${long}/deep.txt`);
          const check = async (what: string, want: { flagged: boolean; gitlinks: boolean }) => {
            assert.deepEqual(await gitSays(repo), want, `git: ${what}`);
            assert.deepEqual(await scan(repo, objectFormat), want, what);
          };
          await check("plain", { flagged: false, gitlinks: false });
          await repo.write("new.txt", "n\n");
          await repo.git("add", "-N", "new.txt"); // intent-to-add: an extended entry, not flagged
          await check("intent-to-add", { flagged: false, gitlinks: false });
          const head = (await sub.git("rev-parse", "HEAD")).trim();
          await repo.git("update-index", "--add", "--cacheinfo", `160000,${head},sm`);
          await check("gitlink", { flagged: false, gitlinks: true });
          await repo.git("update-index", "--assume-unchanged", "dir/b.txt");
          await check("assume-unchanged", { flagged: true, gitlinks: true });
          await repo.git("update-index", "--no-assume-unchanged", "dir/b.txt");
          await repo.git("update-index", "--skip-worktree", `${long}/deep.txt`);
          await check("skip-worktree on a long path", { flagged: true, gitlinks: true });
        } finally {
          await repo.cleanup();
          await sub.cleanup();
        }
      });
    }
  }
});

Deno.test("scanIndex() reads past the extensions git writes and leaves a split index to git", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n", "d/b.txt": "b\n" });
  try {
    await repo.git("config", "index.recordEndOfIndexEntries", "true");
    await repo.git("config", "index.recordOffsetTable", "true");
    await repo.git("config", "index.threads", "2");
    await repo.git("update-index", "--untracked-cache");
    await repo.write("u.txt", "u\n");
    await repo.git("status", "--porcelain"); // fills the untracked cache (UNTR)
    await repo.git("update-index", "--assume-unchanged", "a.txt");
    assert.deepEqual(await scan(repo), { flagged: true, gitlinks: false });
    await repo.git("update-index", "--no-assume-unchanged", "a.txt");
    assert.deepEqual(await scan(repo), { flagged: false, gitlinks: false });
    await repo.git("update-index", "--split-index");
    assert.equal(await scan(repo), null, "entries may live in the shared index");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("scanIndex() refuses what is not a whole index; scanIndexFile() reads no index as empty", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    const bytes = await repo.read(".git/index");
    assert.deepEqual(scanIndex(bytes, "sha1"), { flagged: false, gitlinks: false });
    assert.equal(scanIndex(bytes.slice(0, bytes.length - 30), "sha1"), null, "cut off");
    assert.equal(scanIndex(new TextEncoder().encode("not an index at all"), "sha1"), null);
    assert.equal(scanIndex(bytes, "sha256"), null, "wrong object format");
    assert.deepEqual(await scanIndexFile(`${repo.root}/.git/none`, "sha1"), {
      flagged: false,
      gitlinks: false,
    });
    assert.equal(await scanIndexFile(repo.root, "sha1"), null, "a directory cannot be read");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("scanRepoIndex() leaves an index named by GIT_INDEX_FILE to git", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  const at = { gitDir: `${repo.root}/.git`, objectFormat: "sha1" as const };
  try {
    assert.deepEqual(await scanRepoIndex(at), { flagged: false, gitlinks: false });
    Deno.env.set("GIT_INDEX_FILE", `${repo.root}/.git/other-index`);
    assert.equal(await scanRepoIndex(at), null);
    assert.deepEqual(
      await scanRepoIndex(at, `${repo.root}/.git/index`),
      { flagged: false, gitlinks: false },
      "a private copy named by the caller is scanned",
    );
  } finally {
    Deno.env.delete("GIT_INDEX_FILE");
    await repo.cleanup();
  }
});
