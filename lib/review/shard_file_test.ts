import assert from "node:assert/strict";
import { join } from "node:path";
import {
  listShardFiles,
  MAX_LISTED_ENTRIES,
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

Deno.test("a shard result written is read back whole; its digest covers all of it", async () => {
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
    assert.match(edited.problem ?? "", /^tampered: it does not match its digest/);
    assert.deepEqual(edited.claim, { index: 2, count: 3 }, "it still says which shard it is");
    // not only the results: an edited status, coverage or shard number no longer matches either
    const edits: [string, (v: Record<string, unknown>) => void][] = [
      ["status", (v) => (v.status = "not-reviewed")],
      ["coverage", (v) => ((v.coverage as { parts: number }).parts = 4)],
      ["shard", (v) => (v.shard = { index: 1, count: 3 })],
      ["fakeProvider", (v) => (v.fakeProvider = true)],
    ];
    for (const [what, edit] of edits) {
      const value = JSON.parse(await shardResultText(result()));
      edit(value);
      await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
      const read = await readShardFile(path, "s.json");
      assert.match(read.problem ?? "", /^tampered: it does not match its digest/, what);
    }
  });
});

Deno.test("a shard no split has (4 of 3) is tampered, named with the shard it says it is", async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "s.json");
    await Deno.writeTextFile(
      path,
      await shardResultText({ ...result(), shard: { index: 4, count: 3 } }),
    );
    const read = await readShardFile(path, "s.json");
    assert.equal(read.result, undefined);
    assert.match(read.problem ?? "", /^tampered: it says it is shard 4 of 3/);
    assert.deepEqual(read.claim, { index: 4, count: 3 });
  });
});

Deno.test("a cost or token count past any review's (1e308) is not a shard result: sums stay finite", async () => {
  await inTemp(async (dir) => {
    const huge = [
      (r: Omit<ShardResult, "digest">) => (r.results[0].costUsd = 1e308),
      (r: Omit<ShardResult, "digest">) => (r.results[0].usage = { inputTokens: 1e308 }),
      (r: Omit<ShardResult, "digest">) => (r.costUsd = 1e7),
      (r: Omit<ShardResult, "digest">) => (r.coverage.reviewedLines = 1e308),
    ];
    for (const [i, edit] of huge.entries()) {
      const value = result();
      edit(value);
      const path = join(dir, `huge-${i}.json`);
      await Deno.writeTextFile(path, await shardResultText(value));
      const read = await readShardFile(path, `huge-${i}.json`);
      assert.equal(read.result, undefined, `huge-${i}`);
      assert.match(read.problem ?? "", /^not a shard result \(.*must be <= /, `huge-${i}`);
    }
    const real = result();
    real.results[0].costUsd = 12.5;
    real.results[0].usage = { inputTokens: 2_000_000, outputTokens: 40_000 };
    await Deno.writeTextFile(join(dir, "real.json"), await shardResultText(real));
    assert.equal((await readShardFile(join(dir, "real.json"), "real.json")).problem, undefined);
  });
});

Deno.test("a file that is not a shard result is named with why, never used", async () => {
  await inTemp(async (dir) => {
    const cases: [string, string | null, RegExp][] = [
      ["not.json", "{ not json", /^not JSON \(it does not parse at character 2\)$/],
      ["late.json", '{"a": 1, "b": ghp_SECRET}', /^not JSON$/],
      ["other.json", JSON.stringify({ version: 1 }), /^not a shard result \(/],
      ["extra.json", JSON.stringify({ ...result(), digest: HEX, extra: 1 }), /unknown key "extra"/],
      ["missing.json", null, /^cannot be read/],
    ];
    for (const [name, text, why] of cases) {
      if (text !== null) await Deno.writeTextFile(join(dir, name), text);
      const read = await readShardFile(join(dir, name), name);
      assert.equal(read.result, undefined, name);
      assert.match(read.problem ?? "", why, name);
      assert.doesNotMatch(read.problem ?? "", /SECRET|not json/, "nothing of the file is echoed");
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
    assert.equal(read.bytes, 0, "nothing read");
    const small = join(dir, "s.json");
    await Deno.writeTextFile(small, await shardResultText(result()));
    const size = (await Deno.stat(small)).size;
    // oversized files are refused unread and charged nothing: the small files after them are read
    const oversized = Array.from({ length: 9 }, (_, i) => ({
      path: big,
      file: `big${i}.json`,
      bytes: MAX_SHARD_FILE_BYTES + 1,
    }));
    const after = await readShardFiles([...oversized, {
      path: small,
      file: "s.json",
      bytes: size,
    }]);
    for (const [i, r] of after.slice(0, 9).entries()) {
      assert.match(r.problem ?? "", /^too large: 8388609 bytes, more than the 8388608/, `big${i}`);
    }
    assert.equal(after[9].problem, undefined, "the shard after them is read");
    assert.ok(after[9].result);
    // each file is charged the bytes read, not a size the listing saw (the file may have shrunk)
    const full = Array.from({ length: 9 }, (_, i) => ({
      path: small,
      file: `f${i}.json`,
      bytes: MAX_SHARD_FILE_BYTES,
    }));
    const all = await readShardFiles(full);
    assert.equal(
      all.filter((r) => r.result).length,
      9,
      "charged the bytes read, not the listing's",
    );
    const listedFull = Array.from({ length: 9 }, (_, i) => ({
      path: big,
      file: `f${i}.json`,
      bytes: MAX_SHARD_FILE_BYTES,
    }));
    // eight files of 8 MiB read fill the total: the ninth is not read, and says why
    await Deno.truncate(big, MAX_SHARD_FILE_BYTES);
    const heavy = await readShardFiles(listedFull);
    assert.equal(heavy.filter((r) => r.problem?.startsWith("not JSON")).length, 8, "eight read");
    assert.match(
      heavy[8].problem ?? "",
      /^not read: with its 8388608 bytes the files read would hold more than 67108864 bytes in all/,
    );
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
    for (let i = 0; i < MAX_SHARD_FILES; i++) {
      await Deno.writeTextFile(join(dir, "many", `${i}.json`), "{}");
    }
    const most = await listShardFiles(["many"], dir);
    assert.equal(most.files.length, MAX_SHARD_FILES);
    assert.equal(most.refused, undefined);
    await Deno.writeTextFile(join(dir, "many", "one-more.json"), "{}");
    const over = await listShardFiles(["many"], dir);
    assert.deepEqual(over.files, [], "none is read");
    assert.match(over.refused ?? "", /^more than 512 files were given or found/);
  });
});

Deno.test("merge's folder: a FIFO, a dangling link or a folder too deep is named, never skipped silently", async () => {
  await inTemp(async (dir) => {
    await Deno.mkdir(join(dir, "shards", "a", "b", "c", "d", "e"), { recursive: true });
    await Deno.writeTextFile(join(dir, "shards", "a", "b", "c", "d", "e", "deep.json"), "{}");
    await Deno.writeTextFile(join(dir, "shards", "ok.json"), "{}");
    await Deno.symlink(join(dir, "nowhere.json"), join(dir, "shards", "gone.json"));
    const fifo = await new Deno.Command("mkfifo", { args: [join(dir, "shards", "pipe.json")] })
      .output();
    assert.ok(fifo.success, "mkfifo (POSIX: Linux and macOS)");
    const { files, notes } = await listShardFiles(["shards"], dir);
    assert.deepEqual(files.map((f) => f.file), ["shards/ok.json"]);
    assert.deepEqual(notes, [
      "shards/a/b/c/d/e: a folder more than 4 levels deep; not searched",
      "shards/gone.json: a link to nothing, or unreadable; not read",
      "shards/pipe.json: a FIFO, not a regular file; not read",
    ]);
    // given by name, a FIFO is named too (never opened: it would block)
    const given = await readShardFiles(
      (await listShardFiles(["shards/pipe.json"], dir)).files,
    );
    assert.match(given[0].problem ?? "", /^cannot be read: not a regular file/);
  });
});

/** Can this process list `path`? */
function lists(path: string): boolean {
  try {
    [...Deno.readDirSync(path)];
    return true;
  } catch {
    return false;
  }
}

/**
 * A folder this process cannot list: a mode-000 folder, or — as root, who lists that — another
 * process's fd folder where a sandbox refuses it (Linux). `null` where there is none.
 */
const PRIVILEGED = (() => {
  // whether a mode-000 folder still lists (root): found by trying, which needs no sys permission
  const dir = Deno.makeTempDirSync();
  try {
    Deno.chmodSync(dir, 0o000);
    return lists(dir);
  } finally {
    Deno.chmodSync(dir, 0o700);
    Deno.removeSync(dir);
  }
})();

const PROC_LOCKED = PRIVILEGED && !lists("/proc/1/fdinfo") &&
    (() => {
      try {
        return Deno.statSync("/proc/1/fdinfo").isDirectory;
      } catch {
        return false;
      }
    })()
  ? "/proc/1/fdinfo"
  : null;

Deno.test({
  name: "merge's folder: one that cannot be read is named and skipped, the rest listed",
  ignore: PRIVILEGED && PROC_LOCKED === null,
  fn: () =>
    inTemp(async (dir) => {
      await Deno.mkdir(join(dir, "shards"));
      await Deno.writeTextFile(join(dir, "shards", "ok.json"), "{}");
      let given = ["shards"];
      let named = "shards/locked";
      if (PROC_LOCKED === null) {
        await Deno.mkdir(join(dir, "shards", "locked"), { mode: 0o000 });
        await Deno.chmod(join(dir, "shards", "locked"), 0o000);
      } else [given, named] = [["shards", PROC_LOCKED], PROC_LOCKED];
      const { files, notes, refused } = await listShardFiles(given, dir);
      if (PROC_LOCKED === null) await Deno.chmod(join(dir, "shards", "locked"), 0o755);
      assert.equal(refused, undefined);
      assert.deepEqual(files.map((f) => f.file), ["shards/ok.json"]);
      assert.equal(notes.length, 1, notes.join("\n"));
      assert.match(
        notes[0],
        new RegExp(`^${named}: a folder that cannot be read \\(.+\\); not searched$`),
      );
    }),
});

Deno.test("merge's folder: no link into a folder is followed, a link to a file outside is not read", async () => {
  await inTemp(async (dir) => {
    const shards = join(dir, "shards");
    await Deno.mkdir(join(shards, "sub"), { recursive: true });
    await Deno.writeTextFile(join(shards, "sub", "one.json"), "{}");
    // thirty links to the folder itself, one to its parent: each would list it all again
    for (let i = 0; i < 30; i++) await Deno.symlink(".", join(shards, `l${i}`));
    await Deno.symlink("..", join(shards, "sub", "up"));
    await Deno.writeTextFile(join(dir, "secret.txt"), "token=ghp_SECRET\n");
    await Deno.symlink(join(dir, "secret.txt"), join(shards, "secret.json"));
    await Deno.symlink("sub/one.json", join(shards, "again.json"));
    const { files, notes } = await listShardFiles(["shards", "shards/sub"], dir);
    assert.deepEqual(files.map((f) => f.file), ["shards/again.json", "shards/sub/one.json"]);
    assert.equal(files[0].path, await Deno.realPath(join(shards, "sub", "one.json")));
    assert.equal(notes.filter((n) => /: a link to a folder; not searched/.test(n)).length, 31);
    assert.ok(
      notes.includes("shards/secret.json: a link to a file outside the folder given; not read"),
    );
    assert.equal(notes.length, 32, "the folder given twice is listed once");
    assert.doesNotMatch(notes.join("\n"), /SECRET/);
  });
});

Deno.test("merge's folder: notes and entries are bounded", async () => {
  await inTemp(async (dir) => {
    await Deno.mkdir(join(dir, "junk"));
    for (let i = 0; i < 100; i++) {
      await Deno.symlink(
        join(dir, "nowhere"),
        join(dir, "junk", `gone-${String(i).padStart(3, "0")}`),
      );
    }
    const { notes, refused } = await listShardFiles(["junk"], dir);
    assert.equal(refused, undefined);
    assert.equal(notes.length, 65);
    assert.equal(notes.at(-1), "and 36 more entries not read (not named)");
    await Deno.mkdir(join(dir, "big"));
    await Promise.all(
      Array.from(
        { length: MAX_LISTED_ENTRIES + 1 },
        (_, i) => Deno.writeTextFile(join(dir, "big", `${i}.txt`), ""),
      ),
    );
    const big = await listShardFiles(["big"], dir);
    assert.deepEqual(big.files, []);
    assert.match(
      big.refused ?? "",
      /^more than 8192 folder entries were found, more than merge reads: none was read/,
    );
  });
});
