import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../../exec/exec.ts";
import { commitFile, git, makeRepo } from "../../git/_testing.ts";
import { resolveRepo } from "../../git/repo.ts";
import { baselineRefTrees, restrictedTree, unknownVersions } from "./ref_versions.ts";
import { mergeVerdicts } from "./ref_review.ts";
import type { StoredVerdict } from "./decision.ts";

for (const objectFormat of ["sha1", "sha256"] as const) {
  Deno.test(`ref versions (${objectFormat}): only what no known tree has, as the tip has it`, async () => {
    const { repo: root, cleanup } = await makeRepo({ objectFormat });
    try {
      await commitFile(root, "old.txt", "old\n", "old");
      const oldHead = await git(root, ["rev-parse", "HEAD"]);
      const oldTree = await git(root, ["rev-parse", "HEAD^{tree}"]);
      // the baseline: the user's uncommitted edit of old.txt, and a file `d` to become a folder
      await Deno.writeTextFile(join(root, "old.txt"), "user edit\n");
      await Deno.writeTextFile(join(root, "d"), "file\n");
      await Deno.writeTextFile(join(root, "gone.txt"), "gone\n");
      await git(root, ["add", "-A"]);
      const baseline = await git(root, ["write-tree"]);
      // the tip: old.txt as committed before, a new file, a folder for `d`, gone.txt deleted
      await git(root, ["rm", "-q", "--cached", "d", "gone.txt"]);
      await git(root, ["update-index", "--add", "--cacheinfo", `100644,${await blob(root)},d/x`]);
      await git(root, [
        "update-index",
        "--cacheinfo",
        `100644,${await blob(root, "old\n")},old.txt`,
      ]);
      const tip = await git(root, ["write-tree"]);
      const repo = await resolveRepo(runProcess, root);
      const known = [baseline, baseline, ...await baselineRefTrees(runProcess, repo, [oldHead])];
      assert.deepEqual(known.slice(2), [oldTree]);
      const versions = await unknownVersions(runProcess, repo, { tip, known });
      // the old HEAD has old.txt as committed, and neither `d` nor gone.txt
      assert.deepEqual(versions.map((v) => [v.path, v.mode]), [["d/x", "100644"]]);
      const all = await unknownVersions(runProcess, repo, { tip, known: [baseline] });
      assert.deepEqual(all.map((v) => [v.path, v.mode]), [
        ["d", "000000"],
        ["d/x", "100644"],
        ["gone.txt", "000000"],
        ["old.txt", "100644"],
      ]);
      const tree = await restrictedTree(runProcess, repo, { baseline, versions: all.slice(0, 3) });
      const changed = await git(root, ["diff-tree", "-r", "--name-status", baseline, tree]);
      assert.deepEqual(changed.split("\n"), ["D\td", "A\td/x", "D\tgone.txt"]);
      assert.equal(
        await git(root, ["rev-parse", `${tree}:old.txt`]),
        await blob(root, "user edit\n"),
        "what the part does not review is the baseline's",
      );
      const file = await restrictedTree(runProcess, repo, { baseline, versions });
      assert.equal(await git(root, ["rev-parse", `${file}:d/x`]), await blob(root));
    } finally {
      await cleanup();
    }
  });
}

Deno.test("ref versions: a blob and an id that is gone name no tree", async () => {
  const { repo: root, cleanup } = await makeRepo();
  try {
    const repo = await resolveRepo(runProcess, root);
    const head = await git(root, ["rev-parse", "HEAD"]);
    const gone = "0123456789abcdef0123456789abcdef01234567";
    const trees = await baselineRefTrees(runProcess, repo, [head, await blob(root), gone, head]);
    assert.deepEqual(trees, [await git(root, ["rev-parse", "HEAD^{tree}"])]);
  } finally {
    await cleanup();
  }
});

Deno.test("mergeVerdicts: a finding two parts hold (one fingerprint) is listed once", () => {
  const finding = {
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "Broken",
    body: "b",
    file: "a.ts",
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "r",
  } as StoredVerdict["blocking"][number];
  const verdict = (blocking: StoredVerdict["blocking"]): StoredVerdict => ({
    status: "needs-attention",
    runDir: "",
    blocking,
  });
  const merged = mergeVerdicts([
    { label: "the worktree", verdict: verdict([{ ...finding, fingerprint: "f1" }]) },
    {
      label: "commits on HEAD",
      verdict: verdict([
        { ...finding, fingerprint: "f1" },
        { ...finding, title: "Other", fingerprint: "f2" },
        { ...finding, title: "Other", fingerprint: "f2" },
      ]),
    },
  ]);
  assert.deepEqual(merged.blocking.map((f) => [f.title, f.fingerprint]), [
    ["Broken", "f1"],
    ["Other (commits on HEAD)", "f2"],
  ]);
});

/** The id of a blob holding `text`, written. */
function blob(root: string, text = "x\n"): Promise<string> {
  return git(root, ["hash-object", "-w", "--stdin"], { stdin: text });
}
