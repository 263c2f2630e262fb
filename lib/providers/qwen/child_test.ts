import assert from "node:assert/strict";
import { join } from "node:path";
import { NoCredentialsError } from "../provider.ts";
import {
  carryQwenSettings,
  describeQwenAuth,
  prepareQwenChild,
  qwenCarried,
  readQwenUser,
} from "./child.ts";

async function withDirs(fn: (home: string, dir: string) => Promise<void>): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "rg-qwen-" });
  const home = join(base, "home");
  const dir = join(base, "call");
  await Deno.mkdir(join(home, ".qwen"), { recursive: true });
  await Deno.mkdir(dir);
  try {
    await fn(home, dir);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("carryQwenSettings() keeps auth and model keys only", () => {
  const carried = carryQwenSettings({
    security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
    model: { name: "qwen3-coder-plus" },
    modelProviders: { openai: [{ id: "m", envKey: "OPENAI_API_KEY" }] },
    env: { OPENAI_BASE_URL: "https://api.example/v1", PATH: "/evil", BASH_ENV: "x" },
    hooks: { Stop: [] },
    mcpServers: { evil: { command: "sh" } },
    permissions: { allow: ["run_shell_command"] },
    tools: { core: ["run_shell_command"] },
    context: { fileName: ["EVIL.md"] },
  });
  assert.deepEqual(carried, {
    security: { auth: { selectedType: "openai" } },
    model: { name: "qwen3-coder-plus" },
    modelProviders: { openai: [{ id: "m", envKey: "OPENAI_API_KEY" }] },
    env: { OPENAI_BASE_URL: "https://api.example/v1" },
  });
  assert.deepEqual(carryQwenSettings("nope"), {});
});

Deno.test("prepareQwenChild() gives a private QWEN_HOME and HOME, an allowlisted environment", async () => {
  await withDirs(async (home, dir) => {
    await Deno.writeTextFile(
      join(home, ".qwen", "settings.json"),
      '{ // the user\'s\n "security": {"auth": {"selectedType": "openai"}}, "hooks": {"Stop": []},}',
    );
    await Deno.writeTextFile(join(home, ".qwen", ".env"), "DASHSCOPE_API_KEY=dk\nSECRET_X=1\n");
    await Deno.writeTextFile(join(home, ".qwen", "oauth_creds.json"), "{}");
    const setup = await prepareQwenChild({
      env: {
        HOME: home,
        PATH: "/usr/bin",
        OPENAI_API_KEY: "k",
        GITHUB_TOKEN: "gh",
        QWEN_CODE_SIMPLE: "1",
        CLAUDECODE: "1",
      },
      dir,
      root: "/repo",
      workdir: "/tmp/copy",
    });
    assert.equal(setup.env.HOME, join(dir, "home"));
    assert.equal(setup.env.QWEN_HOME, join(dir, "qwen-home"));
    assert.equal(setup.env.TMPDIR, join(dir, "tmp"));
    assert.equal(setup.env.OPENAI_API_KEY, "k");
    assert.equal(setup.env.DASHSCOPE_API_KEY, "dk");
    for (const name of ["GITHUB_TOKEN", "QWEN_CODE_SIMPLE", "CLAUDECODE", "SECRET_X"]) {
      assert.equal(setup.env[name], undefined, name);
    }
    const settings = JSON.parse(await Deno.readTextFile(join(dir, "qwen-home", "settings.json")));
    assert.deepEqual(settings.security, { auth: { selectedType: "openai" } });
    assert.equal(settings.hooks, undefined);
    assert.equal(settings.memory.enableManagedAutoMemory, false);
    assert.equal(settings.$version, 4);
    assert.equal(
      await Deno.readLink(join(dir, "qwen-home", "oauth_creds.json")),
      join(home, ".qwen", "oauth_creds.json"),
    );
    assert.deepEqual([...Deno.readDirSync(join(dir, "home"))], []);
  });
});

Deno.test("describeQwenAuth() names sources without secrets, and says when there are none", async () => {
  await withDirs(async (home) => {
    const user = await readQwenUser({ HOME: home });
    assert.throws(() => describeQwenAuth({ HOME: home }, user), NoCredentialsError);
    const lines = describeQwenAuth({ HOME: home, OPENAI_API_KEY: "sk-secret" }, user);
    assert.deepEqual(lines, ["OPENAI_API_KEY from the environment"]);
    await Deno.writeTextFile(join(home, ".qwen", "settings.json"), "{not json");
    const broken = await readQwenUser({ HOME: home });
    assert.match(broken.problem!, /not valid JSON/);
  });
});

Deno.test("qwenCarried keys a verdict by the carried endpoint, never by a key", async () => {
  await withDirs(async (home) => {
    const env = { HOME: home };
    assert.equal(await qwenCarried.answerKey(env), null);
    await Deno.writeTextFile(join(home, ".qwen", ".env"), "OPENAI_API_KEY=one\n");
    assert.equal(await qwenCarried.answerKey(env), null);
    await Deno.writeTextFile(join(home, ".qwen", ".env"), "OPENAI_BASE_URL=https://a/v1\n");
    const a = await qwenCarried.answerKey(env);
    await Deno.writeTextFile(join(home, ".qwen", ".env"), "OPENAI_BASE_URL=https://b/v1\n");
    assert.notEqual(await qwenCarried.answerKey(env), a);
    assert.ok(a !== null);
  });
});
