import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../../base/errors.ts";
import {
  BACKUP_SUFFIX,
  claudeSettingsPath,
  installClaudeHooks,
  uninstallClaudeHooks,
} from "./install.ts";
import { buildClaudeEntries } from "./settings.ts";
import sample from "../../../hooks/claude_settings_entry.json" with { type: "json" };

const COMMAND = "'/usr/local/bin/review-gate'";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-claude-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

const FOREIGN = `{
    "permissions": {"allow": ["Bash(ls)"]},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "check"}]}]
    }
}`; // 4-space, inline objects, no final newline: must come back byte-identical

Deno.test("buildClaudeEntries() matches the documented shape in hooks/claude_settings_entry.json", () => {
  assert.deepEqual({ hooks: buildClaudeEntries(COMMAND) }, {
    hooks: { UserPromptSubmit: sample.hooks.UserPromptSubmit[0], Stop: sample.hooks.Stop[0] },
  });
});

Deno.test("installClaudeHooks() creates settings.local.json and uninstall removes it again", async () => {
  await withDir(async (dir) => {
    const report = await installClaudeHooks({
      projectDir: dir,
      command: COMMAND,
      stopTimeoutSeconds: 120,
    });
    const path = join(dir, ".claude/settings.local.json");
    assert.equal(report.path, path);
    const written = await Deno.readTextFile(path);
    const parsed = JSON.parse(written);
    assert.equal(parsed.hooks.Stop[0].hooks[0].timeout, 120);
    assert.equal(
      parsed.hooks.Stop[0].hooks[0].command,
      `${COMMAND} hook claude-stop # managed-by: review-gate`,
    );
    assert.equal(
      parsed.hooks.UserPromptSubmit[0].hooks[0].command,
      `${COMMAND} hook claude-prompt # managed-by: review-gate`,
    );
    assert.equal(written, JSON.stringify(parsed, null, 2) + "\n");
    assert.deepEqual(
      (await installClaudeHooks({ projectDir: dir, command: COMMAND, stopTimeoutSeconds: 120 }))
        .actions,
      [],
    );
    await uninstallClaudeHooks({ projectDir: dir });
    assert.equal(await exists(path), false);
  });
});

Deno.test("installClaudeHooks() keeps foreign keys and entries; uninstall restores the bytes", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude/settings.json");
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(path, FOREIGN);
    await Deno.chmod(path, 0o600);
    await installClaudeHooks({ scope: "project", projectDir: dir, command: COMMAND });
    const merged = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(merged.permissions, { allow: ["Bash(ls)"] });
    assert.equal(merged.hooks.Stop.length, 2);
    assert.equal(merged.hooks.Stop[0].hooks[0].command, "echo mine");
    assert.deepEqual(merged.hooks.PreToolUse, JSON.parse(FOREIGN).hooks.PreToolUse);
    assert.equal(await Deno.readTextFile(path + BACKUP_SUFFIX), FOREIGN);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    // a second install with a new command replaces ours rather than adding
    await installClaudeHooks({ scope: "project", projectDir: dir, command: "'/new/rg'" });
    const again = JSON.parse(await Deno.readTextFile(path));
    assert.equal(again.hooks.Stop.length, 2);
    assert.match(again.hooks.Stop[1].hooks[0].command, /^'\/new\/rg' hook claude-stop/);
    assert.equal(
      await Deno.readTextFile(path + BACKUP_SUFFIX),
      FOREIGN,
      "backup taken on first change only",
    );
    await uninstallClaudeHooks({ scope: "project", projectDir: dir });
    assert.equal(await Deno.readTextFile(path), FOREIGN);
    assert.equal(await exists(path + BACKUP_SUFFIX), false);
  });
});

Deno.test("uninstallClaudeHooks() keeps edits made after install", async () => {
  await withDir(async (dir) => {
    await installClaudeHooks({ projectDir: dir, command: COMMAND });
    const path = join(dir, ".claude/settings.local.json");
    const edited = JSON.parse(await Deno.readTextFile(path));
    edited.model = "opus";
    await Deno.writeTextFile(path, JSON.stringify(edited));
    await uninstallClaudeHooks({ projectDir: dir });
    // Edited in place: the user's bytes (no final newline) stay as they are.
    assert.equal(await Deno.readTextFile(path), `{\n  "model": "opus"\n}`);
  });
});

Deno.test("installClaudeHooks() refuses invalid settings and leaves them untouched", async (t) => {
  for (
    const [name, text, message] of [
      [
        "not JSON",
        '{ "hooks": ',
        /not valid JSON \(line 1, column 12: expected a value, found the end of the file\)/,
      ],
      ["array", "[]", /not a JSON object/],
      ["hooks.Stop not an array", `{"hooks": {"Stop": {}}}`, /"hooks\.Stop" is not an array/],
    ] as const
  ) {
    await t.step(name, async () => {
      await withDir(async (dir) => {
        const path = join(dir, ".claude/settings.local.json");
        await Deno.mkdir(join(dir, ".claude"));
        await Deno.writeTextFile(path, text);
        await assert.rejects(
          installClaudeHooks({ projectDir: dir, command: COMMAND }),
          (e: Error) => {
            assert.ok(e instanceof ConfigError);
            assert.ok(e.message.includes(path), "names the file");
            assert.match(e.message, message);
            return true;
          },
        );
        assert.equal(await Deno.readTextFile(path), text);
        assert.deepEqual([...Deno.readDirSync(join(dir, ".claude"))].map((e) => e.name), [
          "settings.local.json",
        ]);
      });
    });
  }
});

Deno.test("installClaudeHooks() with dryRun shows a diff and writes nothing", async () => {
  await withDir(async (dir) => {
    const report = await installClaudeHooks({ projectDir: dir, command: COMMAND, dryRun: true });
    assert.match(report.text, /create .*settings\.local\.json/);
    assert.match(
      report.text,
      /\+ {13}"command": "'\/usr\/local\/bin\/review-gate' hook claude-stop # managed-by: review-gate"/,
    );
    assert.equal(await exists(join(dir, ".claude")), false);
  });
});

Deno.test("claudeSettingsPath() maps scopes, user scope from the injected HOME", () => {
  assert.equal(claudeSettingsPath("local", { projectDir: "/p" }), "/p/.claude/settings.local.json");
  assert.equal(claudeSettingsPath("project", { projectDir: "/p" }), "/p/.claude/settings.json");
  assert.equal(
    claudeSettingsPath("user", { projectDir: "/p", home: "/h" }),
    "/h/.claude/settings.json",
  );
  assert.throws(() => claudeSettingsPath("user", { projectDir: "/p" }), ConfigError);
});

Deno.test("installClaudeHooks() edits a symlinked settings file at its target; uninstall restores it with the link intact", async () => {
  await withDir(async (dir) => {
    const target = join(dir, "dotfiles/settings.json");
    await Deno.mkdir(join(dir, "dotfiles"));
    await Deno.writeTextFile(target, FOREIGN);
    await Deno.chmod(target, 0o600);
    const home = join(dir, "home");
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    const link = join(home, ".claude/settings.json");
    await Deno.symlink(target, link);
    const options = { scope: "user" as const, home, projectDir: dir, command: COMMAND };
    const modeOf = async (p: string) => ((await Deno.lstat(p)).mode ?? 0) & 0o7777;

    await installClaudeHooks(options);
    assert.equal(await Deno.readLink(link), target);
    assert.match(await Deno.readTextFile(target), /managed-by: review-gate/);
    assert.equal(await modeOf(target), 0o600);
    const backup = link + BACKUP_SUFFIX;
    assert.equal((await Deno.lstat(backup)).isFile, true);
    assert.equal(await modeOf(backup), 0o600);
    assert.equal(await Deno.readTextFile(backup), FOREIGN);

    await uninstallClaudeHooks(options);
    assert.equal(await Deno.readLink(link), target);
    assert.equal(await Deno.readTextFile(target), FOREIGN);
    assert.equal(await modeOf(target), 0o600);
    assert.equal(await exists(backup), false);
    const leftovers = [];
    for await (const e of Deno.readDir(join(dir, "dotfiles"))) leftovers.push(e.name);
    assert.deepEqual(leftovers, ["settings.json"]);
  });
});

const JSONC = `// Claude Code settings, with comments (Claude Code reads JSONC)
{
  /* who may run what */
  "permissions": { "allow": ["Bash(ls)"], },
  "hooks": {
    // my own Stop hook
    "Stop": [
      { "hooks": [{ "type": "command", "command": "echo mine" }] }, // keep me
    ],
  },
}
`;

Deno.test("installClaudeHooks() takes a JSONC settings file and keeps its comments", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude/settings.local.json");
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(path, JSONC);
    await installClaudeHooks({ projectDir: dir, command: COMMAND });
    const text = await Deno.readTextFile(path);
    for (
      const comment of [
        "// Claude Code settings",
        "/* who may run what */",
        "// my own Stop hook",
        "// keep me",
      ]
    ) {
      assert.ok(text.includes(comment), `${comment} kept:\n${text}`);
    }
    const { parse } = await import("jsonc-parser");
    const settings = parse(text, [], { allowTrailingComma: true });
    assert.deepEqual(settings.permissions, { allow: ["Bash(ls)"] });
    assert.equal(settings.hooks.Stop.length, 2);
    assert.equal(
      settings.hooks.Stop[0].hooks[0].command,
      "echo mine",
      "ours goes after the user's",
    );
    assert.match(settings.hooks.Stop[1].hooks[0].command, /hook claude-stop # managed-by/);
    assert.match(settings.hooks.UserPromptSubmit[0].hooks[0].command, /hook claude-prompt/);
    assert.deepEqual((await installClaudeHooks({ projectDir: dir, command: COMMAND })).actions, []);

    await uninstallClaudeHooks({ projectDir: dir });
    assert.equal(await Deno.readTextFile(path), JSONC, "byte-identical after uninstall");
    assert.equal(await exists(path + BACKUP_SUFFIX), false);
  });
});

Deno.test("uninstallClaudeHooks() keeps comments the user added after install", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude/settings.local.json");
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(path, JSONC);
    await installClaudeHooks({ projectDir: dir, command: COMMAND });
    const edited = (await Deno.readTextFile(path)).replace(
      '"permissions"',
      '// added later\n  "model": "opus",\n  "permissions"',
    );
    await Deno.writeTextFile(path, edited);
    await uninstallClaudeHooks({ projectDir: dir });
    const text = await Deno.readTextFile(path);
    assert.ok(text.includes("// added later") && text.includes("// keep me"), text);
    assert.doesNotMatch(text, /managed-by: review-gate/);
    assert.doesNotMatch(text, /UserPromptSubmit/, "an event left empty by uninstall is removed");
  });
});

Deno.test("installClaudeHooks() names the line and column of a syntax error", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude/settings.local.json");
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(path, '{\n  "a": 1\n  "b": 2\n}\n');
    await assert.rejects(
      installClaudeHooks({ projectDir: dir, command: COMMAND }),
      (e: Error) => e instanceof ConfigError && /line 3, column 3/.test(e.message),
    );
  });
});
