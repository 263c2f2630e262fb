import assert from "node:assert/strict";
import { LOCAL_REF_PREFIXES, readLocalRefs } from "./local_refs.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";

/** What `git for-each-ref` says the local refs are: the reference the files reader must match. */
async function forEachRef(repo: TestRepo): Promise<Map<string, string>> {
  const text = await repo.git(
    "for-each-ref",
    "--format=%(refname) %(objectname)",
    ...LOCAL_REF_PREFIXES,
  );
  return new Map(
    text.trim().split("\n").filter((l) => l !== "").map((l) => {
      const space = l.lastIndexOf(" ");
      return [l.slice(0, space), l.slice(space + 1)];
    }),
  );
}

function sorted(refs: Map<string, string> | null): [string, string][] {
  assert.ok(refs !== null, "the files backend is read");
  return [...refs].sort(([a], [b]) => (a < b ? -1 : 1));
}

Deno.test("readLocalRefs() lists what git for-each-ref lists, loose and packed, in both object formats", async (t) => {
  for (const objectFormat of ["sha1", "sha256"] as const) {
    const repo = await makeTestRepo({ "a.txt": "a\n" }, { objectFormat });
    try {
      const check = async (what: string) => {
        assert.deepEqual(
          sorted(await readLocalRefs(`${repo.root}/.git`)),
          sorted(await forEachRef(repo)),
          `${objectFormat}: ${what}`,
        );
      };
      await t.step(objectFormat, async () => {
        await check("one branch");
        await repo.git("branch", "feature/deep/x");
        await repo.git("tag", "light");
        await repo.git("tag", "-a", "-m", "annotated", "v1");
        await repo.git("notes", "add", "-m", "a note");
        await repo.write("a.txt", "stashed\n");
        await repo.git("stash", "-q");
        await repo.git("update-ref", "refs/remotes/origin/main", "HEAD");
        await repo.git("update-ref", "refs/other/hidden", "HEAD");
        await check("loose refs of every kind");
        await repo.git("pack-refs", "--all");
        await check("everything packed");
        await repo.git("commit", "-q", "--allow-empty", "-m", "moves main, loose over packed");
        await repo.git("branch", "-D", "feature/deep/x");
        await repo.git("tag", "-d", "light");
        await check("a loose ref over a packed one, packed refs deleted");
      });
    } finally {
      await repo.cleanup();
    }
  }
});

Deno.test("readLocalRefs() keeps a symbolic ref's target, skips lock files and reads linked worktrees' common dir", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  const linked = `${repo.root}-linked`;
  try {
    await repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
    await repo.write(".git/refs/heads/main.lock", "0000\n");
    await repo.git("worktree", "add", "-q", linked, "-b", "side");
    const refs = await readLocalRefs(`${repo.root}/.git`);
    const main = (await repo.git("rev-parse", "main")).trim();
    assert.deepEqual(sorted(refs), [
      ["refs/heads/alias", "ref: refs/heads/main"],
      ["refs/heads/main", main],
      ["refs/heads/side", main],
    ]);
  } finally {
    await Deno.remove(linked, { recursive: true }).catch(() => {});
    await repo.cleanup();
  }
});

Deno.test("readLocalRefs() never opens a FIFO or follows a link planted among the refs", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    const fifo = await new Deno.Command("mkfifo", { args: [`${repo.root}/.git/refs/heads/pipe`] })
      .output();
    assert.ok(fifo.success);
    await Deno.symlink("/dev/zero", `${repo.root}/.git/refs/tags/zero`);
    const refs = await readLocalRefs(`${repo.root}/.git`);
    assert.match(refs?.get("refs/heads/pipe") ?? "", /^special /);
    assert.equal(refs?.get("refs/tags/zero"), "link /dev/zero");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("readLocalRefs() leaves a reftable repository to git", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    await Deno.mkdir(`${repo.root}/.git/reftable`);
    assert.equal(await readLocalRefs(`${repo.root}/.git`), null);
  } finally {
    await repo.cleanup();
  }
});
