import assert from "node:assert/strict";
import { join } from "node:path";
import { BACKUP_SUFFIX, installClaudeHooks, uninstallClaudeHooks } from "./install.ts";
import { claudeGuardItems, claudeGuardLevel, mergeScopes, pathRule } from "./guard_rules.ts";
import type { GuardTargets } from "../guard_paths.ts";

const COMMAND = "'/usr/local/bin/review-gate'";
const TARGETS: GuardTargets = {
  writeDenied: ["/r/.git/review-gate", "/r/.git/hooks", "/h/.local/state/review-gate"],
  readDenied: ["/h/.local/state/review-gate"],
};

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-guard-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const USER = `{
  // mine
  "permissions": {"deny": ["Read(./.env)"], "allow": ["Bash(ls)"]},
  "sandbox": {"enabled": false, "filesystem": {"denyRead": ["/h/.local/state/review-gate"]}}
}`;

Deno.test("install --guard writes the sandbox and permission rules; uninstall gives the user's bytes back", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude", "settings.local.json");
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(path, USER);
    const options = { projectDir: dir, command: COMMAND, guard: true, guardTargets: TARGETS };
    await installClaudeHooks(options);
    const text = await Deno.readTextFile(path);
    assert.match(text, /\/\/ mine/);
    const value = JSON.parse(text.replace(/\/\/ mine/, ""));
    assert.deepEqual(value.permissions.deny, [
      "Read(./.env)",
      "Edit(//r/.git/review-gate/**)",
      "Edit(//r/.git/hooks/**)",
      "Edit(//h/.local/state/review-gate/**)",
      "Read(//h/.local/state/review-gate/**)",
    ]);
    assert.equal(value.sandbox.enabled, true);
    assert.equal(value.sandbox.allowUnsandboxedCommands, false);
    assert.deepEqual(value.sandbox.filesystem.denyRead, ["/h/.local/state/review-gate"]);
    assert.deepEqual(value.sandbox.filesystem.denyWrite, TARGETS.writeDenied);
    assert.equal(value.hooks.PreToolUse.length, 1);
    const again = await installClaudeHooks(options);
    assert.equal(again.actions.length, 0, "a second install changes nothing");
    await uninstallClaudeHooks(options);
    assert.equal(await Deno.readTextFile(path), USER);
    assert.equal(await Deno.lstat(path + BACKUP_SUFFIX).then(() => true, () => false), false);
  });
});

Deno.test("uninstall after the user edited keeps the user's rules and restores their switch", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude", "settings.local.json");
    await Deno.mkdir(join(dir, ".claude"));
    await Deno.writeTextFile(path, USER);
    const options = { projectDir: dir, command: COMMAND, guard: true, guardTargets: TARGETS };
    await installClaudeHooks(options);
    const edited = (await Deno.readTextFile(path)).replace(
      `"Read(./.env)"`,
      `"Read(./.env)", "Read(./x)"`,
    );
    await Deno.writeTextFile(path, edited);
    await uninstallClaudeHooks(options);
    const value = JSON.parse((await Deno.readTextFile(path)).replace(/\/\/ mine/, ""));
    assert.deepEqual(value.permissions.deny, ["Read(./.env)", "Read(./x)"]);
    assert.deepEqual(value.sandbox, {
      enabled: false,
      filesystem: { denyRead: ["/h/.local/state/review-gate"] },
    });
    assert.equal(value.hooks, undefined);
  });
});

Deno.test("install --no-guard takes the rules out again; a file install created is removed by uninstall", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude", "settings.local.json");
    const options = { projectDir: dir, command: COMMAND, guardTargets: TARGETS };
    await installClaudeHooks({ ...options, guard: true });
    await installClaudeHooks({ ...options, guard: false });
    const value = JSON.parse(await Deno.readTextFile(path));
    assert.equal(value.sandbox, undefined);
    assert.equal(value.permissions, undefined);
    assert.equal(value.hooks.PreToolUse, undefined);
    await installClaudeHooks({ ...options });
    assert.equal(JSON.parse(await Deno.readTextFile(path)).sandbox, undefined, "kept off");
    await installClaudeHooks({ ...options, guard: true });
    await installClaudeHooks({ ...options });
    assert.equal(JSON.parse(await Deno.readTextFile(path)).sandbox.enabled, true, "kept on");
    await uninstallClaudeHooks(options);
    assert.equal(await Deno.lstat(path).then(() => true, () => false), false);
  });
});

Deno.test("claudeGuardLevel(): sandbox, tool rules only, none", () => {
  const items = claudeGuardItems(TARGETS);
  const full = {
    permissions: { deny: items.flatMap((i) => i.path[0] === "permissions" ? [i.value] : []) },
    sandbox: {
      enabled: true,
      allowUnsandboxedCommands: false,
      filesystem: { denyWrite: TARGETS.writeDenied, denyRead: TARGETS.readDenied },
    },
  };
  assert.deepEqual(claudeGuardLevel(mergeScopes([full]), items, null), { level: "sandbox" });
  assert.equal(claudeGuardLevel(mergeScopes([full]), items, "no bwrap").level, "tool-rules");
  const off = { sandbox: { enabled: false } };
  const level = claudeGuardLevel(mergeScopes([off, {}, full]), items, null);
  assert.equal(level.level, "tool-rules", "a higher scope switching the sandbox off wins");
  assert.match(level.why!, /sandbox.enabled is not true/);
  const escape = { sandbox: { allowUnsandboxedCommands: true } };
  assert.equal(claudeGuardLevel(mergeScopes([escape, full]), items, null).level, "tool-rules");
  assert.equal(claudeGuardLevel(mergeScopes([{}]), items, null).level, "none");
  assert.equal(pathRule("Read", "/a/b/"), "Read(//a/b/**)");
});
