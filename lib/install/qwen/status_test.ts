import assert from "node:assert/strict";
import { join } from "../../base/path.ts";
import { withSettingsDirs } from "../test_settings_dirs.ts";
import { installQwenHooks, uninstallQwenHooks } from "./install.ts";
import { qwenFolderTrusted, qwenHookStatuses, qwenTimeoutProblem } from "./status.ts";

const COMMAND = "/bin/sh";

/** Fresh folders (lib/install/test_settings_dirs.ts). */
function withDirs(
  fn: (root: string, env: Record<string, string> & { HOME: string }) => Promise<void>,
) {
  return withSettingsDirs("QWEN_CODE_SYSTEM_SETTINGS_PATH", fn);
}

Deno.test("qwen install: ours after the user's hooks, timeout in ms; uninstall gives the bytes back", async () => {
  await withDirs(async (root, env) => {
    const path = join(env.HOME, ".qwen", "settings.json");
    await Deno.mkdir(join(env.HOME, ".qwen"), { recursive: true });
    const mine =
      '{\n  // mine\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}\n}\n';
    await Deno.writeTextFile(path, mine);
    const options = {
      scope: "user" as const,
      root,
      env,
      command: COMMAND,
      stopTimeoutSeconds: 120,
    };
    await installQwenHooks(options);
    const text = await Deno.readTextFile(path);
    assert.match(text, /\/\/ mine/);
    const { parse } = await import("jsonc-parser");
    const stop = parse(text).hooks.Stop;
    assert.equal(stop[0].hooks[0].command, "true");
    assert.equal(stop[1].hooks[0].timeout, 120_000);
    assert.match(stop[1].hooks[0].command, /hook qwen-stop # managed-by: review-gate$/);
    assert.equal((await installQwenHooks(options)).actions.length, 0, "already installed");
    await uninstallQwenHooks(options);
    assert.equal(await Deno.readTextFile(path), mine);
  });
});

Deno.test("qwen doctor: user hooks run; disableAllHooks, an untrusted folder and a short timeout are named", async () => {
  await withDirs(async (root, env) => {
    await installQwenHooks({ scope: "user", root, env, command: COMMAND });
    await installQwenHooks({ scope: "project", root, env, command: COMMAND });
    let [user, project] = await qwenHookStatuses({ root, env });
    assert.deepEqual([user.scope, user.runs, project.scope, project.runs], [
      "user",
      true,
      "project",
      true,
    ]);
    assert.match(user.detail, /"qwen -p"/);
    assert.equal(user.stopTimeout, 300);
    assert.match(String(qwenTimeoutProblem(user, 600)), /timeout is 300 s but .* 600 s/);
    assert.equal(qwenTimeoutProblem(user, 300), null);

    // folder trust on (system settings): the project's file is read only in a trusted folder
    await Deno.writeTextFile(
      env.QWEN_CODE_SYSTEM_SETTINGS_PATH,
      '{"security": {"folderTrust": {"enabled": true}}}',
    );
    [user, project] = await qwenHookStatuses({ root, env });
    assert.equal(user.runs, true, "user hooks load whatever the folder trust");
    assert.equal(project.runs, false);
    assert.match(
      project.detail,
      /Qwen Code will NOT run it: .* is not trusted in .*trustedFolders\.json/,
    );
    await Deno.writeTextFile(
      join(env.HOME, ".qwen", "trustedFolders.json"),
      JSON.stringify({ [root]: "TRUST_FOLDER" }),
    );
    [, project] = await qwenHookStatuses({ root, env });
    assert.equal(project.runs, true, project.detail);

    await Deno.writeTextFile(env.QWEN_CODE_SYSTEM_SETTINGS_PATH, '{"disableAllHooks": true}');
    [user] = await qwenHookStatuses({ root, env });
    assert.match(user.detail, /NOT run it: disableAllHooks is true in the system settings/);
  });
});

Deno.test("qwenFolderTrusted(): TRUST_FOLDER covers the folder and below, TRUST_PARENT its parent", () => {
  assert.equal(qwenFolderTrusted({ "/w": "TRUST_FOLDER" }, "/w/repo"), true);
  assert.equal(qwenFolderTrusted({ "/w/other": "TRUST_PARENT" }, "/w/repo"), true);
  assert.equal(qwenFolderTrusted({ "/w/repo": "DO_NOT_TRUST" }, "/w/repo"), false);
  assert.equal(qwenFolderTrusted({ "/w/re": "TRUST_FOLDER" }, "/w/repo"), false);
  assert.equal(qwenFolderTrusted(null, "/w/repo"), false);
});
