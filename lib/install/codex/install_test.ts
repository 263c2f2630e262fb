import assert from "node:assert/strict";
import { join } from "node:path";
import { installCodexHooks, uninstallCodexHooks } from "./install.ts";
import { CODEX_STOP_STATUS } from "./entries.ts";

const COMMAND = "'/usr/local/bin/review-gate'";

async function withHome(fn: (home: string, root: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-codex-" });
  try {
    await Deno.mkdir(join(dir, "codex"));
    await Deno.mkdir(join(dir, "repo"));
    await fn(join(dir, "codex"), join(dir, "repo"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// The user's own hooks, in their own formatting (4 spaces, inline objects, no final newline).
const USER_HOOKS = `{
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "my-stop.sh", "timeout": 30}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "hello.sh"}]}]
    }
}`;

Deno.test("installCodexHooks() appends our groups after the user's and uninstall restores the bytes", async () => {
  await withHome(async (home, root) => {
    const path = join(home, "hooks.json");
    await Deno.writeTextFile(path, USER_HOOKS);
    const env = { CODEX_HOME: home };
    const report = await installCodexHooks({ scope: "user", root, env, command: COMMAND });
    assert.match(report.text, /Trust all and continue/);
    const text = await Deno.readTextFile(path);
    assert.ok(
      text.includes('{"hooks": [{"type": "command", "command": "my-stop.sh", "timeout": 30}]},'),
      "the user's group keeps its bytes",
    );
    const hooks = JSON.parse(text).hooks;
    assert.equal(hooks.Stop.length, 2);
    assert.equal(hooks.Stop[0].hooks[0].command, "my-stop.sh", "the user's group keeps index 0");
    assert.deepEqual(hooks.Stop[1].hooks[0], {
      type: "command",
      command: `${COMMAND} hook codex-stop # managed-by: review-gate`,
      timeout: 300,
      statusMessage: CODEX_STOP_STATUS,
    });
    assert.deepEqual(hooks.UserPromptSubmit, [{
      hooks: [{
        type: "command",
        command: `${COMMAND} hook codex-prompt # managed-by: review-gate`,
      }],
    }]);
    assert.deepEqual(hooks.SessionStart, [{ hooks: [{ type: "command", command: "hello.sh" }] }]);
    assert.deepEqual(
      (await installCodexHooks({ scope: "user", root, env, command: COMMAND })).actions,
      [],
    );

    await uninstallCodexHooks({ scope: "user", root, env });
    assert.equal(await Deno.readTextFile(path), USER_HOOKS, "byte-identical");
    assert.equal(await Deno.lstat(path + ".review-gate.bak").then(() => true, () => false), false);
  });
});

Deno.test("installCodexHooks() refreshes our group where it stands, keeping the user's later groups in place", async () => {
  await withHome(async (home, root) => {
    const path = join(home, "hooks.json");
    const env = { CODEX_HOME: home };
    await installCodexHooks({ scope: "user", root, env, command: COMMAND });
    // The user adds a Stop group after ours (its trust key is ...:stop:1:0).
    const value = JSON.parse(await Deno.readTextFile(path));
    value.hooks.Stop.push({ hooks: [{ type: "command", command: "later.sh" }] });
    await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
    await installCodexHooks({
      scope: "user",
      root,
      env,
      command: "'/new/review-gate'",
      stopTimeoutSeconds: 600,
    });
    const after = JSON.parse(await Deno.readTextFile(path)).hooks.Stop;
    assert.equal(after.length, 2);
    assert.match(after[0].hooks[0].command, /^'\/new\/review-gate' hook codex-stop/);
    assert.equal(after[0].hooks[0].timeout, 600);
    assert.equal(after[1].hooks[0].command, "later.sh", "the user's group keeps index 1");

    const removed = await uninstallCodexHooks({ scope: "user", root, env });
    assert.match(removed.text, /1 hook group\(s\) of yours came after review-gate's/);
    const left = JSON.parse(await Deno.readTextFile(path));
    assert.deepEqual(left, {
      hooks: { Stop: [{ hooks: [{ type: "command", command: "later.sh" }] }] },
    });
  });
});

Deno.test("installCodexHooks() creates the project hooks file and uninstall removes it; --dry-run writes nothing", async () => {
  await withHome(async (_home, root) => {
    const env = {};
    const path = join(root, ".codex", "hooks.json");
    const dry = await installCodexHooks({
      scope: "project",
      root,
      env,
      command: COMMAND,
      dryRun: true,
    });
    assert.match(dry.text, /create .*\.codex\/hooks\.json/);
    assert.match(dry.text, /repository must be trusted too/);
    assert.equal(await Deno.lstat(path).then(() => true, () => false), false);
    await installCodexHooks({ scope: "project", root, env, command: COMMAND });
    assert.ok(JSON.parse(await Deno.readTextFile(path)).hooks.Stop);
    await uninstallCodexHooks({ scope: "project", root, env });
    assert.equal(await Deno.lstat(path).then(() => true, () => false), false);
  });
});

Deno.test("installCodexHooks() refuses a hooks file that is not JSON, leaving it untouched", async () => {
  await withHome(async (home, root) => {
    const path = join(home, "hooks.json");
    await Deno.writeTextFile(path, "{ nope");
    await assert.rejects(
      installCodexHooks({ scope: "user", root, env: { CODEX_HOME: home }, command: COMMAND }),
      /not valid JSON/,
    );
    assert.equal(await Deno.readTextFile(path), "{ nope");
  });
});

Deno.test("the Codex installer calls its file hooks: the shape error, the backup and the restore say so", async () => {
  await withHome(async (home, root) => {
    const path = join(home, "hooks.json");
    const env = { CODEX_HOME: home };
    await Deno.writeTextFile(path, '{"hooks": []}');
    await assert.rejects(
      installCodexHooks({ scope: "user", root, env, command: COMMAND }),
      (error: Error) => error.message.includes(`Codex hooks "${path}": "hooks" is not an object`),
    );
    await Deno.writeTextFile(path, USER_HOOKS);
    const installed = await installCodexHooks({ scope: "user", root, env, command: COMMAND });
    assert.deepEqual(installed.actions.map((a) => "why" in a ? a.why : a.op), [
      "backup of the hooks before review-gate changed them",
      "add review-gate's UserPromptSubmit and Stop hooks after yours",
    ]);
    assert.match(installed.text, /^Codex hooks: /);
    const removed = await uninstallCodexHooks({ scope: "user", root, env });
    assert.deepEqual(removed.actions.map((a) => "why" in a ? a.why : a.op), [
      "restore the hooks saved before install",
      "backup restored",
    ]);
  });
});

Deno.test("uninstallCodexHooks() leaves a broken hooks file that holds nothing of ours alone", async () => {
  await withHome(async (home, root) => {
    const path = join(home, "hooks.json");
    await Deno.writeTextFile(path, "{ not json");
    const report = await uninstallCodexHooks({ scope: "user", root, env: { CODEX_HOME: home } });
    assert.deepEqual(report.actions, []);
    assert.equal(await Deno.readTextFile(path), "{ not json");
  });
});
