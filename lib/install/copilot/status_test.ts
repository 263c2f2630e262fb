import assert from "node:assert/strict";
import { join } from "../../base/path.ts";
import { installCopilotHooks, uninstallCopilotHooks } from "./install.ts";
import { copilotFolderTrusted, copilotHookStatuses, copilotTimeoutProblem } from "./status.ts";

const COMMAND = "/bin/sh";

async function withDirs(fn: (root: string, env: Record<string, string>) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const root = join(dir, "repo");
  await Deno.mkdir(root);
  const env = { HOME: join(dir, "home"), COPILOT_HOME: join(dir, "copilot-home") };
  try {
    await fn(root, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(value));
}

async function statuses(root: string, env: Record<string, string>) {
  const [user, project] = await copilotHookStatuses({ root, env });
  assert.deepEqual([user.scope, project.scope], ["user", "project"]);
  return { user, project };
}

Deno.test("copilotFolderTrusted(): the folder or a parent, a trailing slash ignored, case kept", async () => {
  const same = (e: string) => Promise.resolve(e);
  assert.equal(await copilotFolderTrusted(["/w/repo"], "/w/repo", same), true);
  assert.equal(await copilotFolderTrusted(["/w/"], "/w/repo", same), true);
  assert.equal(await copilotFolderTrusted(["/w/repo/"], "/w/repo", same), true);
  assert.equal(await copilotFolderTrusted(["/w/re"], "/w/repo", same), false, "a prefix only");
  assert.equal(await copilotFolderTrusted(["/W/REPO"], "/w/repo", same), false, "case-sensitive");
  assert.equal(await copilotFolderTrusted(["/w/repo/sub"], "/w/repo", same), false);
  assert.equal(await copilotFolderTrusted({ "/w/repo": true }, "/w/repo", same), false);
  assert.equal(await copilotFolderTrusted([1, ""], "/w/repo", same), false);
});

Deno.test("copilot doctor: the user's hooks run anywhere, the repository's only in a trusted folder", async () => {
  await withDirs(async (root, env) => {
    await installCopilotHooks({ scope: "user", root, env, command: COMMAND });
    await installCopilotHooks({ scope: "project", root, env, command: COMMAND });
    let { user, project } = await statuses(root, env);
    assert.deepEqual([user.runs, project.runs], [true, false]);
    assert.match(user.detail, /runs the user's hooks in every folder/);
    assert.match(user.detail, /strips ANTHROPIC_API_KEY, OPENAI_API_KEY and COPILOT_PROVIDER_\*/);
    assert.match(project.detail, /Copilot will NOT run it: this folder is not trusted/);
    assert.match(project.detail, /--trust-folder/);
    assert.equal(user.stopTimeout, 300);
    assert.match(String(copilotTimeoutProblem(user, 600)), /timeout is 300 s but .* 600 s/);

    // trustedFolders counts in config.json only, and COPILOT_ALLOW_ALL only as exactly "true"
    await writeJson(join(env.COPILOT_HOME, "settings.json"), { trustedFolders: [root] });
    assert.equal((await statuses(root, env)).project.runs, false, "settings.json is not read");
    for (const value of ["TRUE", "1", " true "]) {
      const allow = { ...env, COPILOT_ALLOW_ALL: value };
      assert.equal((await statuses(root, allow)).project.runs, false, value);
    }
    ({ project } = await statuses(root, { ...env, COPILOT_ALLOW_ALL: "true" }));
    assert.equal(project.runs, true);
    assert.match(project.detail, /COPILOT_ALLOW_ALL=true/);
    await writeJson(join(env.COPILOT_HOME, "config.json"), { trustedFolders: [join(root, "..")] });
    ({ project } = await statuses(root, env));
    assert.equal(project.runs, true, "a trusted parent trusts the repository");
    assert.match(project.detail, /trustedFolders of .*config\.json/);
  });
});

Deno.test("copilot doctor: disableAllHooks in the repository's settings and disabledHooks are named", async () => {
  await withDirs(async (root, env) => {
    await installCopilotHooks({ scope: "user", root, env, command: COMMAND });
    await installCopilotHooks({ scope: "project", root, env, command: COMMAND });
    const repoSettings = join(root, ".github", "copilot", "settings.json");
    const local = join(root, ".github", "copilot", "settings.local.json");
    // in the user's own settings it switches off only that file's inline hooks, not ours
    await writeJson(join(env.COPILOT_HOME, "settings.json"), { disableAllHooks: true });
    assert.equal((await statuses(root, env)).user.runs, true);

    await writeJson(repoSettings, { disableAllHooks: true });
    let { user, project } = await statuses(root, env);
    assert.equal(user.runs, false, "a trap the user steps in when trusting the folder");
    assert.match(user.detail, /disableAllHooks is true in .*settings\.json.* once you trust/);
    await writeJson(join(env.COPILOT_HOME, "config.json"), { trustedFolders: [root] });
    ({ user, project } = await statuses(root, env));
    assert.deepEqual([user.runs, project.runs], [false, false]);
    assert.doesNotMatch(user.detail, /once you trust/);
    await writeJson(local, { disableAllHooks: false });
    ({ user, project } = await statuses(root, env));
    assert.deepEqual([user.runs, project.runs], [true, true], "the local file's value wins");
    await writeJson(local, { disableAllHooks: "true" });
    await writeJson(repoSettings, { disableAllHooks: false });
    assert.equal((await statuses(root, env)).user.runs, true, "a string is not a boolean");

    await writeJson(join(env.COPILOT_HOME, "settings.json"), { disabledHooks: ["a1b2"] });
    ({ user, project } = await statuses(root, env));
    assert.deepEqual([user.runs, project.runs], [false, false]);
    assert.match(user.detail, /disabledHooks in .* lists 1 hook\(s\) .*ours may be one/);

    await uninstallCopilotHooks({ scope: "user", root, env });
    await uninstallCopilotHooks({ scope: "project", root, env });
    assert.deepEqual(await copilotHookStatuses({ root, env }), []);
  });
});
