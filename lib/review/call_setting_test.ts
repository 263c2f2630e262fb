import assert from "node:assert/strict";
import { join } from "node:path";
import { GitError } from "../base/errors.ts";
import { type ExecRequest, type ExecResult, runProcess } from "../exec/exec.ts";
import { liveTempDirs } from "../exec/tmpdir.ts";
import { resolveRepo } from "../git/repo.ts";
import { makeTestRepo, type TestRepo } from "../git/test_repo.ts";
import { INTERRUPT_GRACE_MS, prepareCallSetting } from "./call_setting.ts";

/** The git subcommand of a request (`status`, `ls-tree`, …), past the leading `-c` options. */
function subcommand(request: ExecRequest): string {
  const args = request.args;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return "";
}

/**
 * A runner that records every git subcommand, counts the children still running, and lets `stall`
 * make a subcommand hang (a `sleep` standing in for a slow git, killed like one on an abort) or
 * `fail` make it exit 128.
 */
function watchedRunner(at: { stall?: string; fail?: string } = {}) {
  const seen: string[] = [];
  const killable: boolean[] = [];
  let running = 0;
  const runner = async (request: ExecRequest): Promise<ExecResult> => {
    const name = subcommand(request);
    seen.push(name);
    killable.push(request.signal !== undefined);
    running++;
    try {
      if (name === at.stall) return await runProcess({ ...request, cmd: "sleep", args: ["20"] });
      if (name === at.fail) {
        const fatal = new TextEncoder().encode("fatal: simulated");
        return { ...await runProcess(request), code: 128, stderr: fatal };
      }
      return await runProcess(request);
    } finally {
      running--;
    }
  };
  return { runner, seen, killable, running: () => running };
}

async function withRepo(fn: (repo: TestRepo, tree: string, home: string) => Promise<void>) {
  const repo = await makeTestRepo({ "a.txt": "one\n", "src/b.txt": "two\n" });
  const home = await Deno.makeTempDir({ prefix: "rg-setting-home-" });
  try {
    await fn(repo, (await repo.git("rev-parse", "HEAD^{tree}")).trim(), home);
  } finally {
    await repo.cleanup();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("prepareCallSetting() takes the first snapshot and copies the tree at once; use() runs in them, then the copy is removed by end()", async () => {
  await withRepo(async (repo, tree, home) => {
    const resolved = await resolveRepo(runProcess, repo.root);
    const watched = watchedRunner();
    const setting = prepareCallSetting(watched.runner, {
      repo: resolved,
      tree,
      env: { HOME: home },
    });
    let dir = "";
    const changed = await setting.use(async (workspace, proof) => {
      dir = workspace.dir;
      assert.equal(workspace.treeId, tree);
      assert.equal(await Deno.readTextFile(join(workspace.tree, "src", "b.txt")), "two\n");
      assert.deepEqual(watched.seen.sort(), ["cat-file", "ls-tree", "status"], "under way before");
      const before = await proof.take();
      assert.equal(watched.seen.length, 3, "the first take is the snapshot under way");
      await repo.write("new.txt", "n\n");
      return proof.compare(before, await proof.take());
    });
    assert.deepEqual(changed, ["new.txt"]);
    // made ahead, the setting's calls could be killed; the proof in use must finish
    assert.deepEqual(watched.killable, [true, true, true, false]);
    await setting.end(); // after use: the copy's removal, begun when use() returned, has ended
    await assert.rejects(Deno.lstat(dir), Deno.errors.NotFound);
    assert.deepEqual(liveTempDirs(), []);
    assert.equal(watched.running(), 0);
  });
});

Deno.test("prepareCallSetting() end() of an unused setting kills its git children and removes the copy", async () => {
  await withRepo(async (repo, tree, home) => {
    const resolved = await resolveRepo(runProcess, repo.root);
    // the copy's cat-file and the proof's status hang: end() must not wait for them
    for (const stall of ["cat-file", "status"]) {
      const watched = watchedRunner({ stall });
      const setting = prepareCallSetting(watched.runner, {
        repo: resolved,
        tree,
        env: { HOME: home },
      });
      // until the stalled call runs and the copy's directory exists
      while (!watched.seen.includes(stall) || liveTempDirs().length === 0) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const t0 = performance.now();
      await setting.end();
      assert.ok(performance.now() - t0 < 10_000, `end() waited for the stalled ${stall}`);
      assert.equal(watched.running(), 0, `a child is left running (${stall} stalled)`);
      assert.deepEqual(liveTempDirs(), [], `the copy is left (${stall} stalled)`);
      await assert.rejects(
        setting.use(() => Promise.resolve()),
        /used once/,
        "an ended setting cannot be used",
      );
    }
  });
});

Deno.test("prepareCallSetting() use() throws a failed copy without running the call or leaving the proof's snapshot running", async () => {
  await withRepo(async (repo, tree, home) => {
    const resolved = await resolveRepo(runProcess, repo.root);
    const watched = watchedRunner({ fail: "ls-tree", stall: "status" });
    const setting = prepareCallSetting(watched.runner, {
      repo: resolved,
      tree,
      env: { HOME: home },
    });
    let called = false;
    const t0 = performance.now();
    const error = await setting.use(() => {
      called = true;
      return Promise.resolve();
    }).catch((e) => e);
    await setting.end();
    assert.ok(performance.now() - t0 < 10_000, "the set-up waited for the stalled status");
    assert.ok(error instanceof GitError, String(error));
    assert.equal(called, false);
    assert.equal(watched.running(), 0, "the stalled status was left running");
    assert.deepEqual(liveTempDirs(), []);
  });
});

Deno.test("prepareCallSetting() a failed first snapshot is thrown by the proof's first take, and the copy is still removed", async () => {
  await withRepo(async (repo, tree, home) => {
    const resolved = await resolveRepo(runProcess, repo.root);
    const watched = watchedRunner({ fail: "status" });
    const setting = prepareCallSetting(watched.runner, {
      repo: resolved,
      tree,
      env: { HOME: home },
    });
    await new Promise((r) => setTimeout(r, 300)); // the snapshot has failed by now: never unhandled
    await assert.rejects(setting.use((_, proof) => proof.take()), GitError);
    await setting.end();
    assert.equal(watched.running(), 0);
    assert.deepEqual(liveTempDirs(), []);
  });
});

Deno.test("prepareCallSetting(): a git call of the proof in use that never ends is killed a grace after the review's interrupt", async () => {
  await withRepo(async (repo, tree, home) => {
    const resolved = await resolveRepo(runProcess, repo.root);
    const interrupt = new AbortController();
    let hang = false;
    // a `sleep` stands in for a git status blocked on a FIFO put at .git/shallow
    const runner = (request: ExecRequest) =>
      runProcess(
        hang && subcommand(request) === "status"
          ? { ...request, cmd: "sleep", args: ["60"] }
          : request,
      );
    const setting = prepareCallSetting(runner, {
      repo: resolved,
      tree,
      env: { HOME: home },
      signal: interrupt.signal,
    });
    let graceMs = 0;
    await setting.use(async (_workspace, proof) => {
      await proof.take();
      hang = true;
      const after = proof.take();
      interrupt.abort();
      const aborted = performance.now();
      await assert.rejects(after);
      graceMs = performance.now() - aborted;
    });
    assert.ok(graceMs >= INTERRUPT_GRACE_MS - 50, `the proof had its grace (${graceMs} ms)`);
    assert.ok(graceMs < INTERRUPT_GRACE_MS + 20_000, `and not the hanging call's minute`);
  });
});
