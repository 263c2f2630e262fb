import assert from "node:assert/strict";
import { join } from "node:path";
import { appendLines, dropLines, lockLineFile } from "./line_log.ts";
import { writeStoreFile } from "./_write.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "rg-line-log-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("dropLines() keeps the other lines byte for byte, a cut last line too; a dry run only counts", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "records.jsonl");
    const bytes = new Uint8Array([
      ...encode('{"n":1}\n'),
      0xff, // not UTF-8: kept as it is
      ...encode('{"n":2}\n{"n":3}\n{"n":4'),
    ]);
    await Deno.writeFile(path, bytes);
    const drop = (line: string) => line === '{"n":1}' || line === '{"n":3}';
    assert.deepEqual(await dropLines(path, drop, { timeoutMs: 1000, dryRun: true }), {
      lines: 2,
      bytes: 16,
      kept: 1,
    });
    assert.deepEqual(await Deno.readFile(path), bytes, "a dry run writes nothing");
    assert.deepEqual(await dropLines(path, drop, { timeoutMs: 1000 }), {
      lines: 2,
      bytes: 16,
      kept: 1,
    });
    assert.deepEqual(
      await Deno.readFile(path),
      new Uint8Array([0xff, ...encode('{"n":2}\n{"n":4')]),
    );
    assert.deepEqual(await dropLines(join(dir, "none"), drop, { timeoutMs: 1000 }), {
      lines: 0,
      bytes: 0,
      kept: 0,
    });
  });
});

Deno.test("an append waiting while the file is rewritten lands in the new file, never the replaced one", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "records.jsonl");
    await Deno.writeTextFile(path, "old\nkept\n");
    // prune's rewrite, step by step: it holds the lock of the file as it is…
    const held = await lockLineFile(path, { timeoutMs: 1000 });
    assert.ok(held);
    // …while an appender that opened that same file waits for the lock…
    const appended = appendLines(path, encode("new\n"), { timeoutMs: 5000 });
    await new Promise((done) => setTimeout(done, 100));
    // …then renames the file without the old line over it, and lets go
    await writeStoreFile(path, "kept\n");
    held.release();
    assert.equal(await appended, true);
    assert.equal(await Deno.readTextFile(path), "kept\nnew\n");
  });
});
