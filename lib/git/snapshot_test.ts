import assert from "node:assert/strict";
import { type ExecRequest, runProcess } from "../exec.ts";
import { resolveRepo } from "./repo.ts";
import { compareSnapshots, takeSnapshot } from "./snapshot.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";

async function snap(repo: TestRepo) {
  return takeSnapshot(runProcess, await resolveRepo(runProcess, repo.root));
}

Deno.test("takeSnapshot() is identical across calls on an unchanged repo and writes nothing", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n", "b.txt": "b\n" });
  try {
    await repo.write("a.txt", "dirty\n");
    await repo.write("u.txt", "untracked\n");
    const index = await repo.read(".git/index");
    const calls: ExecRequest[] = [];
    const r = await resolveRepo(runProcess, repo.root);
    const counted = (req: ExecRequest) => {
      calls.push(req);
      return runProcess(req);
    };
    const first = await takeSnapshot(counted, r);
    const second = await takeSnapshot(counted, r);
    assert.equal(calls.length, 4);
    assert.deepEqual(compareSnapshots(first, second), []);
    assert.deepEqual(first, second);
    assert.deepEqual(await repo.read(".git/index"), index);
    assert.deepEqual(Object.keys(first.files).sort(), ["a.txt", "u.txt"]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("compareSnapshots() names each kind of change", async (t) => {
  const cases: [string, (repo: TestRepo) => Promise<void>, string[]][] = [
    ["new untracked file", (r) => r.write("new.txt", "n\n"), ["new.txt"]],
    ["modified tracked file", (r) => r.write("a.txt", "changed\n"), ["a.txt"]],
    ["modified dirty file", (r) => r.write("dirty.txt", "dirtier\n"), ["dirty.txt"]],
    ["modified untracked file", (r) => r.write("u.txt", "u2\n"), ["u.txt"]],
    ["deleted tracked file", (r) => Deno.remove(`${r.root}/a.txt`), ["a.txt"]],
    ["deleted untracked file", (r) => Deno.remove(`${r.root}/u.txt`), ["u.txt"]],
    ["HEAD move", async (r) => void await r.git("commit", "-q", "--allow-empty", "-m", "x"), [
      "HEAD",
    ]],
    ["branch switch", async (r) => void await r.git("checkout", "-q", "-b", "other"), ["HEAD"]],
    ["index change", async (r) => void await r.git("add", "dirty.txt"), ["index", "dirty.txt"]],
    ["touch without content change", async (r) => {
      const now = new Date(Date.now() + 5000);
      await Deno.utime(`${r.root}/dirty.txt`, now, now);
      await Deno.utime(`${r.root}/a.txt`, now, now);
    }, []],
    [
      "index stat refresh",
      async (r) => void await r.git("update-index", "--refresh").catch(() => ""),
      [],
    ],
  ];
  for (const [name, mutate, expected] of cases) {
    await t.step(name, async () => {
      const repo = await makeTestRepo({ "a.txt": "a\n", "dirty.txt": "d\n" });
      try {
        await repo.write("dirty.txt", "dirty\n");
        await repo.write("u.txt", "u\n");
        const before = await snap(repo);
        await mutate(repo);
        assert.deepEqual(compareSnapshots(before, await snap(repo)), expected);
      } finally {
        await repo.cleanup();
      }
    });
  }
});
