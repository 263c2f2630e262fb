import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../../exec/exec.ts";
import { GitError, UsageError } from "../../base/errors.ts";
import { installGitHook, uninstallGitHook } from "./install.ts";
import { CHAINED_HOOK_NAME, MANAGED_MARKER } from "./stub.ts";
import { shellQuote } from "../self_command.ts";
import { assertShellcheckClean, git, makeRepo } from "../../git/_testing.ts";

const runner = runProcess;
const COMMAND = "'/opt/review gate/bin/review-gate'";

async function snapshot(path: string): Promise<{ bytes: string; mode: number }> {
  const info = await Deno.lstat(path);
  return { bytes: await Deno.readTextFile(path), mode: (info.mode ?? 0) & 0o7777 };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("installGitHook() writes an executable marked stub and is idempotent; uninstall removes it", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const hook = join(repo, ".git/hooks/pre-push");
    const first = await installGitHook({ runner, cwd: repo, command: COMMAND });
    assert.equal(first.layout, "plain");
    const { bytes, mode } = await snapshot(hook);
    assert.ok(bytes.includes(MANAGED_MARKER));
    assert.ok(bytes.includes(`${COMMAND} hook pre-push "$@"`));
    assert.equal(mode, 0o755);
    await assertShellcheckClean(bytes);
    const again = await installGitHook({ runner, cwd: repo, command: COMMAND });
    assert.deepEqual(again.actions, []);
    const other = await installGitHook({ runner, cwd: repo, command: "'/new/path'" });
    assert.equal(other.actions.length, 1, "a new binary path refreshes the stub");
    await uninstallGitHook({ runner, cwd: repo });
    assert.equal(await exists(hook), false);
    assert.deepEqual((await uninstallGitHook({ runner, cwd: repo })).actions, []);
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() with dryRun writes nothing and shows the stub", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const report = await installGitHook({ runner, cwd: repo, command: COMMAND, dryRun: true });
    assert.match(report.text, /create .*pre-push \(mode 755\)/);
    assert.match(report.text, /\+ .*'\/opt\/review gate\/bin\/review-gate' hook pre-push "\$@"/);
    assert.equal(await exists(join(repo, ".git/hooks/pre-push")), false);
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() chains a foreign hook and uninstall restores it byte for byte with its mode", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const hook = join(repo, ".git/hooks/pre-push");
    await Deno.writeTextFile(hook, "#!/bin/sh\necho foreign 'hook' \t\nexit 0"); // no final newline
    await Deno.chmod(hook, 0o750);
    const before = await snapshot(hook);
    const report = await installGitHook({ runner, cwd: repo, command: COMMAND });
    assert.equal(report.layout, "chained");
    assert.deepEqual(await snapshot(join(repo, ".git/hooks", CHAINED_HOOK_NAME)), before);
    const stub = await Deno.readTextFile(hook);
    assert.ok(stub.includes(CHAINED_HOOK_NAME));
    await assertShellcheckClean(stub);
    assert.deepEqual((await installGitHook({ runner, cwd: repo, command: COMMAND })).actions, []);
    await uninstallGitHook({ runner, cwd: repo });
    assert.deepEqual(await snapshot(hook), before);
    assert.equal(await exists(join(repo, ".git/hooks", CHAINED_HOOK_NAME)), false);
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() refuses a non-executable foreign hook unless forced", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const hook = join(repo, ".git/hooks/pre-push");
    await Deno.writeTextFile(hook, "#!/bin/sh\nexit 1\n");
    await Deno.chmod(hook, 0o644);
    const before = await snapshot(hook);
    await assert.rejects(installGitHook({ runner, cwd: repo, command: COMMAND }), UsageError);
    assert.deepEqual(await snapshot(hook), before, "refusal leaves the hook untouched");
    const forced = await installGitHook({ runner, cwd: repo, command: COMMAND, force: true });
    assert.equal(forced.layout, "chained");
    await uninstallGitHook({ runner, cwd: repo });
    assert.deepEqual(await snapshot(hook), before);
  } finally {
    await cleanup();
  }
});

Deno.test("uninstallGitHook() leaves a foreign hook alone", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const hook = join(repo, ".git/hooks/pre-push");
    await Deno.writeTextFile(hook, "#!/bin/sh\n");
    await Deno.chmod(hook, 0o755);
    const report = await uninstallGitHook({ runner, cwd: repo });
    assert.deepEqual(report.actions, []);
    assert.match(report.text, /not review-gate's/);
    assert.equal(await Deno.readTextFile(hook), "#!/bin/sh\n");
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() follows core.hooksPath and linked worktrees", async (t) => {
  await t.step("core.hooksPath", async () => {
    const { repo, cleanup } = await makeRepo();
    try {
      await git(repo, ["config", "core.hooksPath", ".githooks"]);
      const report = await installGitHook({ runner, cwd: repo, command: COMMAND });
      assert.equal(report.hooksDir, join(await Deno.realPath(repo), ".githooks"));
      assert.ok(await exists(join(repo, ".githooks/pre-push")));
      assert.equal(await exists(join(repo, ".git/hooks/pre-push")), false);
    } finally {
      await cleanup();
    }
  });
  await t.step("linked worktree installs into the common hooks dir", async () => {
    const { dir, repo, cleanup } = await makeRepo();
    try {
      const wt = join(dir, "wt");
      await git(repo, ["worktree", "add", "-q", "-b", "side", wt]);
      const report = await installGitHook({ runner, cwd: wt, command: COMMAND });
      assert.equal(report.hooksDir, join(await Deno.realPath(repo), ".git/hooks"));
      assert.ok(await exists(join(repo, ".git/hooks/pre-push")));
    } finally {
      await cleanup();
    }
  });
  await t.step("outside a repository → GitError", async () => {
    const dir = await Deno.makeTempDir();
    try {
      await assert.rejects(installGitHook({ runner, cwd: dir, command: COMMAND }), GitError);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("installGitHook() adds one line to husky's .husky/pre-push and uninstall restores it", async (t) => {
  for (const hooksPath of [".husky/_", ".husky"]) {
    await t.step(`core.hooksPath=${hooksPath}, existing file`, async () => {
      const { repo, cleanup } = await makeRepo();
      try {
        await Deno.mkdir(join(repo, ".husky/_"), { recursive: true });
        await git(repo, ["config", "core.hooksPath", hooksPath]);
        const file = join(repo, ".husky/pre-push");
        await Deno.writeTextFile(file, "npm test\n");
        await Deno.chmod(file, 0o644);
        const before = await snapshot(file);
        const report = await installGitHook({ runner, cwd: repo, command: COMMAND });
        assert.equal(report.layout, "husky");
        const text = await Deno.readTextFile(file);
        assert.equal(text.split("\n").filter((l) => l.includes(MANAGED_MARKER)).length, 1);
        assert.ok(text.endsWith("\nnpm test\n"), "our line goes before the first command");
        await assertShellcheckClean(`#!/bin/sh\n${text}`);
        assert.deepEqual(
          (await installGitHook({ runner, cwd: repo, command: COMMAND })).actions,
          [],
        );
        await uninstallGitHook({ runner, cwd: repo });
        assert.deepEqual(await snapshot(file), before);
      } finally {
        await cleanup();
      }
    });
  }
  await t.step("missing file is created and removed again", async () => {
    const { repo, cleanup } = await makeRepo();
    try {
      await Deno.mkdir(join(repo, ".husky/_"), { recursive: true });
      await git(repo, ["config", "core.hooksPath", ".husky/_"]);
      await installGitHook({ runner, cwd: repo, command: COMMAND });
      assert.ok(await exists(join(repo, ".husky/pre-push")));
      await uninstallGitHook({ runner, cwd: repo });
      assert.equal(await exists(join(repo, ".husky/pre-push")), false);
    } finally {
      await cleanup();
    }
  });
  await t.step("a file without a final newline comes back byte-identical", async () => {
    const { repo, cleanup } = await makeRepo();
    try {
      await Deno.mkdir(join(repo, ".husky/_"), { recursive: true });
      await git(repo, ["config", "core.hooksPath", ".husky/_"]);
      const file = join(repo, ".husky/pre-push");
      await Deno.writeTextFile(file, "npm test");
      await installGitHook({ runner, cwd: repo, command: COMMAND });
      await uninstallGitHook({ runner, cwd: repo });
      assert.equal(await Deno.readTextFile(file), "npm test");
    } finally {
      await cleanup();
    }
  });
});

Deno.test("the chained stub gives the foreign hook and review-gate the same args and stdin in a real push", async () => {
  const { dir, repo, cleanup } = await makeRepo();
  try {
    const bare = join(dir, "remote.git");
    await git(dir, ["init", "-q", "--bare", bare]);
    await git(repo, ["remote", "add", "origin", bare]);
    const hook = join(repo, ".git/hooks/pre-push");
    await Deno.writeTextFile(
      hook,
      `#!/bin/sh\necho "$@" > "${dir}/foreign.args"\ncat > "${dir}/foreign.stdin"\n`,
    );
    await Deno.chmod(hook, 0o755);
    const fake = join(dir, "fake review gate.sh");
    await Deno.writeTextFile(
      fake,
      `#!/bin/sh\necho "$@" > "${dir}/ours.args"\ncat > "${dir}/ours.stdin"\nexit "\${FAKE_EXIT:-0}"\n`,
    );
    await Deno.chmod(fake, 0o755);
    await installGitHook({ runner, cwd: repo, command: shellQuote(fake) });

    await git(repo, ["push", "-q", "origin", "main"]);
    const foreignStdin = await Deno.readTextFile(join(dir, "foreign.stdin"));
    assert.match(foreignStdin, /^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}\n$/);
    assert.equal(await Deno.readTextFile(join(dir, "ours.stdin")), foreignStdin);
    assert.equal(await Deno.readTextFile(join(dir, "foreign.args")), `origin ${bare}\n`);
    assert.equal(await Deno.readTextFile(join(dir, "ours.args")), `hook pre-push origin ${bare}\n`);

    await Deno.writeTextFile(join(repo, "b.txt"), "b\n");
    await git(repo, ["add", "b.txt"]);
    await git(repo, ["commit", "-q", "-m", "b"]);
    await assert.rejects(
      git(repo, ["push", "-q", "origin", "main"], { env: { FAKE_EXIT: "1" } }),
      /failed/,
    );
    await Deno.remove(join(dir, "ours.stdin"));
    await git(repo, ["push", "-q", "origin", "main"], {
      env: { FAKE_EXIT: "1", REVIEW_GATE: "0" },
    });
    assert.equal(await exists(join(dir, "ours.stdin")), false, "REVIEW_GATE=0 skips review-gate");
    assert.match(
      await Deno.readTextFile(join(dir, "foreign.stdin")),
      /^refs\/heads\/main /,
      "but not the foreign hook",
    );
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() edits a symlinked .husky/pre-push at its target and uninstall restores it", async () => {
  const { dir, repo, cleanup } = await makeRepo();
  try {
    await Deno.mkdir(join(repo, ".husky/_"), { recursive: true });
    await git(repo, ["config", "core.hooksPath", ".husky/_"]);
    const target = join(dir, "dotfiles-pre-push");
    await Deno.writeTextFile(target, "npm test\n");
    await Deno.chmod(target, 0o755);
    const link = join(repo, ".husky/pre-push");
    await Deno.symlink(target, link);
    const before = await snapshot(target);
    await installGitHook({ runner, cwd: repo, command: COMMAND });
    assert.equal(await Deno.readLink(link), target);
    assert.match(await Deno.readTextFile(target), /managed-by: review-gate/);
    assert.equal((await snapshot(target)).mode, 0o755);
    await uninstallGitHook({ runner, cwd: repo });
    assert.equal(await Deno.readLink(link), target);
    assert.deepEqual(await snapshot(target), before);
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() refuses a hooks path that is not a directory with advice", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    await git(repo, ["config", "core.hooksPath", "/dev/null"]);
    await assert.rejects(
      installGitHook({ runner, cwd: repo, command: COMMAND }),
      (e: Error) =>
        e instanceof UsageError && /"\/dev\/null" is not a directory/.test(e.message) &&
        /git config --unset core\.hooksPath/.test(e.message),
    );
    const report = await uninstallGitHook({ runner, cwd: repo });
    assert.deepEqual(report.actions, []);
  } finally {
    await cleanup();
  }
});

Deno.test("installGitHook() notes a hooks directory inside the worktree, not .git/hooks", async () => {
  const { repo, cleanup } = await makeRepo();
  try {
    const plain = await installGitHook({ runner, cwd: repo, command: COMMAND, dryRun: true });
    assert.equal(plain.notes.some((n) => n.includes("inside the worktree")), false);
    await git(repo, ["config", "core.hooksPath", ".githooks"]);
    const inside = await installGitHook({ runner, cwd: repo, command: COMMAND, dryRun: true });
    assert.ok(inside.notes.some((n) => /inside the worktree.*do not commit it/.test(n)));
    assert.match(inside.text, /inside the worktree/);
  } finally {
    await cleanup();
  }
});
