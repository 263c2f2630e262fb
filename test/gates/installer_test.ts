/**
 * End to end through the CLI: `install` / `uninstall` (both gates) leave a foreign pre-push hook and
 * foreign Claude settings byte-identical; `--dry-run` writes nothing; `gate disable|enable
 * claude-stop` switches the installed Stop hook off and on; `doctor` finds a hook git does not run
 * and a missing provider.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  blockingScenario,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runCli,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
  writeUserConfig,
} from "./_gates.ts";

/** Every file under `dir` (relative path → bytes as text and mode); `{}` when absent. */
async function treeState(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, prefix: string) => {
    for await (const e of Deno.readDir(d)) {
      const rel = prefix + e.name;
      if (e.isDirectory) await walk(join(d, e.name), rel + "/");
      else {
        const mode = ((await Deno.lstat(join(d, e.name))).mode ?? 0) & 0o7777;
        out[rel] = `${mode.toString(8)} ${await Deno.readTextFile(join(d, e.name))}`;
      }
    }
  };
  await walk(dir, "").catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  return out;
}

const FOREIGN_SETTINGS = `{
  "permissions": { "allow": ["Bash(ls:*)"] },
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "echo user-stop" }] }],
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo pre" }] }]
  }
}
`;

Deno.test("install then uninstall leaves a foreign pre-push hook and Claude settings byte-identical; --dry-run writes nothing", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const hooks = join(root, ".git", "hooks");
  const claude = join(root, ".claude");
  try {
    await Deno.writeTextFile(
      join(hooks, "pre-push"),
      "#!/bin/sh\n# the user's own hook\nexit 0\n",
      { mode: 0o750 },
    );
    await Deno.mkdir(claude);
    await Deno.writeTextFile(join(claude, "settings.local.json"), FOREIGN_SETTINGS);
    await Deno.writeTextFile(join(claude, "settings.json"), '{"model":"x"}');
    const before = { hooks: await treeState(hooks), claude: await treeState(claude) };

    await t.step(
      "--dry-run prints one line per file and writes nothing; --diff the change",
      async () => {
        const r = await runCli(sb, ["install", "--dry-run"]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /dry run: nothing written/);
        // a short summary: each file, what would be done to it and how many lines it adds and removes
        assert.match(r.stdout, /^create .*\/pre-push \(mode 755\): [^\n]*; \+\d+\/-0 lines$/m);
        assert.match(
          r.stdout,
          /^update .*settings\.local\.json \(mode 644\): [^\n]*; \+\d+\/-\d+ lines$/m,
        );
        assert.doesNotMatch(r.stdout, /^ {4}[+-] /m, "no diff lines without --diff");
        assert.match(r.stdout, /add --diff to see each change line by line/);
        assert.ok(r.stdout.trim().split("\n").length < 20, r.stdout);
        assert.deepEqual(
          { hooks: await treeState(hooks), claude: await treeState(claude) },
          before,
        );
        assert.doesNotMatch(r.stdout, /note:/, "nothing written: nothing for a prompt to name");

        const full = await runCli(sb, ["install", "--dry-run", "--diff"]);
        assert.equal(full.code, 0, full.stderr);
        assert.match(full.stdout, /^ {4}\+ .*hook pre-push/m, "--diff shows the change itself");
        assert.match(full.stdout, /settings\.local\.json/);
        // the counts are those of the diff shown
        const added = /^create .*\/pre-push \(mode 755\): [^\n]*; \+(\d+)\/-0 lines$/m.exec(
          r.stdout,
        )?.[1];
        const stub = full.stdout.split(/^create .*\/pre-push .*$/m)[1].split(/^\S/m)[0];
        assert.equal(Number(added), stub.split("\n").filter((l) => /^ {4}\+ /.test(l)).length);
        assert.deepEqual(
          { hooks: await treeState(hooks), claude: await treeState(claude) },
          before,
        );
      },
    );

    await t.step("install adds our entries beside the user's", async () => {
      const r = await runCli(sb, ["install"]);
      assert.equal(r.code, 0, r.stderr);
      // the files written control the turn gates: an agent's next Stop blocks until a prompt names them
      assert.match(
        r.stdout,
        /^note: an agent session's next Stop treats these as changes to its gate; ask for them by name \("\.git\/hooks\/pre-push", "\.claude\/settings\.local\.json" and "\.git\/info\/exclude", with a verb such as "change" or "ack"\) in your next prompt to it so the changes apply$/m,
      );
      // what was written where, one line per file and how to see it, not the files' content
      assert.match(
        r.stdout,
        /^create .*\/pre-push \(mode 755\): .*\n {4}see it: cat '.*\/pre-push'$/m,
      );
      assert.match(
        r.stdout,
        /^update .*settings\.local\.json .*\n {4}see it: cat '.*settings\.local\.json'$/m,
      );
      assert.doesNotMatch(r.stdout, /^ {4}[+-] /m, "no diff lines");
      assert.doesNotMatch(r.stdout, /managed-by|#!\/bin\/sh/);
      assert.ok(r.stdout.split("\n").length < 20, r.stdout);
      const settings = JSON.parse(await Deno.readTextFile(join(claude, "settings.local.json")));
      assert.deepEqual(settings.permissions, { allow: ["Bash(ls:*)"] });
      const stop = JSON.stringify(settings.hooks.Stop);
      assert.match(stop, /echo user-stop/);
      assert.match(stop, /hook claude-stop # managed-by: review-gate/);
      assert.match(JSON.stringify(settings.hooks.UserPromptSubmit), /hook claude-prompt/);
      assert.equal(settings.hooks.PreToolUse.length, 1);
      assert.match(await Deno.readTextFile(join(hooks, "pre-push")), /managed-by: review-gate/);
      assert.equal(await Deno.readTextFile(join(claude, "settings.json")), '{"model":"x"}');
    });

    await t.step("uninstall restores every file byte for byte", async () => {
      const r = await runCli(sb, ["uninstall"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^note: an agent session's next Stop treats these as changes to its gate; ask for them by name \("\.git\/hooks\/pre-push", "\.claude\/settings\.local\.json" and "\.git\/info\/exclude", with a verb such as "change" or "ack"\) in your next prompt/m,
      );
      assert.deepEqual({ hooks: await treeState(hooks), claude: await treeState(claude) }, before);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("gate disable claude-stop between turns makes the Stop allow without a review; mid-turn it does not; gate enable restores it", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const blocking = await blockingScenario(sb);
    const session = { sessionId: "sess-toggle", cwd: root };
    const stop = () =>
      runHook(sb, "claude-stop", stopPayload(session), { env: scenario(blocking) });

    // mid-turn: who ran it cannot be told, so it is the turn's — reviewed and blocked
    await runHook(sb, "claude-prompt", promptPayload(session));
    await Deno.writeTextFile(join(root, "src", "app.ts"), "export const a = 2;\n");
    const midTurn = await runCli(sb, ["gate", "disable", "claude-stop"]);
    assert.equal(midTurn.code, 0, midTurn.stderr);
    assert.match(
      midTurn.stdout,
      /^note: an agent session's next Stop treats this as a change to its gate; ask for it by name \("\.review-gate\.json", with a verb such as "change" or "ack"\) in your next prompt to it so the change applies$/m,
    );
    const blockedMid = await stop();
    assert.equal(stopDecision(blockedMid.stdout)?.decision, "block", blockedMid.stderr);
    assert.match(String(stopDecision(blockedMid.stdout)?.reason), /\.review-gate\.json:1/);
    assert.equal(await providerCalls(sb), 1);

    // the blocked stop answered for nothing: a next prompt that does not name the switch is still
    // blocked on it; one that names it ("disable the gate") lets it apply, and the turn is not
    // reviewed
    const status = await runCli(sb, ["gate", "status"]);
    assert.match(status.stdout, /claude-stop: disabled/);
    assert.match(status.stdout, /pre-push: enabled/);
    await runHook(sb, "claude-prompt", promptPayload(session));
    const stillBlocked = await stop();
    assert.equal(stopDecision(stillBlocked.stdout)?.decision, "block", stillBlocked.stderr);
    assert.match(String(stopDecision(stillBlocked.stdout)?.reason), /\.review-gate\.json:1/);
    const asked = "I had to disable the gate for a while: carry on.";
    await runHook(sb, "claude-prompt", promptPayload({ ...session, prompt: asked }));
    await Deno.writeTextFile(join(root, "src", "app.ts"), "export const a = 3;\n");
    const allowed = await stop();
    assert.deepEqual([allowed.code, allowed.stdout], [0, ""], allowed.stderr);
    assert.equal(await providerCalls(sb), 1);

    const on = await runCli(sb, ["gate", "enable", "claude-stop"]);
    assert.equal(on.code, 0, on.stderr);
    await runHook(sb, "claude-prompt", promptPayload(session));
    await Deno.writeTextFile(join(root, "src", "app.ts"), "export const a = 4;\n");
    const blocked = await stop();
    assert.equal(stopDecision(blocked.stdout)?.decision, "block", blocked.stderr);
    assert.doesNotMatch(String(stopDecision(blocked.stdout)?.reason), /review-gate's config/);
    assert.equal(await providerCalls(sb), 2);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("doctor reports a hook git does not run and a missing provider with install advice", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const installed = await runCli(sb, ["install", "--git"]);
    assert.equal(installed.code, 0, installed.stderr);
    const healthy = await runCli(sb, ["doctor"]);
    assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);
    assert.match(healthy.stdout, /ok {3}git pre-push hook: installed/);
    assert.match(healthy.stdout, /ok {3}provider claude:/);

    await gitOk(sb, ["config", "core.hooksPath", ".githooks"]);
    const bypassed = await runCli(sb, ["doctor"]);
    assert.equal(bypassed.code, 1);
    assert.match(
      bypassed.stdout,
      /FAIL git pre-push hook: installed in ".*\/\.git\/hooks\/pre-push" but NOT run by git/,
    );
    assert.match(bypassed.stdout, /review-gate install --git/);

    const gone = { REVIEW_GATE_CLAUDE_BIN: join(sb.dir, "no-such-claude") };
    // under provider "auto" (the default) a missing claude is passed over, named, for codex's fake
    const passed = await runCli(sb, ["doctor"], { env: gone });
    assert.match(
      passed.stdout,
      /ok {3}provider choice: reviewing with codex \(auto: claude not found \(".*no-such-claude" from REVIEW_GATE_CLAUDE_BIN\)\)/,
    );
    assert.match(passed.stdout, /-- {3}provider claude: not found[^\n]*install with "[^"]+"/);
    // the provider the user named is missing: that fails, with install advice
    await writeUserConfig(sb, { provider: "claude" });
    const missing = await runCli(sb, ["doctor"], { env: gone });
    assert.equal(missing.code, 1);
    assert.match(
      missing.stdout,
      /FAIL provider claude: not found \(".*no-such-claude" from REVIEW_GATE_CLAUDE_BIN\): fix the path, or unset REVIEW_GATE_CLAUDE_BIN and install with "[^"]+"/,
    );
  } finally {
    await sb.cleanup();
  }
});

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("install with invalid Claude settings writes nothing (both plans are made first) and exits 2", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await Deno.mkdir(join(root, ".claude"));
    await Deno.writeTextFile(join(root, ".claude", "settings.local.json"), "{ broken");
    const r = await runCli(sb, ["install"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /settings\.local\.json/);
    assert.equal(await exists(join(root, ".git", "hooks", "pre-push")), false);
    assert.equal(await Deno.readTextFile(join(root, ".claude", "settings.local.json")), "{ broken");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --git with core.hooksPath=/dev/null is a usage error with advice, exit 2", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await gitOk(sb, ["config", "core.hooksPath", "/dev/null"]);
    const r = await runCli(sb, ["install", "--git"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /"\/dev\/null" is not a directory/);
    assert.match(r.stderr, /core\.hooksPath/);
    assert.doesNotMatch(r.stderr, /internal error/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("uninstall removes the directories install created once empty, and only those", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    await gitOk(sb, ["config", "core.hooksPath", "hooks-dir"]);
    const installed = await runCli(sb, ["install"]);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /inside the worktree/);
    assert.ok(await exists(join(root, "hooks-dir", "pre-push")));
    assert.ok(await exists(join(root, ".claude", "settings.local.json")));
    const removed = await runCli(sb, ["uninstall"]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(await exists(join(root, "hooks-dir")), false);
    assert.equal(await exists(join(root, ".claude")), false);

    await Deno.mkdir(join(root, ".claude"));
    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    assert.equal((await runCli(sb, ["uninstall", "--claude"])).code, 0);
    assert.equal(await exists(join(root, ".claude", "settings.local.json")), false);
    assert.ok(await exists(join(root, ".claude")), "a directory that was there before stays");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --claude takes JSONC settings; doctor and gate status flag a Stop timeout below the configured one", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const path = join(root, ".claude", "settings.local.json");
    const jsonc = '{\n  // mine\n  "model": "opus", // trailing\n}\n';
    await Deno.mkdir(join(root, ".claude"));
    await Deno.writeTextFile(path, jsonc);
    const installed = await runCli(sb, ["install", "--claude"]);
    assert.equal(installed.code, 0, installed.stderr);
    const text = await Deno.readTextFile(path);
    assert.ok(text.includes("// mine") && text.includes("// trailing"), text);
    assert.match(text, /"timeout": 300/);
    assert.match((await runCli(sb, ["doctor"])).stdout, /ok {3}claude hooks \(local\): installed/);

    await writeRepoConfig(sb, { gates: { claude_stop: { timeout_seconds: 600 } } });
    const doctor = await runCli(sb, ["doctor"]);
    assert.equal(doctor.code, 1);
    assert.match(
      doctor.stdout,
      /FAIL claude hooks \(local\): the installed Stop hook's timeout is 300 s but gates\.claude_stop\.timeout_seconds is 600 s: .*install --claude --scope local/,
    );
    const status = await runCli(sb, ["gate", "status"]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      /WARNING: claude-stop \(local\): the installed Stop hook's timeout is 300 s/,
    );

    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    assert.match(await Deno.readTextFile(path), /"timeout": 600/);
    assert.match((await runCli(sb, ["doctor"])).stdout, /ok {3}claude hooks \(local\): installed/);
    assert.doesNotMatch((await runCli(sb, ["gate", "status"])).stdout, /WARNING/);

    assert.equal((await runCli(sb, ["uninstall", "--claude"])).code, 0);
    assert.equal(await Deno.readTextFile(path), jsonc, "uninstall restores the bytes");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --codex: doctor and gate status flag a Stop timeout below gates.codex_stop.timeout_seconds, install again fixes it; an unreadable config.toml is named", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const path = join(root, ".codex", "hooks.json");
    const stopTimeout = async () =>
      JSON.parse(await Deno.readTextFile(path)).hooks.Stop[0].hooks[0].timeout;
    assert.equal((await runCli(sb, ["install", "--codex", "--scope", "project"])).code, 0);
    assert.equal(await stopTimeout(), 300);
    assert.doesNotMatch((await runCli(sb, ["doctor"])).stdout, /timeout is/);

    await writeRepoConfig(sb, { gates: { codex_stop: { timeout_seconds: 900 } } });
    const doctor = await runCli(sb, ["doctor"]);
    assert.equal(doctor.code, 1);
    assert.match(
      doctor.stdout,
      /FAIL codex hooks \(project\): the installed Stop hook's timeout is 300 s but gates\.codex_stop\.timeout_seconds is 900 s: Codex kills a longer review .*install --codex --scope project/,
    );
    const status = await runCli(sb, ["gate", "status"]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      /WARNING: codex-stop \(project\): the installed Stop hook's timeout is 300 s/,
    );

    assert.equal((await runCli(sb, ["install", "--codex", "--scope", "project"])).code, 0);
    assert.equal(await stopTimeout(), 900);
    assert.doesNotMatch((await runCli(sb, ["doctor"])).stdout, /timeout is/);
    assert.doesNotMatch((await runCli(sb, ["gate", "status"])).stdout, /WARNING/);

    // a config.toml Codex itself could not read: its trust in the hooks is unknown, said so
    await Deno.mkdir(join(sb.dir, "home", ".codex"), { recursive: true });
    await Deno.writeTextFile(join(sb.dir, "home", ".codex", "config.toml"), "[projects\n");
    assert.match(
      (await runCli(sb, ["doctor"])).stdout,
      /FAIL codex hooks \(project\): .*config\.toml is not valid TOML \(.+\), so Codex's trust in the hooks is unknown/,
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --claude --guard adds the PreToolUse guard, a plain reinstall keeps it, --no-guard removes it; the guard refuses git push --no-verify", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const path = join(root, ".claude", "settings.local.json");
    const preToolUse = async () => JSON.parse(await Deno.readTextFile(path)).hooks.PreToolUse;
    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    assert.equal(await preToolUse(), undefined, "no guard unless asked");
    assert.equal((await runCli(sb, ["install", "--claude", "--guard"])).code, 0);
    const [group] = await preToolUse();
    assert.equal(group.matcher, "Bash");
    assert.match(group.hooks[0].command, /hook claude-guard # managed-by: review-gate$/);
    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    assert.equal((await preToolUse()).length, 1, "a plain reinstall keeps the guard");
    assert.match(
      (await runCli(sb, ["doctor"])).stdout,
      /the guard refuses the agent's gate escapes/,
    );

    const payload = (command: string) =>
      JSON.stringify({
        session_id: "s",
        cwd: root,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command, description: "run" },
        tool_use_id: "t1",
      });
    const refused = await runCli(sb, ["hook", "claude-guard"], {
      stdin: payload("git push --no-verify origin main"),
    });
    assert.equal(refused.code, 0, refused.stderr);
    const answer = JSON.parse(refused.stdout).hookSpecificOutput;
    assert.equal(answer.hookEventName, "PreToolUse");
    assert.equal(answer.permissionDecision, "deny");
    assert.match(answer.permissionDecisionReason, /--no-verify.*Only the user may/);
    const allowed = await runCli(sb, ["hook", "claude-guard"], { stdin: payload("git push -n") });
    assert.deepEqual([allowed.code, allowed.stdout], [0, ""]);

    assert.equal((await runCli(sb, ["install", "--claude", "--no-guard"])).code, 0);
    assert.equal(await preToolUse(), undefined);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --claude keeps the personal settings file out of git (and of every review); uninstall without --scope removes ours from every scope", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const excludePath = join(root, ".git", "info", "exclude");
    const original = await Deno.readTextFile(excludePath).catch(() => null);
    const installed = await runCli(sb, ["install", "--claude"]);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /keep your own settings file out of git/);
    const status = await gitOk(sb, ["status", "--porcelain", "--untracked-files=all"]);
    assert.ok(!status.includes(".claude/"), `git does not list our files: ${status}`);
    const plan = await runCli(sb, ["review", "--plan-only"]);
    assert.ok(!plan.stdout.includes("settings.local.json"), plan.stdout);
    // a second install adds no second set of lines
    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    const exclude = await Deno.readTextFile(join(root, ".git", "info", "exclude"));
    assert.equal(exclude.match(/settings\.local\.json$/gm)?.length, 1, exclude);

    // project scopes of both agents, then a plain uninstall
    for (const args of [["--claude", "--scope", "project"], ["--codex", "--scope", "project"]]) {
      const out = await runCli(sb, ["install", ...args]);
      assert.equal(out.code, 0, out.stderr);
    }
    assert.ok(await exists(join(root, ".claude", "settings.json")));
    assert.ok(await exists(join(root, ".codex", "hooks.json")));
    const removed = await runCli(sb, ["uninstall"]);
    assert.equal(removed.code, 0, removed.stderr);
    for (
      const path of [".claude/settings.local.json", ".claude/settings.json", ".codex/hooks.json"]
    ) {
      const text = await Deno.readTextFile(join(root, path)).catch(() => "");
      assert.ok(!text.includes("review-gate"), `${path} still holds our hooks: ${text}`);
    }
    const doctor = await runCli(sb, ["doctor"]);
    assert.ok(!/hooks \((local|project)\): installed/.test(doctor.stdout), doctor.stdout);
    assert.equal(
      await Deno.readTextFile(excludePath).catch(() => null),
      original,
      "uninstall takes our lines out of info/exclude",
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --scope project into committed hooks files warns that the commands name this machine, keeps the backups out of git; uninstall restores info/exclude", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const excludePath = join(root, ".git", "info", "exclude");
    const original = await Deno.readTextFile(excludePath).catch(() => null);
    await Deno.mkdir(join(root, ".claude"));
    await Deno.mkdir(join(root, ".codex"));
    await Deno.writeTextFile(join(root, ".claude", "settings.json"), FOREIGN_SETTINGS);
    await Deno.writeTextFile(join(root, ".codex", "hooks.json"), '{ "hooks": {} }\n');
    await gitOk(sb, ["add", ".claude", ".codex"]);
    await gitOk(sb, ["commit", "-q", "-m", "shared agent settings"]);
    for (
      const [flag, file] of [["--claude", ".claude/settings.json"], [
        "--codex",
        ".codex/hooks.json",
      ]]
    ) {
      const out = await runCli(sb, ["install", flag, "--scope", "project"]);
      assert.equal(out.code, 0, out.stderr);
      assert.ok(await exists(join(root, `${file}.review-gate.bak`)), "a backup is kept");
      assert.match(
        out.stdout,
        new RegExp(
          `warning: ${
            file.replace(".", "\\.")
          } is shared through git.*name review-gate's paths on this machine`,
        ),
      );
    }
    const status = await gitOk(sb, ["status", "--porcelain", "--untracked-files=all"]);
    assert.deepEqual(
      status.trim().split("\n").map((l) => l.trim()).sort(),
      ["M .claude/settings.json", "M .codex/hooks.json"],
      "only the shared files show as changed: the backups are the user's own",
    );
    const again = await runCli(sb, ["install", "--claude", "--scope", "project"]);
    assert.ok(!again.stdout.includes("warning:"), "nothing changed, nothing to warn about");
    const removed = await runCli(sb, ["uninstall"]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(
      await Deno.readTextFile(excludePath).catch(() => null),
      original,
      "uninstall takes our lines out of info/exclude",
    );
    assert.equal(await gitOk(sb, ["status", "--porcelain", "--untracked-files=all"]), "");

    // the user edits the shared file after install: uninstall keeps the backup, still ignored
    assert.equal((await runCli(sb, ["install", "--claude", "--scope", "project"])).code, 0);
    const settings = join(root, ".claude", "settings.json");
    await Deno.writeTextFile(
      settings,
      (await Deno.readTextFile(settings)).replace('"Bash(ls:*)"', '"Bash(ls:*)", "Bash(pwd)"'),
    );
    assert.equal((await runCli(sb, ["uninstall", "--claude"])).code, 0);
    assert.ok(await exists(join(root, ".claude", "settings.json.review-gate.bak")));
    assert.equal(
      (await gitOk(sb, ["status", "--porcelain", "--untracked-files=all"])).trim(),
      "M .claude/settings.json",
    );
  } finally {
    await sb.cleanup();
  }
});
