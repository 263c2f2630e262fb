import assert from "node:assert/strict";
import { join } from "node:path";
import { readRegularText } from "./regular_file.ts";

Deno.test("readRegularText() reads a regular file and refuses devices, FIFOs, directories and oversized files at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rg-regular-" });
  try {
    await Deno.writeTextFile(join(dir, "a.json"), "{}\n");
    assert.equal(await readRegularText(join(dir, "a.json")), "{}\n");
    await Deno.symlink(join(dir, "a.json"), join(dir, "link.json"));
    assert.equal(
      await readRegularText(join(dir, "link.json")),
      "{}\n",
      "a symlink to a file is read",
    );
    await Deno.symlink("/dev/zero", join(dir, "zero.json"));
    await assert.rejects(() => readRegularText(join(dir, "zero.json")), Deno.errors.InvalidData);
    const fifo = new Deno.Command("mkfifo", { args: [join(dir, "fifo")] });
    assert.equal((await fifo.output()).code, 0);
    await assert.rejects(() => readRegularText(join(dir, "fifo")), /not a regular file/);
    await assert.rejects(() => readRegularText(dir), /not a regular file/);
    await Deno.writeTextFile(join(dir, "big"), "x".repeat(2000));
    await assert.rejects(() => readRegularText(join(dir, "big"), 1000), /2000 bytes/);
    await assert.rejects(() => readRegularText(join(dir, "missing")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
