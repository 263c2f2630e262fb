import assert from "node:assert/strict";
import { join } from "node:path";
import { stageFile, writeFileAtomic } from "./atomic_write.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-atomic-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const modeOf = async (p: string) => ((await Deno.lstat(p)).mode ?? 0) & 0o7777;
const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("writeFileAtomic() never leaves a world-writable file", async () => {
  await withDir(async (dir) => {
    const forced = join(dir, "forced");
    await writeFileAtomic(forced, "x\n", { mode: 0o777 });
    assert.equal(await modeOf(forced), 0o775);
    const kept = join(dir, "kept");
    await Deno.writeTextFile(kept, "old\n");
    await Deno.chmod(kept, 0o666);
    await writeFileAtomic(kept, "new\n");
    assert.equal(await modeOf(kept), 0o664);
  });
});

Deno.test("writeFileAtomic() gives a new file the new-file mode and keeps an existing file's mode", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "f.json");
    await writeFileAtomic(path, "1\n", { newFileMode: 0o600 });
    assert.equal(await modeOf(path), 0o600);
    await Deno.chmod(path, 0o640);
    await writeFileAtomic(path, new TextEncoder().encode("2\n"), { newFileMode: 0o600 });
    assert.equal(await modeOf(path), 0o640);
    assert.equal(await Deno.readTextFile(path), "2\n");
    await writeFileAtomic(join(dir, "g"), "x");
    assert.equal(await modeOf(join(dir, "g")), 0o644);
    assert.deepEqual(names(dir), ["f.json", "g"]);
  });
});

Deno.test("writeFileAtomic() writes a symlink's target in place and keeps the link", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(join(dir, "real"));
    const target = join(dir, "real/hook");
    await Deno.writeTextFile(target, "old\n");
    await Deno.chmod(target, 0o755);
    const link = join(dir, "link");
    await Deno.symlink("real/hook", link);
    await writeFileAtomic(link, "new\n", { newFileMode: 0o600 });
    assert.equal((await Deno.lstat(link)).isSymlink, true);
    assert.equal(await Deno.readLink(link), "real/hook");
    assert.equal(await Deno.readTextFile(target), "new\n");
    assert.equal(await modeOf(target), 0o755);
    assert.deepEqual(names(join(dir, "real")), ["hook"]);
  });
});

Deno.test("writeFileAtomic() with replaceSymlink replaces a link by the file, its target untouched", async () => {
  await withDir(async (dir) => {
    const victim = join(dir, "victim.txt");
    await Deno.writeTextFile(victim, "mine\n");
    await Deno.chmod(victim, 0o600);
    await Deno.mkdir(join(dir, "repo"));
    const link = join(dir, "repo", "review.md");
    await Deno.symlink(victim, link);
    await writeFileAtomic(link, "# Review\n", { replaceSymlink: true });
    assert.equal((await Deno.lstat(link)).isSymlink, false, "the link is gone");
    assert.equal(await Deno.readTextFile(link), "# Review\n");
    assert.equal(await modeOf(link), 0o644, "a new file's mode, not the target's");
    assert.equal(await Deno.readTextFile(victim), "mine\n", "the target is never written");
    // a dangling link is replaced too (nothing is created where it pointed)
    const dangling = join(dir, "repo", "r.sarif");
    await Deno.symlink(join(dir, "created.txt"), dangling);
    await writeFileAtomic(dangling, "{}\n", { replaceSymlink: true });
    assert.equal(await Deno.readTextFile(dangling), "{}\n");
    assert.deepEqual(names(dir), ["repo", "victim.txt"]);
    assert.deepEqual(names(join(dir, "repo")), ["r.sarif", "review.md"]);
  });
});

Deno.test("writeFileAtomic() refuses a dangling symlink and leaves no temp file", async () => {
  await withDir(async (dir) => {
    await Deno.symlink("missing", join(dir, "link"));
    await assert.rejects(writeFileAtomic(join(dir, "link"), "x"), Deno.errors.NotFound);
    assert.deepEqual(names(dir), ["link"]);
  });
});

Deno.test("stageFile() writes a dot-named .tmp file beside the target, not the target", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "answer.json");
    const { temp, target } = await stageFile(path, "{}\n", { newFileMode: 0o600 });
    assert.equal(target, path);
    assert.match(temp, /\/\.answer\.json\..*\.tmp$/);
    assert.equal(await modeOf(temp), 0o600);
    assert.equal(await Deno.lstat(path).then(() => true, () => false), false);
    await Deno.rename(temp, target);
    assert.equal(await Deno.readTextFile(path), "{}\n");
  });
});
