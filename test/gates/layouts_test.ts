/**
 * End to end: the pre-push hook installed by `review-gate install --git` in each layout git can run
 * hooks from — `core.hooksPath`, husky 9, a linked worktree, and a foreign hook kept and chained —
 * is really run by `git push` (a blocking finding rejects the push) and uninstall puts back what
 * was there byte for byte.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  blockingScenario,
  commitToken,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  providerCalls,
  readFakeLog,
  remoteRef,
  runCli,
  runGit,
  scenario,
} from "./_gates.ts";

/** Commit, push with the blocking scenario from `cwd`, assert git ran our hook and it blocked. */
async function assertPushBlocked(sb: GateSandbox, cwd?: string, branch = "main"): Promise<string> {
  const before = await remoteRef(sb, branch);
  await commitToken(sb, `LAYOUT_${crypto.randomUUID().slice(0, 8)}`, cwd);
  const r = await runGit(sb, ["push", "origin", branch], {
    cwd,
    env: scenario(await blockingScenario(sb)),
  });
  assert.notEqual(r.code, 0, r.stderr);
  assert.match(r.stderr, /review-gate: push blocked: 1 blocking finding/);
  assert.equal(await remoteRef(sb, branch), before);
  assert.equal(await providerCalls(sb), 1);
  return r.stderr;
}

async function fileState(path: string): Promise<{ bytes: string; mode: number } | null> {
  try {
    const info = await Deno.stat(path);
    return { bytes: await Deno.readTextFile(path), mode: (info.mode ?? 0) & 0o7777 };
  } catch {
    return null;
  }
}

Deno.test("pre-push install honours core.hooksPath: git runs the hook from there", async () => {
  const sb = await makeGateSandbox();
  try {
    await gitOk(sb, ["config", "core.hooksPath", ".githooks"]);
    const r = await runCli(sb, ["install", "--git"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      await Deno.readTextFile(join(sb.repo.root, ".githooks", "pre-push")),
      /managed-by: review-gate/,
    );
    assert.equal(await fileState(join(sb.repo.root, ".git", "hooks", "pre-push")), null);
    await assertPushBlocked(sb);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push install adds one line to husky's .husky/pre-push and uninstall restores it", async () => {
  const sb = await makeGateSandbox();
  try {
    // husky 9: core.hooksPath=.husky/_, whose pre-push sources h, which runs .husky/pre-push with sh -e.
    const husky = join(sb.repo.root, ".husky");
    await Deno.mkdir(join(husky, "_"), { recursive: true });
    await Deno.writeTextFile(
      join(husky, "_", "h"),
      '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\n' +
        '[ "${HUSKY-}" = "0" ] && exit 0\nsh -e "$s" "$@"\nc=$?\n[ $c != 0 ] && echo "husky - $n script failed (code $c)"\nexit $c\n',
    );
    await Deno.writeTextFile(
      join(husky, "_", "pre-push"),
      '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n',
      { mode: 0o755 },
    );
    const userHook = join(husky, "pre-push");
    await Deno.writeTextFile(userHook, "echo HUSKY_USER_HOOK_RAN >&2\n", { mode: 0o644 });
    await gitOk(sb, ["config", "core.hooksPath", ".husky/_"]);
    const before = await fileState(userHook);

    const r = await runCli(sb, ["install", "--git"]);
    assert.equal(r.code, 0, r.stderr);
    const text = await Deno.readTextFile(userHook);
    assert.ok(text.endsWith("\necho HUSKY_USER_HOOK_RAN >&2\n"), "ours goes before the user's");
    assert.match(text, /hook pre-push "\$@".*managed-by: review-gate/);
    const stderr = await assertPushBlocked(sb);
    assert.doesNotMatch(stderr, /HUSKY_USER_HOOK_RAN/, "a blocking review ends the hook first");

    const u = await runCli(sb, ["uninstall", "--git"]);
    assert.equal(u.code, 0, u.stderr);
    assert.deepEqual(await fileState(userHook), before);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push install from a linked worktree gates pushes from that worktree", async () => {
  const sb = await makeGateSandbox();
  try {
    const wt = join(sb.dir, "wt");
    await gitOk(sb, ["worktree", "add", "-q", "-b", "wtbranch", wt]);
    await gitOk(sb, ["push", "-q", "origin", "wtbranch"], wt);
    const r = await runCli(sb, ["install", "--git"], { cwd: wt });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      await Deno.readTextFile(join(sb.repo.root, ".git", "hooks", "pre-push")),
      /managed-by: review-gate/,
    );
    await assertPushBlocked(sb, wt, "wtbranch");
    const runs = [...Deno.readDirSync(join(sb.repo.root, ".git", "review-gate", "runs"))];
    assert.equal(runs.length, 1, "the store lives in the common git dir");
    // the provider runs in the private copy of the pushed tree, never in a checkout
    assert.match((await readFakeLog(sb))[0].cwd, /\/review-gate-review-[^/]+\/tree$/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push install chains a foreign hook with the same stdin, and uninstall restores it byte for byte", async () => {
  const sb = await makeGateSandbox();
  try {
    const hooks = join(sb.repo.root, ".git", "hooks");
    const foreign = join(hooks, "pre-push");
    const seen = join(sb.dir, "foreign");
    // The foreign hook records its arguments and stdin; FOREIGN_FAIL=1 makes it refuse the push.
    await Deno.writeTextFile(
      foreign,
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${seen}.args'\ncat > '${seen}.stdin'\n[ "\${FOREIGN_FAIL:-}" = 1 ] && { echo FOREIGN_REFUSED >&2; exit 1; }\nexit 0\n`,
      { mode: 0o755 },
    );
    const before = await fileState(foreign);

    const dry = await runCli(sb, ["install", "--git", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /dry run: nothing written/);
    assert.deepEqual(await fileState(foreign), before);
    assert.deepEqual(
      [...Deno.readDirSync(hooks)].map((e) => e.name).filter((n) => n.includes("review-gate")),
      [],
    );

    const r = await runCli(sb, ["install", "--git"]);
    assert.equal(r.code, 0, r.stderr);
    const head = await commitToken(sb, "CHAINED_ONE");
    const old = await remoteRef(sb, "main");
    const pushed = await runGit(sb, ["push", "origin", "main"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /push blocked/);
    assert.equal(await Deno.readTextFile(`${seen}.args`), `origin\n${sb.remote}\n`);
    assert.equal(
      await Deno.readTextFile(`${seen}.stdin`),
      `refs/heads/main ${head} refs/heads/main ${old}\n`,
    );
    assert.match(
      (await readFakeLog(sb))[0].stdin ?? "",
      /CHAINED_ONE/,
      "our hook got the same stdin",
    );

    const refused = await runGit(sb, ["push", "origin", "main"], { env: { FOREIGN_FAIL: "1" } });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /FOREIGN_REFUSED/);
    assert.equal(
      await providerCalls(sb),
      1,
      "a refusing foreign hook stops the push before any review",
    );

    const u = await runCli(sb, ["uninstall", "--git"]);
    assert.equal(u.code, 0, u.stderr);
    assert.deepEqual(await fileState(foreign), before);
    assert.deepEqual(
      [...Deno.readDirSync(hooks)].map((e) => e.name).filter((n) => n.includes("review-gate")),
      [],
    );
  } finally {
    await sb.cleanup();
  }
});
