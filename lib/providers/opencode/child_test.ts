import assert from "node:assert/strict";
import { join } from "node:path";
import { NoCredentialsError } from "../provider.ts";
import {
  carryOpencodeConfig,
  describeOpencodeAuth,
  opencodeCarried,
  prepareOpencodeChild,
  readOpencodeUser,
  referencedVars,
  REVIEW_PERMISSION,
} from "./child.ts";

async function withHome(fn: (home: string, dir: string) => Promise<void>): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "rg-opencode-" });
  const home = join(base, "home");
  const dir = join(base, "call");
  await Deno.mkdir(join(home, ".config", "opencode"), { recursive: true });
  await Deno.mkdir(join(home, ".local", "share", "opencode"), { recursive: true });
  await Deno.mkdir(dir);
  try {
    await fn(home, dir);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

const USER_CONFIG = {
  provider: {
    mine: {
      npm: "@ai-sdk/openai-compatible",
      options: { baseURL: "http://h/v1", apiKey: "{env:MY_KEY}" },
    },
  },
  model: "mine/m",
  agent: { "review-gate": { permission: { "*": "allow" } } },
  mcp: { evil: { type: "local", command: ["touch", "/tmp/x"] } },
  plugin: ["evil"],
  instructions: ["~/notes.md"],
  permission: { bash: "allow" },
};

Deno.test("carryOpencodeConfig() keeps provider and model keys only", () => {
  assert.deepEqual(carryOpencodeConfig(USER_CONFIG), {
    provider: USER_CONFIG.provider,
    model: "mine/m",
  });
  assert.deepEqual(carryOpencodeConfig([1]), {});
  assert.deepEqual(referencedVars({ a: "{env:MY_KEY}", b: "{env:OPENCODE_PERMISSION}" }), [
    "MY_KEY",
  ]);
});

Deno.test("prepareOpencodeChild() gives private XDG folders, the review config and an allowlisted environment", async () => {
  await withHome(async (home, dir) => {
    await Deno.writeTextFile(
      join(home, ".config", "opencode", "opencode.jsonc"),
      `// mine\n${JSON.stringify(USER_CONFIG)}`,
    );
    await Deno.writeTextFile(
      join(home, ".local", "share", "opencode", "auth.json"),
      JSON.stringify({ anthropic: { type: "api", key: "sk-ant-secret" } }),
    );
    const setup = await prepareOpencodeChild({
      env: {
        HOME: home,
        PATH: "/usr/bin",
        MY_KEY: "k",
        ANTHROPIC_API_KEY: "a",
        OPENCODE_PERMISSION: '{"*":"allow"}',
        OPENCODE_CONFIG: "/evil.json",
        OPENCODE_CONFIG_DIR: "/evil",
        GITHUB_TOKEN: "ghp_x",
        CLAUDECODE: "1",
      },
      dir,
      root: "/repo",
      workdir: "/tmp/copy",
    });
    assert.equal(setup.env.HOME, join(dir, "home"));
    assert.equal(setup.env.XDG_CONFIG_HOME, join(dir, "config"));
    assert.equal(setup.env.XDG_DATA_HOME, join(dir, "data"));
    assert.equal(setup.env.XDG_CACHE_HOME, join(dir, "cache"));
    assert.equal(setup.env.TMPDIR, join(dir, "tmp"));
    assert.equal(setup.env.OPENCODE_DISABLE_PROJECT_CONFIG, "1");
    assert.equal(setup.env.OPENCODE_DISABLE_CLAUDE_CODE, "1");
    assert.equal(setup.env.MY_KEY, "k", "a variable the carried provider reads");
    assert.equal(setup.env.ANTHROPIC_API_KEY, "a");
    for (
      const name of [
        "OPENCODE_PERMISSION",
        "OPENCODE_CONFIG",
        "OPENCODE_CONFIG_DIR",
        "GITHUB_TOKEN",
        "CLAUDECODE",
      ]
    ) {
      assert.equal(setup.env[name], undefined, name);
    }
    const config = JSON.parse(setup.env.OPENCODE_CONFIG_CONTENT);
    assert.deepEqual(config.provider, USER_CONFIG.provider);
    assert.equal(config.model, "mine/m");
    assert.deepEqual(config.agent, {
      "review-gate": {
        mode: "primary",
        description: config.agent["review-gate"].description,
        permission: REVIEW_PERMISSION,
      },
    });
    assert.equal(config.default_agent, "review-gate");
    assert.deepEqual([config.mcp, config.plugin, config.instructions], [{}, [], []]);
    assert.equal(config.permission, undefined);
    const link = join(dir, "data", "opencode", "auth.json");
    assert.equal(await Deno.readLink(link), join(home, ".local", "share", "opencode", "auth.json"));
    assert.deepEqual([...Deno.readDirSync(join(dir, "config"))], []);
  });
});

Deno.test("readOpencodeUser() says why a malformed config is not used, and carries nothing of it", async () => {
  await withHome(async (home) => {
    await Deno.writeTextFile(join(home, ".config", "opencode", "opencode.json"), "{ nope");
    const user = await readOpencodeUser({ HOME: home });
    assert.deepEqual(user.carried, {});
    assert.match(user.problem ?? "", /opencode\.json: it is not valid JSON/);
    assert.equal(user.logins, null);
  });
});

Deno.test("describeOpencodeAuth() names sources without secrets, and says when there are none", async () => {
  await withHome(async (home) => {
    assert.throws(
      () =>
        describeOpencodeAuth({ HOME: home }, {
          configDir: "/c",
          authFile: "/a",
          carried: {},
          logins: null,
        }),
      NoCredentialsError,
    );
    await Deno.writeTextFile(
      join(home, ".local", "share", "opencode", "auth.json"),
      JSON.stringify({ anthropic: { type: "api", key: "sk-ant-secret" } }),
    );
    const lines = describeOpencodeAuth({ HOME: home }, await readOpencodeUser({ HOME: home }));
    assert.match(lines.join("\n"), /logins for anthropic in .*auth\.json \(linked\)/);
    assert.ok(!lines.join("\n").includes("sk-ant-secret"));
  });
});

Deno.test("opencodeCarried keys a verdict by the carried config, secrets left out", async () => {
  await withHome(async (home) => {
    assert.equal(await opencodeCarried.answerKey({ HOME: home }), null);
    const config = {
      provider: { p: { options: { baseURL: "http://h/v1", apiKey: "sk-lit" } } },
      model: "p/m",
    };
    await Deno.writeTextFile(
      join(home, ".config", "opencode", "opencode.json"),
      JSON.stringify(config),
    );
    const key = await opencodeCarried.answerKey({ HOME: home });
    assert.ok(key?.includes("http://h/v1") && key.includes("p/m"));
    assert.ok(!key?.includes("sk-lit"));
  });
});
