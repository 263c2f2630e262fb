import assert from "node:assert/strict";
import { runProcess } from "../exec/exec.ts";
import { resolveRepo } from "../git/repo.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { parseCheckAttr, readPathAttributes } from "./attributes.ts";
import { FROM_WORKTREE, resolveRulesFrom } from "./source.ts";

Deno.test("parseCheckAttr() reads linguist-generated and -diff", () => {
  const out = new TextEncoder().encode(
    [
      "a.js\0linguist-generated\0set\0a.js\0diff\0unspecified\0",
      "b.png\0linguist-generated\0unspecified\0b.png\0diff\0unset\0",
      "c.ts\0linguist-generated\0false\0c.ts\0diff\0set\0",
      "d e.ts\0linguist-generated\0true\0d e.ts\0diff\0unspecified\0",
    ].join(""),
  );
  assert.deepEqual([...parseCheckAttr(out, ["a.js", "b.png", "c.ts", "d e.ts"])], [
    ["a.js", { generated: true, noDiff: false }],
    ["b.png", { generated: false, noDiff: true }],
    ["c.ts", { generated: false, noDiff: false }],
    ["d e.ts", { generated: true, noDiff: false }],
  ]);
});

Deno.test("readPathAttributes() reads the worktree's or a commit's .gitattributes", async () => {
  const repo = await makeTestRepo({
    ".gitattributes": "gen/** linguist-generated\n",
    "a.ts": "a\n",
  });
  try {
    await repo.write(".gitattributes", "*.bin -diff\n");
    const r = await resolveRepo(runProcess, repo.root);
    const paths = ["gen/x.ts", "y.bin", "a.ts"];
    const now = await readPathAttributes(runProcess, r, FROM_WORKTREE, paths);
    assert.deepEqual([now.get("gen/x.ts")?.generated, now.get("y.bin")?.noDiff], [false, true]);
    const head = await readPathAttributes(
      runProcess,
      r,
      await resolveRulesFrom(runProcess, r, "HEAD"),
      paths,
    );
    assert.deepEqual([head.get("gen/x.ts")?.generated, head.get("y.bin")?.noDiff], [true, false]);
    assert.equal(
      (await repo.git("status", "--porcelain")).trim(),
      "M .gitattributes",
      "index untouched",
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("readPathAttributes() with attributesFromTreeOnly ignores info/attributes and the repository's config", async () => {
  const repo = await makeTestRepo({
    ".gitattributes": "gen/** linguist-generated\n",
    "a.ts": "a\n",
  });
  try {
    const r = await resolveRepo(runProcess, repo.root);
    await Deno.mkdir(`${r.commonDir}/info`, { recursive: true });
    await Deno.writeTextFile(`${r.commonDir}/info/attributes`, "*.ts -diff\n");
    await Deno.writeTextFile(`${r.commonDir}/attrs`, "*.ts linguist-generated\n");
    await repo.git("config", "core.attributesFile", `${r.commonDir}/attrs`);
    const paths = ["gen/x.ts", "a.ts"];
    const from = await resolveRulesFrom(runProcess, r, "HEAD");
    const all = await readPathAttributes(runProcess, r, from, paths);
    assert.deepEqual(all.get("a.ts"), { generated: true, noDiff: true }, "git's own reading");
    const own = await readPathAttributes(
      runProcess,
      r,
      { ...from, kind: "tree", attributesFromTreeOnly: true } as typeof from,
      paths,
    );
    assert.deepEqual(own.get("a.ts"), { generated: false, noDiff: false });
    assert.equal(own.get("gen/x.ts")?.generated, true, "the tree's own marks still apply");
  } finally {
    await repo.cleanup();
  }
});
