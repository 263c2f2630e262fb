import assert from "node:assert/strict";
import { join } from "node:path";
import { applyActions, writeAtomic } from "./file_actions.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-actions-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const modeOf = async (p: string) => ((await Deno.lstat(p)).mode ?? 0) & 0o7777;

Deno.test("writeAtomic() never creates a world-writable file", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "f");
    await writeAtomic(path, "x\n", 0o777);
    assert.equal(await modeOf(path), 0o775);
  });
});

Deno.test("writeAtomic() writes a symlink's target in place and keeps the link", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(join(dir, "real"));
    const target = join(dir, "real/hook");
    await Deno.writeTextFile(target, "old\n");
    const link = join(dir, "link");
    await Deno.symlink("real/hook", link);
    await writeAtomic(link, "new\n", 0o755);
    assert.equal((await Deno.lstat(link)).isSymlink, true);
    assert.equal(await Deno.readLink(link), "real/hook");
    assert.equal(await Deno.readTextFile(target), "new\n");
    assert.equal(await modeOf(target), 0o755);
  });
});

Deno.test("applyActions() rmdir removes an empty directory and leaves a non-empty one", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(join(dir, "empty"));
    await Deno.mkdir(join(dir, "full"));
    await Deno.writeTextFile(join(dir, "full/f"), "");
    await applyActions([
      { op: "rmdir", path: join(dir, "empty"), why: "t" },
      { op: "rmdir", path: join(dir, "full"), why: "t" },
    ]);
    assert.equal(await Deno.lstat(join(dir, "empty")).then(() => true, () => false), false);
    assert.equal((await Deno.lstat(join(dir, "full"))).isDirectory, true);
  });
});
