import assert from "node:assert/strict";
import { BENCH_GIT_ENV, changedLinesOf, generateRepo, prng } from "./gen_repo.ts";

Deno.test("prng() is deterministic per seed and stays in [0, 1)", () => {
  const a = prng(7), b = prng(7), c = prng(8);
  const xs = Array.from({ length: 100 }, () => a());
  assert.deepEqual(Array.from({ length: 100 }, () => b()), xs);
  assert.notDeepEqual(Array.from({ length: 100 }, () => c()), xs);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
});

Deno.test("generateRepo() leaves an uncommitted change near the wanted diff size, new files visible to git diff", async () => {
  const dir = await Deno.makeTempDir({ prefix: "review-gate-bench-test-" });
  try {
    const repo = await generateRepo(dir, "r", {
      targetLines: 600,
      minFileLines: 20,
      maxFileLines: 120,
      seed: 3,
    });
    assert.ok(repo.diffLines >= 540 && repo.diffLines <= 800, `${repo.diffLines} diff lines`);
    assert.ok(repo.modified > 0 && repo.added > 0, JSON.stringify(repo));
    const out = await new Deno.Command("git", {
      args: ["diff", "--name-status"],
      env: BENCH_GIT_ENV,
      cwd: repo.root,
      stdout: "piped",
    }).output();
    const statuses = new Set(
      new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((l) => l[0]),
    );
    assert.ok(statuses.has("A") && statuses.has("M"), [...statuses].join(","));
    assert.equal(statuses.has("D"), repo.deleted > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("changedLinesOf() counts added and deleted lines, not the file headers", () => {
  const diff = [
    "diff --git a/x b/x",
    "--- a/x",
    "+++ b/x",
    "@@ -1,2 +1,2 @@",
    " same",
    "-old",
    "+new",
    "+--- not a header",
    "",
  ].join("\n");
  assert.equal(changedLinesOf(new TextEncoder().encode(diff)), 3);
});

Deno.test("generateRepo() with count 'changed' aims at changed lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "review-gate-bench-test-" });
  try {
    const repo = await generateRepo(dir, "r", {
      targetLines: 2000,
      count: "changed",
      minFileLines: 100,
      maxFileLines: 200,
      seed: 3,
    });
    const changed = repo.changedLines ?? 0;
    assert.ok(changed >= 1800 && changed <= 2600, `${changed} changed lines`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
