import assert from "node:assert/strict";
import { join } from "node:path";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { liveChildren } from "../exec/children.ts";
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

Deno.test("copyTree() carries on from the first blob not fully written when a Ctrl-C to our group stops cat-file mid-stream", async () => {
  const big = Uint8Array.from({ length: 600_000 }, (_, i) => (i * 13 + (i >> 9)) & 0xff);
  // the big blob comes last: the cut falls before or inside it (a pipe holds 64 KiB at most)
  const files: Record<string, string | Uint8Array> = { "c/big.bin": big };
  for (let i = 0; i < 50; i++) files[`b/f${i}.txt`] = `file ${i}\n`;
  const repo = await makeTestRepo(files);
  try {
    const tree = (await repo.git("rev-parse", "HEAD^{tree}")).trim();
    const batches: string[] = [];
    // the real runner; the first cat-file gets SIGINT (what a terminal's Ctrl-C does to a git in
    // our group) once 2000 bytes of output are in (a few dozen small blobs)
    const runner = (request: ExecRequest) => {
      if (!request.args.includes("cat-file")) return runProcess(request);
      batches.push(String(request.stdin));
      if (batches.length > 1) return runProcess(request);
      let read = 0;
      return runProcess({
        ...request,
        onStdout: (chunk) => {
          if (read < 2000 && (read += chunk.length) >= 2000) {
            for (const pid of liveChildren()) Deno.kill(pid, "SIGINT");
          }
          request.onStdout?.(chunk);
        },
      });
    };
    await withPrivateTempDir(async (dir) => {
      const dest = join(dir, "tree");
      await Deno.mkdir(dest);
      const copy = await copyTree(runner, repo.root, tree, dest);
      assert.equal(batches.length, 2, "cat-file ran once more");
      const oids = (s: string) => s.trim().split("\n");
      assert.equal(oids(batches[0]).length, 51);
      const rest = oids(batches[1]);
      assert.ok(rest.length < 51, "only what was not written is asked again");
      assert.deepEqual(rest, oids(batches[0]).slice(-rest.length));
      assert.equal(copy.files, 51);
      assert.deepEqual(copy.skipped, []);
      assert.deepEqual(await Deno.readFile(join(dest, "c/big.bin")), big);
      for (const i of [0, 49]) {
        assert.equal(await Deno.readTextFile(join(dest, `b/f${i}.txt`)), `file ${i}\n`);
      }
    });
  } finally {
    await repo.cleanup();
  }
});
