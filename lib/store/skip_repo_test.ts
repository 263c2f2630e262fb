import assert from "node:assert/strict";
import { join } from "node:path";
import { skipRepoOf, skipsOfRepo } from "./skip_repo.ts";
import type { SkipRecord } from "./skips.ts";

const base: SkipRecord = { at: "2026-12-01T00:00:00Z", gate: "pre-push", reason: "env" };

/** A main repository's .git, a linked worktree of it, a submodule, and a plain directory. */
async function layout() {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const main = join(dir, "main");
  const common = join(main, ".git");
  await Deno.mkdir(join(common, "worktrees", "wt"), { recursive: true });
  await Deno.writeTextFile(join(common, "worktrees", "wt", "commondir"), "../..\n");
  await Deno.writeTextFile(join(common, "HEAD"), "ref: refs/heads/main\n");
  const wt = join(dir, "wt");
  await Deno.mkdir(join(wt, "src"), { recursive: true });
  await Deno.writeTextFile(join(wt, ".git"), `gitdir: ${join(common, "worktrees", "wt")}\n`);
  await Deno.mkdir(join(common, "modules", "lib"), { recursive: true });
  await Deno.mkdir(join(main, "lib"));
  await Deno.writeTextFile(join(main, "lib", ".git"), "gitdir: ../.git/modules/lib\n");
  await Deno.mkdir(join(main, "src", "deep"), { recursive: true });
  await Deno.symlink(main, join(dir, "link"));
  return { dir, main, common, wt };
}

Deno.test("skipRepoOf() finds the common dir from the repo, GIT_DIR, or the directory walked up", async () => {
  const { dir, main, common, wt } = await layout();
  try {
    const of = (r: Partial<SkipRecord>) => skipRepoOf({ ...base, ...r });
    assert.equal(await of({ repo: common }), common);
    assert.equal(await of({ dir: main }), common);
    assert.equal(
      await of({ dir: join(main, "src", "deep") }),
      common,
      "a Stop's cwd below the root",
    );
    assert.equal(await of({ dir: join(dir, "link", "src") }), common, "through a symlink");
    assert.equal(await of({ dir: join(wt, "src") }), common, "a linked worktree's gitdir file");
    assert.equal(
      await of({ dir: wt, gitDir: join(common, "worktrees", "wt") }),
      common,
      "GIT_DIR of a linked worktree names its commondir",
    );
    assert.equal(await of({ dir: main, gitDir: ".git" }), common, "a relative GIT_DIR");
    assert.equal(
      await of({ dir: join(main, "lib") }),
      join(common, "modules", "lib"),
      "a submodule",
    );
    assert.equal(await of({ dir: join(dir, "gone") }), null);
    // an empty `.git` folder is no repository: the walk goes past it
    await Deno.mkdir(join(dir, "stray", ".git"), { recursive: true });
    await Deno.mkdir(join(dir, "stray", "src"));
    assert.equal(await of({ dir: join(dir, "stray", "src") }), null);
    assert.equal(await of({ dir: "relative/path" }), null);
    assert.equal(await of({}), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("skipRepoOf() reads a FIFO named as commondir or .git file as nothing, never waiting on it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = async (path: string) => {
      const made = await new Deno.Command("mkfifo", { args: [path] }).output();
      assert.ok(made.success, "mkfifo");
    };
    await Deno.mkdir(join(dir, "g"));
    await fifo(join(dir, "g", "commondir"));
    await Deno.mkdir(join(dir, "wt"));
    await fifo(join(dir, "wt", ".git"));
    // a forged record's GIT_DIR with a FIFO for commondir: the folder itself, read as no pointer
    assert.equal(
      await skipRepoOf({ ...base, gitDir: join(dir, "g") }),
      await Deno.realPath(join(dir, "g")),
    );
    // a FIFO where a worktree's .git file would be: no repository
    assert.equal(await skipRepoOf({ ...base, dir: join(dir, "wt") }), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("skipsOfRepo() keeps the records of one repository, in file order", async () => {
  const { dir, main, common, wt } = await layout();
  try {
    const records: SkipRecord[] = [
      { ...base, dir: main },
      { ...base, dir: join(dir, "elsewhere") },
      { ...base, gate: "claude-stop", dir: wt },
      { ...base, dir: join(main, "lib") },
    ];
    assert.deepEqual(await skipsOfRepo(records, join(dir, "link", ".git")), [
      records[0],
      records[2],
    ]);
    assert.deepEqual(await skipsOfRepo(records, common), [records[0], records[2]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
