import assert from "node:assert/strict";
import { withState } from "./_test_state.ts";
import { join } from "node:path";
import {
  PRUNE_AFTER_MS,
  readSessionState,
  sessionFileName,
  writeSessionState,
} from "./sessions.ts";
import { readAnchor, writeAnchor } from "./anchors.ts";
import { takeStateNotes } from "./sealed.ts";

Deno.test("sessionFileName() keeps plain ids and hashes anything else", async () => {
  const uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  assert.equal(await sessionFileName(uuid), `${uuid}.json`);
  for (const bad of ["../../x", "a/b", "..", "", "a\\b", "x".repeat(200), "ünï"]) {
    assert.match(await sessionFileName(bad), /^sha256-[0-9a-f]{64}\.json$/, bad);
  }
  assert.notEqual(await sessionFileName("a/b"), await sessionFileName("a/c"));
});

Deno.test("writeSessionState() round-trips and stays inside sessions/", async () => {
  await withState(async (state) => {
    const value = { baselineTree: "abc", consecutiveBlocks: 2 };
    await writeSessionState(state, { sessionId: "../../escape", value });
    assert.deepEqual(await readSessionState(state, "../../escape"), value);
    assert.deepEqual(
      [...Deno.readDirSync(state)].map((e) => e.name).filter((n) => n !== ".user-state"),
      ["sessions"],
    );
    assert.equal(await readSessionState(state, "other"), null);
  });
});

Deno.test("readSessionState() treats a corrupt file as missing", async () => {
  await withState(async (state) => {
    await Deno.mkdir(`${state}/sessions`);
    for (const text of ["{", "[]", '{"baselineTree":"x"}']) {
      await Deno.writeTextFile(`${state}/sessions/s1.json`, text);
      assert.equal(await readSessionState(state, "s1"), null, text);
    }
  });
});

Deno.test("readSessionState(): a record rewritten, moved, copied or sealed with another key is absent, and noted", async (t) => {
  await withState(async (state) => {
    const value = { baselineTree: "a".repeat(40), consecutiveBlocks: 0 };
    await writeSessionState(state, { sessionId: "s1", value });
    const path = join(state, "sessions", "s1.json");
    const sealed = await Deno.readTextFile(path);
    takeStateNotes();
    const cases: [string, () => Promise<string>][] = [
      ["the baseline rewritten", async () => {
        await Deno.writeTextFile(path, sealed.replace("a".repeat(40), "b".repeat(40)));
        return "s1";
      }],
      ["the record written plain", async () => {
        await Deno.writeTextFile(path, JSON.stringify({ ...value, baselineTree: "b" }));
        return "s1";
      }],
      ["copied to another session", async () => {
        await Deno.writeTextFile(join(state, "sessions", "s2.json"), sealed);
        return "s2";
      }],
      ["copied from another repository", async () => {
        const other = `${state}-other`;
        await writeSessionState(other, { sessionId: "s1", value });
        await Deno.copyFile(join(other, "sessions", "s1.json"), path);
        await Deno.remove(other, { recursive: true });
        return "s1";
      }],
      ["sealed with another user's key", async () => {
        const home = Deno.env.get("XDG_STATE_HOME")!;
        Deno.env.set("XDG_STATE_HOME", `${home}-other`);
        await writeSessionState(state, { sessionId: "s1", value });
        Deno.env.set("XDG_STATE_HOME", home);
        return "s1";
      }],
    ];
    for (const [name, forge] of cases) {
      await t.step(name, async () => {
        const id = await forge();
        assert.equal(await readSessionState(state, id), null);
        const notes = takeStateNotes();
        assert.equal(notes.length, 1);
        assert.match(notes[0], new RegExp(`sessions/${id}\\.json\\) did not verify`));
        await Deno.writeTextFile(path, sealed);
      });
    }
    assert.deepEqual(await readSessionState(state, "s1"), value, "the real record still reads");
  });
});

Deno.test("readAnchor(): an anchor rewritten to another repository is absent, and noted", async () => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: join(dir, "user") };
    await writeAnchor(env, { sessionId: "s1", root: "/repo/a", now: new Date() });
    assert.equal((await readAnchor(env, "s1"))?.root, "/repo/a");
    const path = join(dir, "user", "review-gate", "anchors", "s1.json");
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("/repo/a", "/repo/b"));
    takeStateNotes();
    assert.equal(await readAnchor(env, "s1"), null);
    assert.match(takeStateNotes()[0], /anchor \(anchors\/s1\.json\) did not verify/);
  });
});

Deno.test("writeSessionState() prunes records no hook wrote for 30 days, at most once a day", async () => {
  await withState(async (state) => {
    // answered for: an unanswered record stays whatever its age (lib/store/unanswered.ts)
    const value = { consecutiveBlocks: 0, answered: {} };
    const now = new Date("2026-12-01T12:00:00Z");
    const old = new Date(now.getTime() - PRUNE_AFTER_MS - 60_000);
    await writeSessionState(state, { sessionId: "old", value, now: old });
    const blocked = { consecutiveBlocks: 1, answered: {} };
    await writeSessionState(state, { sessionId: "blocked", value: blocked, now: old });
    await writeSessionState(state, { sessionId: "recent", value, now: old });
    const dir = join(state, "sessions");
    await Deno.utime(join(dir, "old.json"), old, old);
    await Deno.utime(join(dir, "blocked.json"), old, old);
    await Deno.writeTextFile(join(dir, "notes.txt"), "kept: not a record");
    await Deno.utime(join(dir, "notes.txt"), old, old);
    await writeSessionState(state, { sessionId: "recent", value, now });
    const names = () => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names(), [".pruned", "blocked.json", "notes.txt", "recent.json"]);
    // pruned less than a day ago: another old record stays until tomorrow
    await writeSessionState(state, { sessionId: "stale", value, now });
    await Deno.utime(join(dir, "stale.json"), old, old);
    await writeSessionState(state, { sessionId: "recent", value, now });
    assert.ok(names().includes("stale.json"));
    const tomorrow = new Date(now.getTime() + 25 * 3600 * 1000);
    await writeSessionState(state, { sessionId: "recent", value, now: tomorrow });
    assert.ok(!names().includes("stale.json"));
  });
});
