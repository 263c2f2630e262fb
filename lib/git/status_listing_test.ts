import assert from "node:assert/strict";
import { join } from "node:path";
import { contentSignature, diskSignature } from "./status_listing.ts";

Deno.test("diskSignature() hashes a file larger than its read buffer as contentSignature() does its bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7) & 0xff);
    await Deno.writeFile(join(dir, "big.bin"), bytes);
    await Deno.writeFile(join(dir, "empty"), new Uint8Array());
    assert.equal(await diskSignature(join(dir, "big.bin")), await contentSignature(bytes));
    assert.equal(await diskSignature(join(dir, "empty")), await contentSignature(new Uint8Array()));
    assert.equal(await diskSignature(join(dir, "absent")), "absent");
    await Deno.symlink("big.bin", join(dir, "link"));
    assert.equal(await diskSignature(join(dir, "link")), "link big.bin");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
