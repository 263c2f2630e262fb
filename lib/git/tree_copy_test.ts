import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../exec/exec.ts";
import { withPrivateTempDir } from "../exec/tmpdir.ts";
import { copyTree, skipOf } from "./tree_copy.ts";
import { makeTestRepo } from "./test_repo.ts";

Deno.test("skipOf() leaves out agent instructions at any depth and case, and unsafe paths", () => {
  const cases: Record<string, string | undefined> = {
    "src/app.ts": undefined,
    "AGENTS.md": "agent instructions AGENTS.md",
    "docs/agents.MD": "agent instructions docs/agents.MD",
    "a/b/AGENTS.override.md": "agent instructions a/b/AGENTS.override.md",
    ".codex/config.toml": "agent instructions .codex/",
    "pkg/.Agents/skills/x/SKILL.md": "agent instructions pkg/.Agents/",
    "AGENTS.md.txt": undefined,
    ".codexrc": undefined,
    "a/../b": "unsafe path a/../b",
    "x/.GIT/config": "unsafe path x/.GIT/config",
    "/abs": "unsafe path /abs",
  };
  for (const [path, want] of Object.entries(cases)) {
    const got = skipOf(path);
    assert.equal(got ? `${got.reason} ${got.at}` : undefined, want, path);
  }
});

Deno.test("copyTree() writes exactly the reviewed tree, raw, read-only, without instructions or .git", async () => {
  const binary = new Uint8Array([0, 1, 2, 255, 13, 10]);
  const repo = await makeTestRepo({
    "README.md": "# r\r\n",
    "src/app.ts": "export const a = 1;\n",
    "src/bin.dat": binary,
    "AGENTS.md": "steer\n",
    "src/AGENTS.override.md": "steer\n",
    ".codex/config.toml": "x=1\n",
    ".agents/skills/s/SKILL.md": "skill\n",
    ".gitattributes": "*.md eol=crlf\n*.ts filter=nope\n",
  });
  try {
    await Deno.symlink("/etc/hostname", join(repo.root, "link"));
    await repo.git("add", "-A");
    await repo.git("commit", "-qm", "link");
    const blob = (await repo.git("rev-parse", "HEAD:README.md")).trim();
    await repo.git("update-index", "--add", "--cacheinfo", `160000,${blob},vendor/sub`);
    await repo.git("commit", "-qm", "submodule");
    await repo.write("src/app.ts", "uncommitted worktree edit\n");
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    await withPrivateTempDir(async (dir) => {
      const dest = join(dir, "tree");
      await Deno.mkdir(dest);
      const copy = await copyTree(runProcess, repo.root, tree, dest);
      assert.deepEqual(copy.skipped.map((s) => `${s.reason}: ${s.path}`).sort(), [
        "agent instructions: .agents/",
        "agent instructions: .codex/",
        "agent instructions: AGENTS.md",
        "agent instructions: src/AGENTS.override.md",
        "submodule: vendor/sub",
      ]);
      assert.equal(copy.files, 5);
      const names: string[] = [];
      for await (const e of Deno.readDir(dest)) names.push(e.name);
      assert.deepEqual(names.sort(), [".gitattributes", "README.md", "link", "src"]);
      // the blob as stored (add normalised it to LF); a checkout would smudge it back to CRLF
      assert.equal(await Deno.readTextFile(join(dest, "README.md")), "# r\n", "raw blob");
      assert.equal(await Deno.readTextFile(join(dest, "src/app.ts")), "export const a = 1;\n");
      assert.deepEqual(await Deno.readFile(join(dest, "src/bin.dat")), binary);
      const link = await Deno.lstat(join(dest, "link"));
      assert.ok(link.isFile, "a symlink becomes a regular file");
      assert.equal(await Deno.readTextFile(join(dest, "link")), "/etc/hostname");
      assert.equal((await Deno.stat(join(dest, "src/app.ts"))).mode! & 0o777, 0o444);
      assert.equal((await Deno.stat(join(dest, "src"))).mode! & 0o777, 0o555);
      assert.equal((await Deno.stat(dest)).mode! & 0o777, 0o555);
    });
  } finally {
    await repo.cleanup();
  }
});

Deno.test("copyTree() streams blobs larger than a pipe read, empty ones and many, byte for byte", async () => {
  // 300 KB of varied bytes: it crosses several reads; an empty file; 300 small files after it
  const big = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);
  const files: Record<string, string | Uint8Array> = { "a/big.bin": big, "a/empty.txt": "" };
  for (let i = 0; i < 300; i++) files[`b/f${i}.txt`] = `file ${i}\n`.repeat(i % 5);
  const repo = await makeTestRepo(files);
  try {
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    await withPrivateTempDir(async (dir) => {
      const dest = join(dir, "tree");
      await Deno.mkdir(dest);
      const copy = await copyTree(runProcess, repo.root, tree, dest);
      assert.equal(copy.files, 302);
      assert.deepEqual(copy.skipped, []);
      assert.deepEqual(await Deno.readFile(join(dest, "a/big.bin")), big);
      assert.equal((await Deno.stat(join(dest, "a/empty.txt"))).size, 0);
      for (const i of [0, 1, 4, 299]) {
        assert.equal(
          await Deno.readTextFile(join(dest, `b/f${i}.txt`)),
          `file ${i}\n`.repeat(i % 5),
        );
      }
      assert.equal(
        copy.bytes,
        300_000 + [...Array(300).keys()].reduce(
          (n, i) => n + `file ${i}\n`.length * (i % 5),
          0,
        ),
      );
    });
  } finally {
    await repo.cleanup();
  }
});
