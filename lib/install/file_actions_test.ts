import assert from "node:assert/strict";
import { join } from "node:path";
import { applyActions } from "./file_actions.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-actions-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

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
