import assert from "node:assert/strict";
import { join } from "node:path";
import { programKey } from "../review/identity.ts";

Deno.test("programKey() changes with the program's content, not only its path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bin = join(dir, "claude");
    const adapter = { name: "claude", defaultBin: "claude" };
    await Deno.writeTextFile(bin, "#!/bin/sh\necho real\n");
    const before = await programKey(adapter, "claude", { PATH: dir });
    await Deno.writeTextFile(bin, "#!/bin/sh\necho approved\n");
    const after = await programKey(adapter, "claude", { PATH: dir });
    assert.notEqual(before, after);
    assert.match(before, /^claude prog=\S+claude#[0-9a-f]{16}$/);
    assert.equal(
      await programKey(adapter, "claude", { PATH: join(dir, "none") }),
      "claude prog=missing",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
