import assert from "node:assert/strict";
import { join } from "node:path";
import { contentSignature } from "../git/status_listing.ts";
import { MAX_ENTRIES, outputWritesUnder, stampOutputWrites } from "./output_writes.ts";

Deno.test("stampOutputWrites() records what will be written; outputWritesUnder() gives the files inside one root, repo-relative", async () => {
  const state = await Deno.makeTempDir({ prefix: "rg-own-" });
  try {
    assert.deepEqual(await outputWritesUnder(state, "/repo"), {}, "nothing recorded yet");
    await stampOutputWrites(state, [
      { path: "/repo/out/b.json", text: "b" },
      { path: "/elsewhere/c.json", text: "c" },
      { path: "/repo-other/d.json", text: "d" },
    ]);
    await stampOutputWrites(state, [{ path: "/repo/out/b.json", text: "b2" }]);
    assert.deepEqual(await outputWritesUnder(state, "/repo"), {
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
    await stampOutputWrites(state, files);
    const kept = Object.keys(await outputWritesUnder(state, "/repo"));
    assert.equal(kept.length, MAX_ENTRIES);
    assert.ok(!kept.includes("f0.json") && kept.includes(`f${MAX_ENTRIES + 4}.json`));
    await Deno.writeTextFile(join(state, "output-writes.json"), "[not json");
    assert.deepEqual(await outputWritesUnder(state, "/repo"), {});
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});
