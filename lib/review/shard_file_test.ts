import assert from "node:assert/strict";
import { join } from "node:path";
import {
  listShardFiles,
  MAX_SHARD_FILE_BYTES,
  MAX_SHARD_FILES,
  MAX_SHARD_TOTAL_BYTES,
  readShardFile,
  readShardFiles,
  type ShardResult,
  shardResultText,
} from "./shard_file.ts";

const HEX = "a".repeat(64);

function result(): Omit<ShardResult, "digest"> {
  return {
    version: 1,
    kind: "review-gate-shard-result",
    reviewGate: "0.1.0",
    shard: { index: 2, count: 3 },
    plan: { identity: HEX, id: HEX, parts: 4, assigned: [2] },
    change: { digest: HEX, label: "pull request #1", from: "b".repeat(40), to: "c".repeat(40) },
    providers: ["claude"],
    status: "approved",
    coverage: { parts: 1, reviewedLines: 10, reviewedBytes: 300 },
    results: [{
      part: 2,
      provider: "claude",
      status: "ok",
      cached: false,
      digest: HEX,
      answer: { verdict: "approve", summary: "Fine.", findings: [], next_steps: [] },
      attempts: 1,
    }],
  };
}

async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "shard-file-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a shard result written is read back whole; its digest covers its results", async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "s.json");
    await Deno.writeTextFile(path, await shardResultText(result()));
    const read = await readShardFile(path, "s.json");
    assert.equal(read.problem, undefined);
    assert.deepEqual(read.result?.results, result().results);
    // edited on the way: the schema still holds, the digest does not
    const text = (await Deno.readTextFile(path)).replace('"Fine."', '"Edited."');
    await Deno.writeTextFile(path, text);
    const edited = await readShardFile(path, "s.json");
    assert.match(edited.problem ?? "", /^tampered: its results do not match its digest/);
    assert.deepEqual(edited.claim, { index: 2, count: 3 }, "it still says which shard it is");
  });
});

Deno.test("a file that is not a shard result is named with why, never used", async () => {
  await inTemp(async (dir) => {
    const cases: [string, string | null, RegExp][] = [
      ["not.json", "{ not json", /^not JSON/],
      ["other.json", JSON.stringify({ version: 1 }), /^not a shard result \(/],
      ["extra.json", JSON.stringify({ ...result(), digest: HEX, extra: 1 }), /unknown key "extra"/],
      ["missing.json", null, /^cannot be read/],
    ];
    for (const [name, text, why] of cases) {
      if (text !== null) await Deno.writeTextFile(join(dir, name), text);
      const read = await readShardFile(join(dir, name), name);
      assert.equal(read.result, undefined, name);
      assert.match(read.problem ?? "", why, name);
    }
    await Deno.mkdir(join(dir, "folder.json"));
    assert.match(
      (await readShardFile(join(dir, "folder.json"), "f")).problem ?? "",
      /regular file/,
    );
  });
});

Deno.test(`a file over ${MAX_SHARD_FILE_BYTES} bytes is refused unread, and so is all past ${MAX_SHARD_TOTAL_BYTES} in all`, async () => {
  await inTemp(async (dir) => {
    const big = join(dir, "big.json");
    await Deno.writeFile(big, new Uint8Array(MAX_SHARD_FILE_BYTES + 1).fill(32));
    const read = await readShardFile(big, "big.json");
    assert.match(read.problem ?? "", /not a regular file of at most 8388608 bytes/);
    const small = join(dir, "s.json");
    await Deno.writeTextFile(small, await shardResultText(result()));
    // sizes as the listing saw them: eight files of 8 MiB fill the total, the ninth is not read
    const listed = Array.from({ length: 9 }, (_, i) => ({
      path: small,
      file: `f${i}.json`,
      bytes: MAX_SHARD_FILE_BYTES,
    }));
    const all = await readShardFiles(listed);
    assert.equal(all.filter((r) => r.result).length, 8);
    assert.match(all[8].problem ?? "", /^not read: the files given hold more than 67108864 bytes/);
  });
});

Deno.test("merge's paths: files as given, a folder's *.json files (subfolders too), a missing path noted", async () => {
  await inTemp(async (dir) => {
    await Deno.mkdir(join(dir, "shards", "review-gate-shard-1"), { recursive: true });
    await Deno.writeTextFile(join(dir, "shards", "review-gate-shard-1", "one.json"), "{}");
    await Deno.writeTextFile(join(dir, "shards", "two.json"), "{}");
    await Deno.writeTextFile(join(dir, "shards", "notes.txt"), "");
    await Deno.writeTextFile(join(dir, "given.txt"), "{}");
    const { files, notes } = await listShardFiles(["shards", "given.txt", "gone"], dir);
    assert.deepEqual(files.map((f) => f.file), [
      "shards/review-gate-shard-1/one.json",
      "shards/two.json",
      "given.txt",
    ]);
    assert.deepEqual(notes, ["gone: no such file or folder (no shard result there)"]);
    await Deno.mkdir(join(dir, "many"));
    for (let i = 0; i <= MAX_SHARD_FILES; i++) {
      await Deno.writeTextFile(join(dir, "many", `${i}.json`), "{}");
    }
    await assert.rejects(() => listShardFiles(["many"], dir), /at most 512 shard result files/);
  });
});
