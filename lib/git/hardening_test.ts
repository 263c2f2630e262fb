/**
 * Our own git cannot be made to run a program by the repository under review or by a poisoned
 * config (lib/git/git.ts "Hardening"): a `core.fsmonitor` in `.git/config` and in `~/.gitconfig`,
 * a `post-index-change` hook, a merge driver selected by a committed `.gitattributes`, and — in CI
 * mode — a clean filter the user's global config defines. Each program would touch a marker file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ExecRequest, runProcess } from "../exec/exec.ts";
import { mergeBaseTree } from "../gates/pre_push/merge_base_tree.ts";
import { collectChange } from "./collect.ts";
import { enableCiGitHardening, gitHardening } from "./git.ts";
import { snapshotWorktreeTree } from "./live_tree.ts";
import { resolveRepo } from "./repo.ts";
import { takeSnapshot } from "./snapshot.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";

interface Poisoned {
  repo: TestRepo;
  /** Runner whose git children see the poisoned HOME (its `.gitconfig`). */
  runner: (request: ExecRequest) => ReturnType<typeof runProcess>;
  home: string;
  markers: string;
  ran(): Promise<string[]>;
  /** Forget the markers the test's own (unhardened) git calls left. */
  forget(): Promise<void>;
  cleanup(): Promise<void>;
}

/** A repository and a HOME whose configs point every program-running key at marker scripts. */
async function poisoned(): Promise<Poisoned> {
  const repo = await makeTestRepo({ "a.txt": "one\n", "m.txt": "base\n" });
  const home = await Deno.makeTempDir({ prefix: "review-gate-home-" });
  const markers = join(home, "markers");
  await Deno.mkdir(markers);
  const script = async (name: string, body = "") => {
    const path = join(home, `${name}.sh`);
    await Deno.writeTextFile(path, `#!/bin/sh\ntouch "${markers}/${name}"\n${body}`);
    await Deno.chmod(path, 0o755);
    return path;
  };
  const fsmonitor = await script("global-fsmonitor");
  const driver = await script("merge-driver", "exit 0\n");
  const clean = await script("clean-filter", "cat\n");
  await Deno.writeTextFile(
    join(home, ".gitconfig"),
    `[core]\n\tfsmonitor = ${fsmonitor}\n[merge "evil"]\n\tdriver = ${driver} %O %A %B\n` +
      `[filter "evil"]\n\tclean = ${clean}\n`,
  );
  await repo.git("config", "core.fsmonitor", await script("local-fsmonitor"));
  const hook = join(repo.root, ".git/hooks/post-index-change");
  await Deno.writeTextFile(hook, `#!/bin/sh\ntouch "${markers}/post-index-change"\n`);
  await Deno.chmod(hook, 0o755);
  const runner = (request: ExecRequest) =>
    runProcess({ ...request, env: { ...request.env, HOME: home, XDG_CONFIG_HOME: home } });
  return {
    repo,
    runner,
    home,
    markers,
    forget: async () => {
      for (const e of [...Deno.readDirSync(markers)]) await Deno.remove(join(markers, e.name));
    },
    ran: () => Promise.resolve([...Deno.readDirSync(markers)].map((e) => e.name).sort()),
    cleanup: async () => {
      gitHardening("local");
      await repo.cleanup();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("hardened git: a worktree review and the read-only proof run no fsmonitor and no hook", async () => {
  const p = await poisoned();
  try {
    await p.repo.write("a.txt", "two\n");
    await p.repo.write("new.txt", "new\n");
    const repo = await resolveRepo(p.runner, p.repo.root);
    await takeSnapshot(p.runner, repo);
    const change = await collectChange(p.runner, {
      repo,
      target: { kind: "worktree" },
      budgets: { perFileBytes: 65536, totalBytes: 400000 },
    });
    assert.equal(change.files.length, 2);
    await takeSnapshot(p.runner, repo);
    assert.deepEqual(await p.ran(), []);
  } finally {
    await p.cleanup();
  }
});

Deno.test("hardened git: merge-tree of the pre-push gate runs no merge driver the user defines", async () => {
  const p = await poisoned();
  try {
    await p.repo.write(".gitattributes", "m.txt merge=evil\n");
    await p.repo.git("add", "-A");
    await p.repo.git("commit", "-qm", "attributes");
    const base = (await p.repo.git("rev-parse", "HEAD")).trim();
    await p.repo.git("checkout", "-qb", "other");
    await p.repo.write("m.txt", "theirs\n");
    await p.repo.git("commit", "-qam", "theirs");
    const parent = (await p.repo.git("rev-parse", "HEAD")).trim();
    await p.repo.git("checkout", "-q", "main");
    await p.repo.write("m.txt", "ours\n");
    await p.repo.git("commit", "-qam", "ours");
    const ours = (await p.repo.git("rev-parse", "HEAD")).trim();
    assert.notEqual(base, ours);
    await p.forget();
    // both sides changed m.txt: git would call the driver; without it, a conflict → null
    assert.equal(
      await mergeBaseTree(p.runner, p.repo.root, { base: ours, parents: [parent] }),
      null,
    );
    assert.deepEqual(await p.ran(), []);
  } finally {
    await p.cleanup();
  }
});

Deno.test("hardened git: in CI mode a globally defined clean filter is not run; locally it is", async () => {
  const p = await poisoned();
  try {
    await p.repo.write(".gitattributes", "*.txt filter=evil\n");
    await p.repo.write("a.txt", "changed\n");
    const repo = await resolveRepo(p.runner, p.repo.root);
    await snapshotWorktreeTree(p.runner, repo);
    assert.deepEqual(
      await p.ran(),
      ["clean-filter"],
      "local mode keeps the user's filters (git-lfs)",
    );
    await Deno.remove(join(p.markers, "clean-filter"));
    await enableCiGitHardening(p.runner);
    assert.equal(gitHardening(), "ci");
    await p.repo.write("a.txt", "changed again\n");
    await snapshotWorktreeTree(p.runner, repo);
    assert.deepEqual(await p.ran(), []);
  } finally {
    await p.cleanup();
  }
});

Deno.test("hardened git: CI mode carries the runner's safe.directory entries on the command line", async () => {
  const p = await poisoned();
  try {
    await Deno.writeTextFile(
      join(p.home, ".gitconfig"),
      `[safe]\n\tdirectory = /some/checkout\n`,
      { append: true },
    );
    const seen: ExecRequest[] = [];
    const runner = (request: ExecRequest) => {
      seen.push(request);
      return p.runner(request);
    };
    assert.deepEqual(await enableCiGitHardening(runner), ["/some/checkout"]);
    await resolveRepo(runner, p.repo.root);
    const last = seen.at(-1)!;
    assert.ok(last.args.includes("safe.directory=/some/checkout"));
    assert.equal(last.env?.GIT_CONFIG_GLOBAL, "/dev/null");
    assert.equal(last.env?.GIT_CONFIG_NOSYSTEM, "1");
  } finally {
    await p.cleanup();
  }
});
