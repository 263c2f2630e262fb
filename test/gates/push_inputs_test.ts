/**
 * End to end: what the installed pre-push hook's replay (`hooks/pre-push-fast.sh`) rests on. A push
 * stamp is replayed only while every input the hook hashed is what it was: a missing or failing
 * `awk` (the environment is then unknown), a system git config, a file a git config includes, an
 * edit of an existing `.review-gate.json` or acknowledgements file, an acknowledgement's expiry and a
 * guarded file that is not a regular file each send the next push to review-gate. Each case also
 * shows the replay itself: the same push again, nothing changed, starts no review-gate.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { commitToken, gitOk, writeRepoConfig } from "./_gates.ts";
import { CACHED, type PushSandbox, pushSandbox, resetFeature } from "./_push.ts";

/** A sandbox on `feature` (one commit) whose reviewed push left a stamp for the next one. */
async function stamped(env: Record<string, string> = {}): Promise<PushSandbox> {
  const ps = await pushSandbox();
  await gitOk(ps.sb, ["checkout", "-q", "-b", "feature"]);
  await commitToken(ps.sb, "FEATURE");
  for (let i = 0; i < 2; i++) {
    await resetFeature(ps.sb);
    const r = await ps.push(["feature"], env);
    assert.equal(r.code, 0, r.stderr);
  }
  return ps;
}

/**
 * Push `feature` again (the remote's branch put back at main's tip first).
 *
 * @returns how many times review-gate started for it (0: the hook replayed), and the result
 */
async function repush(ps: PushSandbox, env: Record<string, string> = {}) {
  await resetFeature(ps.sb);
  const before = await ps.started();
  const result = await ps.push(["feature"], env);
  return { starts: (await ps.started()) - before, result };
}

/** A bin directory of links to the tools a push needs, `awk` left out unless `awk` is given. */
async function toolDir(dir: string, awk?: string): Promise<string> {
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  for (const tool of ["sh", "git", "date", "mv", "rm", "cat", "dirname", "mkdir", "env"]) {
    const which = await new Deno.Command("sh", {
      args: ["-c", `command -v ${tool}`],
      stdout: "piped",
    }).output();
    const path = new TextDecoder().decode(which.stdout).trim();
    if (which.success && path.startsWith("/")) await Deno.symlink(path, join(bin, tool));
  }
  if (awk !== undefined) await Deno.writeTextFile(join(bin, "awk"), awk, { mode: 0o755 });
  return bin;
}

for (
  const [name, awk] of [
    ["missing from PATH", undefined],
    ["failing", "#!/bin/sh\nexit 2\n"],
    ["printing nothing", "#!/bin/sh\nexit 0\n"],
    ["stopping short", "#!/bin/sh\necho 4:HOME=1:/\n"],
  ] as const
) {
  Deno.test(`pre-push hook: with awk ${name}, every push reaches review-gate and none is replayed`, async () => {
    const ps = await stamped();
    try {
      const PATH = await toolDir(ps.sb.dir, awk);
      const probe = await new Deno.Command("sh", {
        args: ["-c", "command -v awk && awk 'BEGIN { print \"end\" }'"],
        env: { PATH },
        clearEnv: true,
        stdout: "piped",
      }).output();
      assert.doesNotMatch(new TextDecoder().decode(probe.stdout), /end/, "awk does not work");
      for (let i = 0; i < 2; i++) {
        const { starts, result } = await repush(ps, { PATH });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(starts, 1, `push ${i + 1} without awk was answered by the hook`);
      }
      const { starts, result } = await repush(ps, { PATH, REVIEW_GATE_FAIL_ON: "low" });
      assert.equal(starts, 1);
      assert.equal(result.code, 1, "a REVIEW_GATE_* setting the hook could not see still counts");
      assert.match(result.stderr, /Constant name is vague/);
    } finally {
      await ps.sb.cleanup();
    }
  });
}

Deno.test("pre-push hook: a system git config and a file a git config includes are hashed with the push", async (t) => {
  const dir = await Deno.makeTempDir();
  const system = join(dir, "system.gitconfig");
  const global = join(dir, "global.gitconfig");
  const included = join(dir, "included.gitconfig");
  await Deno.writeTextFile(system, "[user]\n\tname = System\n");
  await Deno.writeTextFile(global, `[include]\n\tpath = ${included}\n`);
  await Deno.writeTextFile(included, "[user]\n\temail = a@example.com\n");
  const env = { GIT_CONFIG_NOSYSTEM: "0", GIT_CONFIG_SYSTEM: system, GIT_CONFIG_GLOBAL: global };
  const ps = await stamped(env);
  try {
    assert.equal((await repush(ps, env)).starts, 0, "the stamp replays while nothing changed");
    for (
      const [what, file, text] of [
        ["the system config", system, "[user]\n\tname = Someone else\n"],
        ["an included file", included, "[user]\n\temail = b@example.com\n"],
        ["a file the included file includes", included, `[include]\n\tpath = ${system}.more\n`],
        ["the file included in turn", `${system}.more`, "[core]\n\tautocrlf = false\n"],
      ] as const
    ) {
      await t.step(what, async () => {
        await Deno.writeTextFile(file, text);
        const { starts, result } = await repush(ps, env);
        assert.equal(starts, 1, `an edit of ${what} was replayed`);
        assert.match(result.stderr, CACHED);
        assert.equal((await repush(ps, env)).starts, 0, "the new stamp replays");
      });
    }
  } finally {
    await ps.sb.cleanup();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pre-push hook: an edit of an existing .review-gate.json or acknowledgements file is never replayed", async () => {
  const ps = await stamped();
  try {
    await writeRepoConfig(ps.sb, { fail_on: "high" });
    const acks = join(ps.root, ".review-gate", "acks.json");
    await Deno.mkdir(join(ps.root, ".review-gate"));
    await Deno.writeTextFile(acks, JSON.stringify({ version: 1, acks: [] }));
    assert.equal((await repush(ps)).starts, 1);
    assert.equal((await repush(ps)).starts, 0, "both files present and unchanged: replayed");
    // same size, other bytes: the contents count, not the name or the length
    await Deno.writeTextFile(acks, JSON.stringify({ acks: [], version: 1 }));
    assert.equal((await repush(ps)).starts, 1, "an edited acknowledgements file was replayed");
    assert.equal((await repush(ps)).starts, 0);
    await writeRepoConfig(ps.sb, { fail_on: "low" });
    const { starts, result } = await repush(ps);
    assert.equal(starts, 1, "an edited .review-gate.json was replayed");
    assert.equal(result.code, 1, "the edited config makes the cached finding block");
  } finally {
    await ps.sb.cleanup();
  }
});

Deno.test("pre-push hook: the replay stops at the end of an acknowledgement's expiry day", async () => {
  const ps = await pushSandbox();
  try {
    const expires = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const until = Date.parse(`${expires}T00:00:00Z`) / 1000 + 86_400;
    await Deno.mkdir(join(ps.root, ".review-gate"));
    await Deno.writeTextFile(
      join(ps.root, ".review-gate", "acks.json"),
      JSON.stringify({
        version: 1,
        acks: [{
          fingerprint: "ab".repeat(32),
          file: "src/app.ts",
          title: "Some other finding",
          reason: "accepted for a while",
          created: new Date().toISOString(),
          expires,
        }],
      }),
    );
    await gitOk(ps.sb, ["add", ".review-gate/acks.json"]);
    await gitOk(ps.sb, ["commit", "-q", "-m", "acknowledge"]);
    await gitOk(ps.sb, ["push", "-q", "--no-verify", "origin", "main"]);
    await gitOk(ps.sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(ps.sb, "FEATURE");
    for (let i = 0; i < 2; i++) assert.equal((await repush(ps)).starts, 1);
    // a `date` that says what time it is, the rest of the tools as they are
    const clock = join(ps.sb.dir, "clock");
    await Deno.mkdir(clock);
    await Deno.writeTextFile(join(clock, "date"), '#!/bin/sh\necho "$FAKE_NOW"\n', { mode: 0o755 });
    const at = (now: number) => ({ PATH: `${clock}:${ps.sb.env.PATH}`, FAKE_NOW: String(now) });
    assert.equal((await repush(ps)).starts, 0, "replayed before the expiry");
    assert.equal(
      (await repush(ps, at(until - 1))).starts,
      0,
      "replayed in the expiry day's last second",
    );
    assert.equal(
      (await repush(ps, at(until))).starts,
      1,
      "replayed once the acknowledgement expired",
    );
    assert.equal((await repush(ps, at(until + 86_400))).starts, 1);
  } finally {
    await ps.sb.cleanup();
  }
});

Deno.test("pre-push hook: a guarded file that is not a regular file sends every push to review-gate", async (t) => {
  const ps = await stamped();
  try {
    const attributes = join(ps.sb.env.XDG_CONFIG_HOME, "git", "attributes");
    await Deno.mkdir(join(ps.sb.env.XDG_CONFIG_HOME, "git"), { recursive: true });
    const grafts = join(ps.root, ".git", "info", "grafts");
    await Deno.mkdir(join(ps.root, ".git", "info"), { recursive: true });
    const cases: [string, () => Promise<void>, string][] = [
      [
        "a dangling symlink",
        () => Deno.symlink(join(ps.sb.dir, "nowhere"), attributes),
        attributes,
      ],
      ["a directory", () => Deno.mkdir(grafts), grafts],
    ];
    for (const [what, make, path] of cases) {
      await t.step(what, async () => {
        assert.equal((await repush(ps)).starts, 0, "replayed before");
        await make();
        for (let i = 0; i < 2; i++) {
          const { starts, result } = await repush(ps);
          assert.equal(result.code, 0, result.stderr);
          assert.equal(starts, 1, `push ${i + 1} with ${what} in place was replayed`);
        }
        await Deno.remove(path);
        assert.equal((await repush(ps)).starts, 0, "absent again: the stamp of before holds");
      });
    }
  } finally {
    await ps.sb.cleanup();
  }
});
