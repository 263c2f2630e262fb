import assert from "node:assert/strict";
import { withState } from "./_test_state.ts";
import { readSessionState, sessionFileName, writeSessionState } from "./sessions.ts";

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
    assert.deepEqual([...Deno.readDirSync(state)].map((e) => e.name), ["sessions"]);
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
