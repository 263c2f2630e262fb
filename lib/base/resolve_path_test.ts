import assert from "node:assert/strict";
import { join } from "node:path";
import { resolvePath } from "./resolve_path.ts";

Deno.test("resolvePath() follows a symlinked folder, also for a path below it that does not exist yet", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rg-resolve-" }));
  try {
    await Deno.mkdir(join(base, "private", "var"), { recursive: true });
    await Deno.symlink(join(base, "private", "var"), join(base, "var"));
    assert.equal(await resolvePath(join(base, "var")), join(base, "private", "var"));
    assert.equal(
      await resolvePath(join(base, "var", "not", "yet")),
      join(base, "private", "var", "not", "yet"),
    );
    assert.equal(await resolvePath(join(base, "none")), join(base, "none"));
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
