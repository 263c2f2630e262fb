/**
 * End to end with real `git push`: review-gate's line in a hook file it does not own is always
 * reached. husky files whose top level ends early (`exit 0`, `exec`, `|| exit 0`, an EXIT trap under
 * `set -e`) and ones that read stdin first get our line before their first command, so the push is
 * reviewed (a blocking finding rejects it) and the user's commands still get git's stdin; a line an
 * older install appended after `exit 0` is what `doctor` reports as unreachable until install moves
 * it up; husky 8's re-run runs us once; a foreign hook that dispatches on `$0` (husky 4) keeps its
 * name and gets our line instead of being renamed; a non-shell husky file is refused.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { renderHookLine } from "../../lib/install/git/stub.ts";
import { pushSkipScript, selfCommand } from "../../lib/install/self_command.ts";
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
} from "./_gates.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** husky 9's runtime: `.husky/_/pre-push` sources `h`, which runs `.husky/pre-push` with `sh -e`. */
async function husky9(sb: GateSandbox): Promise<string> {
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
    {
      mode: 0o755,
    },
  );
  await gitOk(sb, ["config", "core.hooksPath", ".husky/_"]);
  return join(husky, "pre-push");
}

/** Commit and push with the blocking scenario: returns git's result and the old remote id. */
async function pushBlocking(sb: GateSandbox, token: string) {
  const before = await remoteRef(sb, "main");
  await commitToken(sb, token);
  const r = await runGit(sb, ["push", "origin", "main"], {
    env: scenario(await blockingScenario(sb)),
  });
  return { r, before };
}

async function assertBlocked(sb: GateSandbox, token: string): Promise<string> {
  const calls = await providerCalls(sb);
  const { r, before } = await pushBlocking(sb, token);
  assert.notEqual(r.code, 0, r.stderr);
  assert.match(r.stderr, /review-gate: push blocked: 1 blocking finding/);
  assert.equal(await remoteRef(sb, "main"), before, "nothing reached the remote");
  assert.equal(await providerCalls(sb), calls + 1, "one review");
  return r.stderr;
}

Deno.test("husky files that end early get our line where it runs: every push is reviewed", async (t) => {
  const sb = await makeGateSandbox();
  try {
    const file = await husky9(sb);
    const seen = join(sb.dir, "user-stdin");
    const samples: Record<string, string> = {
      "echo then exit 0": 'echo "husky: checking" >&2\nexit 0\n',
      "exec": "#!/bin/sh\nexec true\n",
      "final || exit 0 (git-lfs missing)":
        'command -v git-lfs-not-here >/dev/null 2>&1 || exit 0\ngit lfs pre-push "$@"\n',
      "EXIT trap under set -e": "trap 'exit 0' EXIT\nset -e\nfalse\necho never\n",
      "a command that reads stdin first": `cat > '${seen}'\nexit 0\n`,
    };
    for (const [name, text] of Object.entries(samples)) {
      await t.step(name, async () => {
        await Deno.writeTextFile(file, text);
        const i = await runCli(sb, ["install", "--git"]);
        assert.equal(i.code, 0, i.stderr);
        const installed = await Deno.readTextFile(file);
        assert.ok(installed.endsWith(text.replace(/^#!\/bin\/sh\n/, "")), installed);
        const doctor = await runCli(sb, ["doctor"]);
        assert.match(
          doctor.stdout,
          /ok {3}git pre-push hook: installed and reached/,
          doctor.stdout,
        );
        await assertBlocked(sb, `HUSKY_${name.replace(/\W+/g, "_")}`);
        const u = await runCli(sb, ["uninstall", "--git"]);
        assert.equal(u.code, 0, u.stderr);
        assert.equal(await Deno.readTextFile(file), text, "uninstall restores the bytes");
      });
    }
    await t.step("the user's commands after our line still get git's stdin", async () => {
      await Deno.writeTextFile(file, `cat > '${seen}'\n`);
      assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
      await commitToken(sb, "STDIN_SHARED");
      const head = await gitOk(sb, ["rev-parse", "HEAD"]);
      const old = await remoteRef(sb, "main");
      const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        await Deno.readTextFile(seen),
        `refs/heads/main ${head} refs/heads/main ${old}\n`,
      );
      assert.equal(await remoteRef(sb, "main"), head);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a line an older install appended after exit 0 is unreachable: doctor says so, install moves it up", async () => {
  const sb = await makeGateSandbox();
  try {
    const file = await husky9(sb);
    const command = selfCommand({ execPath: Deno.execPath(), mainPath: MAIN });
    await Deno.writeTextFile(file, `echo checking\nexit 0\n${renderHookLine(command)}\n`);
    const doctor = await runCli(sb, ["doctor"]);
    assert.equal(doctor.code, 1, doctor.stdout);
    assert.match(
      doctor.stdout,
      /FAIL git pre-push hook: installed in ".*\.husky\/pre-push" but may never run: line 1 \("echo checking"\) comes before/,
    );
    const { r } = await pushBlocking(sb, "OLD_LAYOUT");
    assert.equal(r.code, 0, "the fault: the push went through unreviewed");
    assert.equal(await providerCalls(sb), 0);

    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    const skip = pushSkipScript({ execPath: Deno.execPath(), mainPath: MAIN });
    assert.equal(
      await Deno.readTextFile(file),
      `${renderHookLine(command, skip)}\necho checking\nexit 0\n`,
    );
    assert.match(
      (await runCli(sb, ["doctor"])).stdout,
      /ok {3}git pre-push hook: installed and reached/,
    );
    await assertBlocked(sb, "MOVED_UP");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("doctor: husky 9 without its dispatcher does not run .husky/pre-push", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const file = await husky9(sb);
    await Deno.writeTextFile(file, "npm test\n");
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    await Deno.remove(join(sb.repo.root, ".husky", "_", "pre-push"));
    const doctor = await runCli(sb, ["doctor"]);
    assert.match(
      doctor.stdout,
      /FAIL git pre-push hook: .*NOT run: husky's ".*_\/pre-push" is missing/,
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("husky 8 re-runs .husky/pre-push from its source line: our line runs once, after it", async () => {
  const sb = await makeGateSandbox();
  try {
    const husky = join(sb.repo.root, ".husky");
    await Deno.mkdir(join(husky, "_"), { recursive: true });
    // husky 8's husky.sh: on first source, re-run the hook with `sh -e` and exit with its code.
    await Deno.writeTextFile(
      join(husky, "_", "husky.sh"),
      '#!/usr/bin/env sh\nif [ -z "$husky_skip_init" ]; then\n  [ "$HUSKY" = "0" ] && exit 0\n' +
        '  readonly husky_skip_init=1\n  export husky_skip_init\n  sh -e "$0" "$@"\n  exitCode="$?"\n  exit $exitCode\nfi\n',
    );
    const file = join(husky, "pre-push");
    const text =
      '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\necho checked >&2\nexit 0\n';
    await Deno.writeTextFile(file, text, { mode: 0o755 });
    await gitOk(sb, ["config", "core.hooksPath", ".husky"]);
    assert.equal((await runCli(sb, ["install", "--git"])).code, 0);
    const lines = (await Deno.readTextFile(file)).split("\n");
    assert.deepEqual(lines.slice(1, 5).map((l) => l.includes("managed-by: review-gate")), [
      false,
      false,
      true,
      false,
    ], "after the source line (and the blank line under it), before the first command");
    const stderr = await assertBlocked(sb, "HUSKY_8");
    assert.equal(stderr.match(/push blocked/g)?.length, 1, stderr);
    assert.equal((await runCli(sb, ["uninstall", "--git"])).code, 0);
    assert.equal(await Deno.readTextFile(file), text);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a foreign hook that dispatches on $0 keeps its name: our line goes in it, not a rename", async () => {
  const sb = await makeGateSandbox();
  try {
    const hook = join(sb.repo.root, ".git", "hooks", "pre-push");
    const seen = join(sb.dir, "dispatch");
    // husky 4 style: runs the configured hook named like this file, and ends with exit 0.
    const text =
      `#!/bin/sh\n# husky\nhookName=$(basename "$0")\necho "$hookName" > '${seen}.name'\n` +
      `cat > '${seen}.stdin'\nexit 0\n`;
    await Deno.writeTextFile(hook, text, { mode: 0o755 });
    const i = await runCli(sb, ["install", "--git"]);
    assert.equal(i.code, 0, i.stderr);
    assert.match(i.stdout, /finds itself through \$0/);
    assert.deepEqual(
      [...Deno.readDirSync(join(sb.repo.root, ".git", "hooks"))].map((e) => e.name).filter((n) =>
        n.includes("review-gate")
      ),
      [],
      "not renamed",
    );
    await assertBlocked(sb, "DISPATCH");
    const pass = await runGit(sb, ["push", "origin", "main"], {
      env: { ...scenario("valid"), REVIEW_GATE_CACHE: "0" },
    });
    assert.equal(pass.code, 0, pass.stderr);
    assert.equal(await Deno.readTextFile(`${seen}.name`), "pre-push\n");
    assert.match(await Deno.readTextFile(`${seen}.stdin`), /^refs\/heads\/main [0-9a-f]{40} /);
    assert.match(
      (await runCli(sb, ["doctor"])).stdout,
      /ok {3}git pre-push hook: installed and reached/,
    );
    assert.equal((await runCli(sb, ["uninstall", "--git"])).code, 0);
    assert.equal(await Deno.readTextFile(hook), text);
    assert.equal(((await Deno.stat(hook)).mode ?? 0) & 0o777, 0o755);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a husky file that is not a shell script is refused with the reason, nothing written", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const file = await husky9(sb);
    const text = "#!/usr/bin/env node\nconsole.log('hi')\n";
    await Deno.writeTextFile(file, text);
    const r = await runCli(sb, ["install", "--git"]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /"node" script .* not a shell script/);
    assert.match(r.stderr, /hook pre-push "\$@"/, "says what to add by hand");
    assert.equal(await Deno.readTextFile(file), text);
  } finally {
    await sb.cleanup();
  }
});
