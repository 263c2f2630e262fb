import assert from "node:assert/strict";
import { withState } from "./_test_state.ts";
import { StoreError } from "../base/errors.ts";
import { type CacheEntry, cacheKey, type CacheKeyParts, readCache, writeCache } from "./cache.ts";
import { readMemo, writeMemo } from "./verdict_memo.ts";
import { takeStateNotes } from "./sealed.ts";

const parts: CacheKeyParts = {
  fingerprint: "fp",
  schemaId: "review.schema.json#1",
  promptTemplateHash: "t1",
  provider: "claude",
  model: "sonnet",
  focus: "security",
  reviewKind: "review",
  acks: "none",
};

Deno.test("cacheKey() is sha256 hex and changes with every part", async () => {
  const key = await cacheKey(parts);
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.equal(await cacheKey({ ...parts }), key);
  const variants: Partial<CacheKeyParts>[] = [
    { fingerprint: "fp2" },
    { schemaId: "other" },
    { promptTemplateHash: "t2" },
    { provider: "codex" },
    { model: undefined },
    { focus: undefined },
    { reviewKind: "adversarial-review" },
    { acks: "a".repeat(64) },
  ];
  const keys = new Set(await Promise.all(variants.map((v) => cacheKey({ ...parts, ...v }))));
  assert.equal(keys.size, variants.length);
  assert.ok(!keys.has(key));
});

Deno.test("writeCache() stores verdicts that readCache() returns, atomically", async () => {
  await withState(async (state) => {
    const key = await cacheKey(parts);
    assert.equal(await readCache(state, key), null);
    const entry = {
      record: { id: "r1", status: "approved" as const },
      answer: { verdict: "approve" },
    };
    assert.equal(await writeCache(state, key, entry), true);
    assert.deepEqual(await readCache(state, key), entry);
    assert.deepEqual([...Deno.readDirSync(`${state}/cache`)].map((e) => e.name), [`${key}.json`]);
  });
});

Deno.test("writeCache() does not store could-not-run statuses", async () => {
  await withState(async (state) => {
    const key = await cacheKey(parts);
    for (const status of ["invalid-answer", "provider-error", "timeout", "interrupted"] as const) {
      assert.equal(
        await writeCache(state, key, { record: { id: "r", status }, answer: {} }),
        false,
      );
    }
    assert.equal(await readCache(state, key), null);
  });
});

Deno.test("readCache() treats a corrupt or foreign file as a miss", async (t) => {
  const key = await cacheKey(parts);
  const cases: [string, string][] = [
    ["not JSON", "{oops"],
    ["truncated", '{"version":1,"key":"'],
    ["null", "null"],
    [
      "other key",
      JSON.stringify({
        version: 1,
        key: "0".repeat(64),
        record: { id: "r", status: "approved" },
        answer: {},
      }),
    ],
    [
      "old version",
      JSON.stringify({ version: 0, key, record: { id: "r", status: "approved" }, answer: {} }),
    ],
    [
      "bad status",
      JSON.stringify({ version: 1, key, record: { id: "r", status: "timeout" }, answer: {} }),
    ],
    ["no answer", JSON.stringify({ version: 1, key, record: { id: "r", status: "approved" } })],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      await withState(async (state) => {
        await Deno.mkdir(`${state}/cache`);
        await Deno.writeTextFile(`${state}/cache/${key}.json`, text);
        assert.equal(await readCache(state, key), null);
      });
    });
  }
});

Deno.test("readCache() refuses a key that is not a hash", async () => {
  await assert.rejects(readCache("/tmp", "../../etc/passwd"), TypeError);
});

Deno.test("writeCache() and writeMemo() throw StoreError when cache/ cannot be written", async () => {
  await withState(async (state) => {
    await Deno.writeTextFile(`${state}/cache`, "a file in the way");
    const key = "a".repeat(64);
    const entry = { record: { id: "r", status: "approved" }, answer: {} } as CacheEntry;
    const cache = await writeCache(state, key, entry).catch((e) => e);
    assert.ok(cache instanceof StoreError && /^Cannot write the verdict cache/.test(cache.message));
    const memo = await writeMemo(state, { key, cacheKey: key }).catch((e) => e);
    assert.ok(memo instanceof StoreError && /^Cannot write the verdict memo/.test(memo.message));
  });
});

Deno.test("readCache(): an entry rewritten, written plain or moved to another key is a miss, and noted", async () => {
  await withState(async (state) => {
    const key = await cacheKey(parts);
    const other = await cacheKey({ ...parts, fingerprint: "fp2" });
    const blocked = {
      record: { id: "r1", status: "needs-attention" as const },
      answer: { verdict: "needs-attention", findings: [{ title: "bug" }] },
    };
    await writeCache(state, key, blocked);
    await writeCache(state, other, { record: { id: "r2", status: "approved" }, answer: {} });
    const path = `${state}/cache/${key}.json`;
    const sealed = await Deno.readTextFile(path);
    takeStateNotes();
    const forgeries: [string, string][] = [
      ["rewritten to approve", sealed.replaceAll('"needs-attention"', '"approved"')],
      ["written plain", JSON.stringify({ version: 1, key, ...blocked })],
      ["another key's entry", await Deno.readTextFile(`${state}/cache/${other}.json`)],
      ["cut short", sealed.slice(0, 40)],
    ];
    for (const [name, text] of forgeries) {
      await Deno.writeTextFile(path, text);
      assert.equal(await readCache(state, key), null, name);
      const notes = takeStateNotes();
      assert.match(notes[0] ?? "", /cached verdict .* did not verify .*reviewed again/, name);
    }
    await Deno.writeTextFile(path, sealed);
    assert.deepEqual(await readCache(state, key), blocked);
  });
});

Deno.test("readMemo(): a memo pointed at another verdict is a miss, and noted", async () => {
  await withState(async (state) => {
    const memo = "c".repeat(64);
    await writeMemo(state, { key: memo, cacheKey: "a".repeat(64) });
    assert.equal(await readMemo(state, memo), "a".repeat(64));
    const path = `${state}/cache/memo/${memo}.json`;
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace("a".repeat(64), "b".repeat(64)),
    );
    takeStateNotes();
    assert.equal(await readMemo(state, memo), null);
    assert.match(takeStateNotes()[0], /verdict memo .* did not verify/);
  });
});
