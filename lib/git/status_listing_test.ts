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

Deno.test("diskSignature() gives every file its own hash when called for many files at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // sizes around the 1 MiB read buffer: smaller, exactly it, one past it, several times it
    const sizes = [0, 1, 4096, 1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1, 2 * 1024 * 1024 + 5];
    const files = sizes.map((size, k) => ({
      path: join(dir, `f${k}`),
      bytes: new Uint8Array(size).map((_, i) => (i * 31 + k * 7) & 0xff),
    }));
    for (const f of files) await Deno.writeFile(f.path, f.bytes);
    const got = await Promise.all(files.map((f) => diskSignature(f.path, true)));
    const want = await Promise.all(files.map(async (f) => `${await contentSignature(f.bytes)}`));
    for (const [k, signature] of got.entries()) {
      const mode = (Deno.lstatSync(files[k].path).mode ?? 0).toString(8);
      assert.equal(signature, `${want[k]} mode ${mode}`, `size ${sizes[k]}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("diskSignature() never opens a FIFO", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "fifo");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success);
    assert.match(await diskSignature(fifo), /^special 1\d{4}$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("diskSignature(): past the Web Crypto budget, files hashed at once in place still hash their own bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // 40 files of 300 KiB (12 MB in all, past WEB_CRYPTO_BYTES), each its own bytes, read at once
    const files = Array.from({ length: 40 }, (_, f) => {
      const bytes = new Uint8Array(300 * 1024 + f).map((_, i) => (i * 13 + f * 101) & 0xff);
      return { path: join(dir, `f${f}`), bytes };
    });
    for (const { path, bytes } of files) await Deno.writeFile(path, bytes);
    for (let round = 0; round < 2; round++) {
      const got = await Promise.all(files.map(({ path }) => diskSignature(path)));
      const want = await Promise.all(files.map(({ bytes }) => contentSignature(bytes)));
      assert.deepEqual(got, want);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
