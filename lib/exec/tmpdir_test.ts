import assert from "node:assert/strict";
import { cleanupAllTempDirs, liveTempDirs, withPrivateTempDir } from "./tmpdir.ts";
import { StoreError } from "../base/errors.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("withPrivateTempDir() makes a 0700 dir and removes it with its files", async () => {
  let seen = "";
  const result = await withPrivateTempDir(async (dir) => {
    seen = dir;
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    assert.deepEqual(liveTempDirs(), [dir]);
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/sub/f.txt`, "x");
    return 42;
  });
  assert.equal(result, 42);
  assert.equal(await exists(seen), false);
  assert.deepEqual(liveTempDirs(), []);
});

Deno.test("withPrivateTempDir() removes the dir when fn throws", async () => {
  let seen = "";
  await assert.rejects(
    withPrivateTempDir((dir) => {
      seen = dir;
      return Promise.reject(new Error("boom"));
    }),
    /boom/,
  );
  assert.equal(await exists(seen), false);
  assert.deepEqual(liveTempDirs(), []);
});

Deno.test("cleanupAllTempDirs() removes live dirs synchronously", async () => {
  let seen = "";
  let removed = -1;
  await withPrivateTempDir(async (dir) => {
    seen = dir;
    await Deno.writeTextFile(`${dir}/f`, "x");
    removed = cleanupAllTempDirs();
    assert.equal(await exists(dir), false);
  });
  assert.equal(removed, 1);
  assert.equal(await exists(seen), false);
  assert.deepEqual(liveTempDirs(), []);
});

Deno.test("withPrivateTempDir() throws StoreError and skips fn when the dir cannot be created", async () => {
  const saved = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", "/nonexistent/review-gate-tmp");
  let called = false;
  try {
    const error = await withPrivateTempDir(() => {
      called = true;
      return Promise.resolve();
    }).then(() => null, (e) => e);
    assert.ok(error instanceof StoreError, String(error));
    assert.match(
      error.message,
      /^Cannot write a temp directory in "\/nonexistent\/review-gate-tmp"/,
    );
    assert.equal(called, false);
    assert.deepEqual(liveTempDirs(), []);
  } finally {
    if (saved === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", saved);
  }
});

Deno.test("withPrivateTempDir() removes a dir holding a read-only (0555) tree", async () => {
  let kept = "";
  await withPrivateTempDir(async (dir) => {
    kept = dir;
    await Deno.mkdir(`${dir}/tree/sub`, { recursive: true });
    await Deno.writeTextFile(`${dir}/tree/sub/f.txt`, "x", { mode: 0o444 });
    await Deno.chmod(`${dir}/tree/sub`, 0o555);
    await Deno.chmod(`${dir}/tree`, 0o555);
  });
  await assert.rejects(Deno.lstat(kept), Deno.errors.NotFound);
});
