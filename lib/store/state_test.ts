import assert from "node:assert/strict";
import { StoreError } from "../base/errors.ts";
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

Deno.test("ensureStateDir() throws StoreError naming the state dir when it cannot be created", async () => {
  const common = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${common}/review-gate`, "a file in the way");
    const error = await ensureStateDir(common).catch((e) => e);
    assert.ok(error instanceof StoreError, String(error));
    assert.equal(error.exitCode, 3);
    assert.match(
      error.message,
      /^Cannot write the state directory ".*\/review-gate": .*; check permissions and free space$/,
    );
  } finally {
    await Deno.remove(common, { recursive: true });
  }
});
