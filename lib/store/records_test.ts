import assert from "node:assert/strict";
import { withState } from "./_test_state.ts";
import { appendRecord, readRecords as readRecordsOf, recordsPath } from "./records.ts";
import { takeStateNotes } from "./sealed.ts";

/** The records file's lines, parsed, without their `hmac` ([] when the file is missing). */
async function readRecords(state: string): Promise<unknown[]> {
  const text = await Deno.readTextFile(recordsPath(state)).catch(() => "");
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const { hmac: _, ...rest } = JSON.parse(line);
    return rest;
  });
}

Deno.test("appendRecord() appends one JSON line per call", async () => {
  await withState(async (state) => {
    await appendRecord(state, { id: "a", n: 1 });
    await appendRecord(state, { id: "b", text: "line\nbreak" });
    const text = await Deno.readTextFile(recordsPath(state));
    assert.equal(text.split("\n").length, 3);
    assert.deepEqual(await readRecords(state), [{ id: "a", n: 1 }, {
      id: "b",
      text: "line\nbreak",
    }]);
  });
});

Deno.test("appendRecord() never interleaves lines from 20 concurrent processes", async () => {
  await withState(async (state) => {
    const module = import.meta.resolve("./records.ts");
    const big = 100_000; // bytes per line: far past a pipe/page write, so a missing lock would show
    const children = Array.from({ length: 20 }, (_, i) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `const { appendRecord } = await import(${JSON.stringify(module)});
           for (let j = 0; j < 3; j++) {
             await appendRecord(${JSON.stringify(state)}, { p: ${i}, j, pad: "${
            "x".repeat(10)
          }".repeat(${big / 10}) });
           }`,
        ],
        stdout: "null",
        stderr: "piped",
      }).output());
    const results = await Promise.all(children);
    for (const r of results) assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
    const lines = (await Deno.readTextFile(recordsPath(state))).split("\n").filter((l) => l);
    assert.equal(lines.length, 60);
    const seen = new Set(lines.map((l) => {
      const v = JSON.parse(l); // throws on an interleaved line
      assert.equal(v.pad.length, big);
      return `${v.p}/${v.j}`;
    }));
    assert.equal(seen.size, 60);
  });
});

Deno.test("appendRecord() waits while another process holds the lock", async () => {
  await withState(async (state) => {
    const module = import.meta.resolve("./records.ts");
    using held = await Deno.open(recordsPath(state), { create: true, append: true });
    await held.lock(true);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const { appendRecord } = await import(${JSON.stringify(module)});
         await appendRecord(${JSON.stringify(state)}, { p: "child" });`,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    await new Promise((resolve) => setTimeout(resolve, 700)); // child start-up is ~100 ms
    assert.equal(await Deno.readTextFile(recordsPath(state)), "", "child wrote while locked");
    await held.unlock();
    const result = await child;
    assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
    assert.deepEqual(await readRecords(state), [{ p: "child" }]);
  });
});

/** `promise`, or "hung" when it takes longer than `ms` (the timer is cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => timer = setTimeout(() => resolve("hung"), ms));
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("appendRecord() skips the line with a warning when the lock is held past the timeout", async () => {
  await withState(async (state) => {
    const held = await Deno.open(recordsPath(state), { create: true, append: true });
    await held.lock(true);
    const t0 = performance.now();
    const result = await within(appendRecord(state, { id: "a" }, { lockTimeoutMs: 200 }), 3000);
    assert.notEqual(result, "hung", "appendRecord() waited for the lock without bound");
    assert.ok(performance.now() - t0 < 2000);
    assert.equal(result !== "hung" && result.written, false);
    assert.match(
      result !== "hung" && !result.written ? result.warning : "",
      /^Skipped the line of this run in ".*records\.jsonl": another process held its lock for more than 0\.2 s/,
    );
    await held.unlock();
    held.close();
    // the abandoned wait releases the lock it gets: a later append in this process still works
    assert.deepEqual(await appendRecord(state, { id: "b" }), { written: true });
    assert.deepEqual(await readRecords(state), [{ id: "b" }]);
  });
});

Deno.test("appendRecord() stops waiting for the lock on abort", async () => {
  await withState(async (state) => {
    const held = await Deno.open(recordsPath(state), { create: true, append: true });
    await held.lock(true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const pending = appendRecord(state, { id: "a" }, { signal: controller.signal });
    const result = await within(pending, 3000);
    assert.ok(result !== "hung" && !result.written && /interrupted/.test(result.warning));
    await held.unlock();
    held.close();
    assert.deepEqual(await appendRecord(state, { id: "b" }), { written: true });
  });
});

Deno.test("readRecords(since) reads the tail of a long file: lines since then, slightly late ones too", async () => {
  await withState(async (state) => {
    const line = (i: number, at: string) => ({
      id: `r${i}`,
      status: "approved",
      blocking: false,
      target: "t",
      provider: "claude",
      cached: false,
      durationMs: 1,
      finishedAt: at,
      pad: "x".repeat(300),
    });
    // 2,000 old lines (≈ 700 KB), then today's, one of them written a little out of order
    const old = Array.from({ length: 2000 }, (_, i) => line(i, "2026-11-01T10:00:00.000Z"));
    const today = [
      line(2000, "2026-11-30T00:10:00.000Z"),
      line(2001, "2026-11-29T23:59:00.000Z"),
      line(2002, "2026-11-30T08:00:00.000Z"),
    ];
    await Deno.writeTextFile(
      recordsPath(state),
      [...old, ...today].map((l) => JSON.stringify(l)).join("\n") + "\n{cut by a cra",
    );
    const midnight = new Date("2026-11-30T00:00:00Z");
    const ids = (await readRecordsOf(state, midnight)).map((l) => l.id);
    assert.deepEqual(ids, ["r2000", "r2002"]);
    assert.equal((await readRecordsOf(state)).length, 2003, "all, the cut line skipped");
  });
});

Deno.test("readRecords(verified): a line appended by anyone else does not count, and is noted", async () => {
  await withState(async (state) => {
    const at = "2026-01-01T10:00:00.000Z";
    await appendRecord(state, { id: "a", finishedAt: at, costUsd: 0.5 });
    const path = recordsPath(state);
    const real = (await Deno.readTextFile(path)).trim();
    const forged = [
      JSON.stringify({ id: "f", finishedAt: at, costUsd: 100 }),
      real.replace('"costUsd":0.5', '"costUsd":100'),
      real.replace('"id":"a"', '"id":"b"'),
    ];
    await Deno.writeTextFile(path, forged.join("\n") + "\n", { append: true });
    takeStateNotes();
    const lines = await readRecordsOf(state, undefined, { verified: true });
    assert.deepEqual(lines.map((l) => [l.id, l.costUsd]), [["a", 0.5]]);
    assert.match(
      takeStateNotes()[0],
      /3 lines of the cost ledger .*do not count toward the daily budget/,
    );
    assert.equal((await readRecordsOf(state)).length, 4, "an unverified read keeps every line");
  });
});
