import assert from "node:assert/strict";
import { join } from "../../base/path.ts";
import { withSettingsDirs } from "../test_settings_dirs.ts";
import { installGeminiHooks, uninstallGeminiHooks } from "./install.ts";
import { geminiFolderTrust, geminiHookStatuses, geminiTimeoutProblem } from "./status.ts";

const COMMAND = "/bin/sh";

/** Fresh folders (lib/install/test_settings_dirs.ts). */
function withDirs(
  fn: (root: string, env: Record<string, string> & { HOME: string }) => Promise<void>,
) {
  return withSettingsDirs("GEMINI_CLI_SYSTEM_SETTINGS_PATH", fn);
}

/** Trust `folder` in the user's trustedFolders.json. */
async function trust(env: Record<string, string>, folder: string, level = "TRUST_FOLDER") {
  await Deno.mkdir(join(env.HOME, ".gemini"), { recursive: true });
  await Deno.writeTextFile(
    join(env.HOME, ".gemini", "trustedFolders.json"),
    JSON.stringify({ [folder]: level }),
  );
}

Deno.test("gemini install: ours after the user's hooks, timeout in ms, AfterTool only with work; uninstall gives the bytes back", async () => {
  await withDirs(async (root, env) => {
    const path = join(env.HOME, ".gemini", "settings.json");
    await Deno.mkdir(join(env.HOME, ".gemini"), { recursive: true });
    const mine = '{\n  // mine\n  "security": {"auth": {"selectedType": "gemini-api-key"}},\n' +
      '  "hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}\n}\n';
    await Deno.writeTextFile(path, mine);
    const options = {
      scope: "user" as const,
      root,
      env,
      command: COMMAND,
      stopTimeoutSeconds: 120,
    };
    const report = await installGeminiHooks(options);
    assert.match(report.text, /only in a trusted folder/);
    const text = await Deno.readTextFile(path);
    assert.match(text, /\/\/ mine/);
    const { parse } = await import("jsonc-parser");
    const hooks = parse(text).hooks;
    assert.equal(hooks.AfterAgent[0].hooks[0].command, "true");
    assert.equal(hooks.AfterAgent[1].hooks[0].timeout, 120_000);
    assert.equal(hooks.AfterAgent[1].hooks[0].name, "review-gate-stop");
    assert.match(
      hooks.AfterAgent[1].hooks[0].command,
      /hook gemini-stop # managed-by: review-gate$/,
    );
    assert.match(hooks.BeforeAgent[0].hooks[0].command, /hook gemini-prompt # managed-by/);
    assert.equal(hooks.AfterTool, undefined, "no tool hook unless review_while_working");
    assert.equal((await installGeminiHooks(options)).actions.length, 0, "already installed");
    await installGeminiHooks({ ...options, work: true });
    const work = parse(await Deno.readTextFile(path)).hooks.AfterTool[0].hooks[0];
    assert.match(work.command, /hook gemini-work # managed-by/);
    assert.equal(work.timeout, 10_000);
    await uninstallGeminiHooks(options);
    assert.equal(await Deno.readTextFile(path), mine, "byte for byte");
    assert.equal((await uninstallGeminiHooks(options)).actions.length, 0);
  });
});

Deno.test("gemini install into a missing project file creates it; uninstall removes it", async () => {
  await withDirs(async (root, env) => {
    const options = { scope: "project" as const, root, env, command: COMMAND };
    await installGeminiHooks(options);
    const path = join(root, ".gemini", "settings.json");
    assert.match(await Deno.readTextFile(path), /hook gemini-stop/);
    await uninstallGeminiHooks(options);
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
  });
});

Deno.test("gemini install refuses a settings file it cannot edit and leaves it untouched", async () => {
  await withDirs(async (root, env) => {
    const path = join(env.HOME, ".gemini", "settings.json");
    await Deno.mkdir(join(env.HOME, ".gemini"), { recursive: true });
    for (const bad of ['{"hooks": []}', '{"hooks": {"AfterAgent": {}}}', "{ nope"]) {
      await Deno.writeTextFile(path, bad);
      await assert.rejects(
        () => installGeminiHooks({ scope: "user", root, env, command: COMMAND }),
        /Gemini CLI settings|settings\.json/,
      );
      assert.equal(await Deno.readTextFile(path), bad);
    }
  });
});

Deno.test("gemini doctor: no hook runs in an untrusted folder; trust, hooksConfig and a short timeout are named", async () => {
  await withDirs(async (root, env) => {
    await installGeminiHooks({ scope: "user", root, env, command: COMMAND });
    await installGeminiHooks({ scope: "project", root, env, command: COMMAND });
    // folder trust is on by default and nothing trusts the folder: no hook runs, the user's too
    let [user, project] = await geminiHookStatuses({ root, env });
    assert.deepEqual([user.scope, user.runs, project.scope, project.runs], [
      "user",
      false,
      "project",
      false,
    ]);
    assert.match(
      user.detail,
      /Gemini CLI will NOT run it: ".*" is not trusted in .*trustedFolders\.json/,
    );
    [user] = await geminiHookStatuses({
      root,
      env: { ...env, GEMINI_CLI_TRUST_WORKSPACE: "true" },
    });
    assert.equal(user.runs, true, user.detail);
    await trust(env, root);
    [user, project] = await geminiHookStatuses({ root, env });
    assert.equal(user.runs, true, user.detail);
    assert.equal(project.runs, true, project.detail);
    assert.match(user.detail, /"gemini -p"/);
    assert.equal(user.stopTimeout, 300);
    assert.match(String(geminiTimeoutProblem(user, 600)), /timeout is 300 s but .* 600 s/);
    assert.equal(geminiTimeoutProblem(user, 300), null);
    await trust(env, join(root, ".."), "DO_NOT_TRUST");
    [user] = await geminiHookStatuses({ root, env });
    assert.match(user.detail, /is marked DO_NOT_TRUST/);
    await trust(env, root);

    await Deno.writeTextFile(
      env.GEMINI_CLI_SYSTEM_SETTINGS_PATH,
      '{"hooksConfig": {"disabled": ["review-gate-stop"]}}',
    );
    [user] = await geminiHookStatuses({ root, env });
    assert.match(
      user.detail,
      /"review-gate-stop" is in hooksConfig\.disabled of the system settings/,
    );
    await Deno.writeTextFile(
      env.GEMINI_CLI_SYSTEM_SETTINGS_PATH,
      '{"hooksConfig": {"enabled": false}}',
    );
    [user] = await geminiHookStatuses({ root, env });
    assert.match(user.detail, /NOT run it: hooksConfig\.enabled is false in the system settings/);
    await Deno.writeTextFile(
      env.GEMINI_CLI_SYSTEM_SETTINGS_PATH,
      '{"security": {"environmentVariableRedaction": {"enabled": true}}}',
    );
    [user] = await geminiHookStatuses({ root, env });
    assert.equal(user.runs, true);
    assert.match(user.detail, /environmentVariableRedaction is on: .*NOT reviewed/);
  });
});

Deno.test("geminiFolderTrust(): the longest matching rule wins; TRUST_PARENT trusts the rule's parent", () => {
  assert.equal(geminiFolderTrust({ "/w": "TRUST_FOLDER" }, "/w/repo"), true);
  assert.equal(geminiFolderTrust({ "/w/other": "TRUST_PARENT" }, "/w/repo"), true);
  assert.equal(geminiFolderTrust({ "/w/repo": "DO_NOT_TRUST" }, "/w/repo"), false);
  assert.equal(
    geminiFolderTrust({ "/w": "TRUST_FOLDER", "/w/repo": "DO_NOT_TRUST" }, "/w/repo/src"),
    false,
  );
  assert.equal(
    geminiFolderTrust({ "/w": "DO_NOT_TRUST", "/w/repo": "TRUST_FOLDER" }, "/w/repo"),
    true,
  );
  assert.equal(geminiFolderTrust({ "/w/re": "TRUST_FOLDER" }, "/w/repo"), undefined);
  assert.equal(geminiFolderTrust(null, "/w/repo"), undefined);
});
