/**
 * End to end: "already on the remote" is proven, not assumed. Real `git push` through the installed
 * hook: a forged remote-tracking ref (`git update-ref refs/remotes/origin/x HEAD`), a stale one (the
 * branch deleted on the remote, not pruned) and one the remote rewound never make a new branch
 * "nothing new to review"; when the remote cannot be asked what it has (it refuses, or hangs past
 * the bound) the ref is NOT reviewed and `on_error` applies. The remotes are local bare
 * repositories; the "ssh" remote is a script that runs `git receive-pack` on a local path (no
 * network) and refuses, or sleeps on, the `git-upload-pack` that `ls-remote` asks for.
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
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeUserConfig,
} from "./_gates.ts";

async function installed(): Promise<GateSandbox> {
  const sb = await makeGateSandbox();
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  return sb;
}

const NOTHING_NEW = /nothing new to review/;

Deno.test("pre-push: a forged remote-tracking ref does not make a new branch 'nothing new'", async () => {
  const sb = await installed();
  try {
    const blocking = scenario(await blockingScenario(sb));
    await gitOk(sb, ["switch", "-q", "-c", "b"]);
    await commitToken(sb, "FORGED");
    await gitOk(sb, ["update-ref", "refs/remotes/origin/x", "HEAD"]);
    const r = await runGit(sb, ["push", "origin", "b"], { env: blocking });
    assert.doesNotMatch(r.stderr, NOTHING_NEW);
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/b \(1 commit\)/);
    assert.match(r.stderr, /1 commit that remote-tracking refs of "origin" list is not on it/);
    assert.equal(await remoteRef(sb, "refs/heads/b"), null);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a stale remote-tracking ref (deleted or rewound on the remote) is not 'already there'", async (t) => {
  const sb = await installed();
  try {
    const blocking = scenario(await blockingScenario(sb));
    await gitOk(sb, ["switch", "-q", "-c", "side"]);
    await commitToken(sb, "STALE");
    const pushed = await runGit(sb, ["push", "-q", "origin", "side"], {
      env: { REVIEW_GATE: "0" },
    });
    assert.equal(pushed.code, 0, pushed.stderr);

    await t.step("rewound on the remote (origin/side still has the commit here)", async () => {
      await gitOk(sb, ["update-ref", "refs/heads/side", "main"], sb.remote);
      const r = await runGit(sb, ["push", "origin", "side:refs/heads/b"], { env: blocking });
      assert.doesNotMatch(r.stderr, NOTHING_NEW);
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/b/);
    });

    await t.step("deleted on the remote, not pruned", async () => {
      await gitOk(sb, ["update-ref", "-d", "refs/heads/side"], sb.remote);
      const r = await runGit(sb, ["push", "origin", "side:refs/heads/c"], { env: blocking });
      assert.doesNotMatch(r.stderr, NOTHING_NEW);
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/c/);
    });

    await t.step("really on the remote: nothing new, proven", async () => {
      const calls = await providerCalls(sb);
      const side = await gitOk(sb, ["rev-parse", "refs/remotes/origin/side"]);
      await gitOk(sb, ["update-ref", "refs/heads/side", side], sb.remote);
      const r = await runGit(sb, ["push", "origin", "side:refs/heads/d"], { env: blocking });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, NOTHING_NEW);
      assert.equal(await providerCalls(sb), calls);
    });
  } finally {
    await sb.cleanup();
  }
});

/**
 * Push to `origin` over a fake "ssh" that runs `git receive-pack` on the bare remote and, for the
 * `git-upload-pack` of `ls-remote`, does `uploadPack` (a shell command: refuse, or sleep).
 */
async function sshPushUrl(sb: GateSandbox, uploadPack: string): Promise<void> {
  const script = join(sb.dir, "fake-ssh.sh");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\n# fake-ssh <host> <command>: no network, only the local bare repository\n` +
      `case $2 in\n  git-receive-pack*) exec sh -c "git receive-pack \${2#git-receive-pack }" ;;\n` +
      `  *) ${uploadPack} ;;\nesac\n`,
  );
  await Deno.chmod(script, 0o755);
  await gitOk(sb, ["config", "core.sshCommand", script]);
  await gitOk(sb, ["config", "ssh.variant", "simple"]);
  await gitOk(sb, ["remote", "set-url", "--push", "origin", `ssh://127.0.0.1${sb.remote}`]);
}

Deno.test("pre-push: a remote that cannot say what it has gives NOT reviewed, and on_error applies", async (t) => {
  const sb = await installed();
  try {
    const blocking = scenario(await blockingScenario(sb));
    await sshPushUrl(sb, 'echo "fake ssh: upload-pack refused" >&2; exit 255');
    await gitOk(sb, ["switch", "-q", "-c", "b"]);
    await commitToken(sb, "OFFLINE");
    await gitOk(sb, ["update-ref", "refs/remotes/origin/x", "HEAD"]);

    await t.step("on_error block (the user's config): blocked", async () => {
      await writeUserConfig(sb, { gates: { pre_push: { on_error: "block" } } });
      const r = await runGit(sb, ["push", "origin", "b"], { env: blocking });
      assert.notEqual(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, NOTHING_NEW);
      assert.match(
        r.stderr,
        /refs\/heads\/b was NOT reviewed: could not ask origin which commits it has \(git ls-remote: .*\)/,
      );
      assert.match(r.stderr, /gates\.pre_push\.on_error is "block"/);
      assert.equal(await remoteRef(sb, "refs/heads/b"), null);
    });

    await t.step("on_error allow (the default): goes ahead, saying NOT reviewed", async () => {
      await writeUserConfig(sb, {});
      const r = await runGit(sb, ["push", "origin", "b"], { env: blocking });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /refs\/heads\/b was NOT reviewed: could not ask origin/);
      assert.match(r.stderr, /The push goes ahead unreviewed/);
      assert.equal(await providerCalls(sb), 0);
    });

    await t.step("an update from a known old tip needs no answer from the remote", async () => {
      await commitToken(sb, "KNOWN");
      const r = await runGit(sb, ["push", "origin", "b"], { env: blocking });
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/b \(1 commit\)/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a remote that hangs on ls-remote is given up after the bound: NOT reviewed", async () => {
  const sb = await installed();
  try {
    await sshPushUrl(sb, "sleep 60");
    await gitOk(sb, ["switch", "-q", "-c", "b"]);
    await commitToken(sb, "HANG");
    await gitOk(sb, ["update-ref", "refs/remotes/origin/x", "HEAD"]);
    const started = Date.now();
    const r = await runGit(sb, ["push", "origin", "b"], { env: scenario("valid") });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, NOTHING_NEW);
    assert.match(
      r.stderr,
      /refs\/heads\/b was NOT reviewed: could not ask origin which commits it has \(no answer in 12 s\)/,
    );
    assert.ok(seconds < 40, `bounded (${seconds} s)`);
  } finally {
    await sb.cleanup();
  }
});
