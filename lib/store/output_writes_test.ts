import assert from "node:assert/strict";
import { join } from "node:path";
import { contentSignature } from "../git/status_listing.ts";
import { MAX_ENTRIES, outputWritesUnder, stampOutputWrites } from "./output_writes.ts";

/** A private state folder for the per-user key (never the machine's own). */
function keyEnv(state: string): Record<string, string> {
  return { XDG_STATE_HOME: join(state, "user-state") };
}

Deno.test("stampOutputWrites() records what will be written; outputWritesUnder() gives the files inside one root, repo-relative", async () => {
  const state = await Deno.makeTempDir({ prefix: "rg-own-" });
  try {
    const env = keyEnv(state);
    assert.deepEqual(await outputWritesUnder(state, "/repo", env), {}, "nothing recorded yet");
    await stampOutputWrites(state, [
      { path: "/repo/out/b.json", text: "b" },
      { path: "/elsewhere/c.json", text: "c" },
      { path: "/repo-other/d.json", text: "d" },
    ], env);
    await stampOutputWrites(state, [{ path: "/repo/out/b.json", text: "b2" }], env);
    assert.deepEqual(await outputWritesUnder(state, "/repo", env), {
      "out/b.json": await contentSignature(new TextEncoder().encode("b2")),
    });
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("stampOutputWrites() keeps the newest entries only; a corrupt record reads as empty", async () => {
  const state = await Deno.makeTempDir({ prefix: "rg-own-" });
  try {
    const files = Array.from({ length: MAX_ENTRIES + 5 }, (_, i) => ({
      path: `/repo/f${i}.json`,
      text: `${i}`,
    }));
    const env = keyEnv(state);
    await stampOutputWrites(state, files, env);
    const kept = Object.keys(await outputWritesUnder(state, "/repo", env));
    assert.equal(kept.length, MAX_ENTRIES);
    assert.ok(!kept.includes("f0.json") && kept.includes(`f${MAX_ENTRIES + 4}.json`));
    await Deno.writeTextFile(join(state, "output-writes.json"), "[not json");
    assert.deepEqual(await outputWritesUnder(state, "/repo", env), {});
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("a record review-gate did not seal, or sealed under another key, reads as empty", async () => {
  const state = await Deno.makeTempDir({ prefix: "rg-own-" });
  try {
    const env = keyEnv(state);
    const plain = { "/repo/src/evil.ts": await contentSignature(new TextEncoder().encode("x")) };
    await Deno.writeTextFile(join(state, "output-writes.json"), JSON.stringify(plain));
    assert.deepEqual(await outputWritesUnder(state, "/repo", env), {}, "unsealed: not ours");
    await stampOutputWrites(state, [{ path: "/repo/x.md", text: "x" }], env);
    assert.deepEqual(Object.keys(await outputWritesUnder(state, "/repo", env)), ["x.md"]);
    const other = { XDG_STATE_HOME: join(state, "another-user") };
    assert.deepEqual(await outputWritesUnder(state, "/repo", other), {}, "another key");
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});
