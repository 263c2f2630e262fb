import assert from "node:assert/strict";
import { ensureStateDir, stateDir } from "./state.ts";

Deno.test("stateDir() puts the state under <common-dir>/review-gate", () => {
  assert.equal(stateDir("/repo/.git"), "/repo/.git/review-gate");
});

Deno.test("ensureStateDir() creates runs, cache and sessions and is idempotent", async () => {
  const common = await Deno.makeTempDir();
  try {
    const state = await ensureStateDir(common);
    assert.equal(state, `${common}/review-gate`);
    await ensureStateDir(common);
    const names = [...Deno.readDirSync(state)].map((e) => e.name).sort();
    assert.deepEqual(names, ["cache", "runs", "sessions"]);
  } finally {
    await Deno.remove(common, { recursive: true });
  }
});
