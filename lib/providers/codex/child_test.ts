import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { prepareCodexChild } from "./adapter.ts";
import { carryCodexConfig, describeCodexAuth, readCodexUser, tomlInline } from "./child.ts";

/** A parsed TOML value as plain objects (smol-toml makes null-prototype ones). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

const USER_CONFIG = `
model = "gpt-5"
model_provider = "gateway"
profile = "work"
developer_instructions = "steer"
notify = ["notify-send"]
[projects."/repo"]
trust_level = "trusted"
[mcp_servers.evil]
command = "sh"
[model_providers.gateway]
name = "gw"
base_url = "http://gw/v1"
env_key = "GW_KEY"
env_http_headers = { "X-Team" = "GW_TEAM" }
[profiles.work]
model = "gpt-5-work"
sandbox_mode = "danger-full-access"
`;

Deno.test("carryCodexConfig() keeps provider, model and login keys, the profile flattened in", () => {
  assert.deepEqual(plain(carryCodexConfig(parseToml(USER_CONFIG))), {
    model: "gpt-5-work",
    model_provider: "gateway",
    model_providers: {
      gateway: {
        name: "gw",
        base_url: "http://gw/v1",
        env_key: "GW_KEY",
        env_http_headers: { "X-Team": "GW_TEAM" },
      },
    },
  });
});

Deno.test("tomlInline() writes values codex's -c parser reads as TOML", () => {
  assert.equal(
    tomlInline({ a: { name: 'x "q"', n: 1, ok: true, list: ["a"] } }),
    '{"a"={"name"="x \\"q\\"","n"=1,"ok"=true,"list"=["a"]}}',
  );
  assert.deepEqual(plain(parseToml(`v = ${tomlInline({ a: { b: "c" } })}`)), {
    v: { a: { b: "c" } },
  });
});

async function withUser(
  files: Record<string, string>,
  fn: (at: { base: string; home: string; codex: string; dir: string }) => Promise<void>,
): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "rg-codex-child-" });
  const at = {
    base,
    home: join(base, "home"),
    codex: join(base, "home", ".codex"),
    dir: join(base, "call"),
  };
  await Deno.mkdir(at.codex, { recursive: true });
  await Deno.mkdir(at.dir);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(at.codex, name), text);
  }
  try {
    await fn(at);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

const PARENT = {
  PATH: "/usr/bin",
  GW_KEY: "gw-secret",
  GW_TEAM: "team-1",
  OPENAI_API_KEY: "sk-openai",
  ANTHROPIC_API_KEY: "sk-ant",
  GITHUB_TOKEN: "ghp",
  CODEX_HOME: "",
};

Deno.test("prepareCodexChild() builds a private CODEX_HOME and HOME, auth.json linked not copied", async () => {
  await withUser({
    "config.toml": USER_CONFIG,
    "auth.json": '{"OPENAI_API_KEY":"sk-auth"}',
    ".env": "GW_KEY=from-dotenv\nOTHER_SECRET=x\n",
  }, async ({ home, codex, dir }) => {
    const setup = await prepareCodexChild({
      env: { ...PARENT, HOME: home, GW_KEY: "" },
      dir,
      root: join(home, "src", "repo"),
      workdir: join(dir, "..", "copy"),
    });
    const privateHome = join(dir, "codex-home");
    assert.equal(setup.env.CODEX_HOME, privateHome);
    assert.equal(setup.env.HOME, join(dir, "home"));
    // codex refuses its sandbox helpers when CODEX_HOME lies under the temp dir (TMPDIR)
    assert.equal(setup.env.TMPDIR, join(dir, "tmp"));
    assert.equal((await Deno.stat(setup.env.TMPDIR)).mode! & 0o777, 0o700);
    assert.ok(!`${setup.env.CODEX_HOME}/`.startsWith(`${setup.env.TMPDIR}/`));
    assert.equal(await Deno.readLink(join(privateHome, "auth.json")), join(codex, "auth.json"));
    const written = parseToml(await Deno.readTextFile(join(privateHome, "config.toml")));
    assert.deepEqual(Object.keys(written).sort(), ["model", "model_provider", "model_providers"]);
    assert.equal(setup.env.GW_TEAM, "team-1", "the provider's header variable passes");
    assert.equal(setup.env.OPENAI_API_KEY, "sk-openai");
    for (const name of ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "OTHER_SECRET"]) {
      assert.equal(setup.env[name], undefined, name);
    }
    // deny by default: only the system paths and the copy are named (readable.ts)
    assert.deepEqual(setup.args, [
      "-c",
      `permissions.review.filesystem={":minimal"="read",${
        JSON.stringify(join(dir, "..", "copy"))
      }="read"}`,
    ]);
  });
});

Deno.test("prepareCodexChild() carries a provider key that lives only in CODEX_HOME/.env", async () => {
  await withUser(
    { "config.toml": USER_CONFIG, ".env": "GW_KEY=from-dotenv\nOTHER=x\n" },
    async (at) => {
      const env = { PATH: "/usr/bin", HOME: at.home };
      const setup = await prepareCodexChild({
        env,
        dir: at.dir,
        root: "/nonexistent",
        workdir: at.dir,
      });
      assert.equal(setup.env.GW_KEY, "from-dotenv");
      assert.equal(setup.env.OTHER, undefined);
    },
  );
});

Deno.test("prepareCodexChild() keyring users keep their CODEX_HOME with --ignore-user-config", async () => {
  await withUser({
    "config.toml": `cli_auth_credentials_store = "keyring"\n${USER_CONFIG}`,
  }, async (at) => {
    const env = { PATH: "/usr/bin", HOME: at.home };
    const setup = await prepareCodexChild({
      env,
      dir: at.dir,
      root: "/nonexistent",
      workdir: at.dir,
    });
    assert.equal(setup.env.CODEX_HOME, at.codex);
    assert.equal(setup.args[0], "--ignore-user-config");
    assert.ok(setup.args.includes('model_provider="gateway"'));
    assert.ok(setup.args.some((a) => a.startsWith('model_providers={"gateway"={')));
    assert.ok(!setup.args.some((a) => a.includes("projects") || a.includes("mcp_servers")));
    const lines = describeCodexAuth(env, await readCodexUser(env));
    assert.ok(lines.some((l) => /keyring.*--ignore-user-config/.test(l)), lines.join("\n"));
  });
});

Deno.test("prepareCodexChild() names nothing of HOME, TMPDIR or CODEX_HOME when the private dir lies under HOME", async () => {
  await withUser({ "config.toml": USER_CONFIG }, async (at) => {
    await Deno.mkdir(join(at.home, ".ssh"));
    const dir = join(at.home, "tmp", "call");
    const copy = join(at.home, "tmp", "copy");
    await Deno.mkdir(dir, { recursive: true });
    const env = { PATH: "/usr/bin", HOME: at.home, TMPDIR: join(at.home, "tmp") };
    const setup = await prepareCodexChild({ env, dir, root: "/nonexistent", workdir: copy });
    assert.equal(
      setup.args.at(-1),
      `permissions.review.filesystem={":minimal"="read",${JSON.stringify(copy)}="read"}`,
    );
  });
});

Deno.test("prepareCodexChild() writes no literal provider token into config.toml or argv", async () => {
  const config = `model_provider = "gw"\n[model_providers.gw]\nname = "gw"\n` +
    `base_url = "http://gw/v1"\nexperimental_bearer_token = "tok-LITERAL"\n` +
    `http_headers = { "X-Key" = "hdr-LITERAL" }\n`;
  for (const store of ["file", "keyring"]) {
    await withUser(
      { "config.toml": `cli_auth_credentials_store = "${store}"\n${config}` },
      async (at) => {
        const env = { PATH: "/usr/bin", HOME: at.home };
        const setup = await prepareCodexChild({ env, dir: at.dir, root: "/x", workdir: at.dir });
        const written = store === "file"
          ? await Deno.readTextFile(join(setup.env.CODEX_HOME, "config.toml"))
          : "";
        for (const text of [written, setup.args.join(" ")]) {
          assert.doesNotMatch(text, /LITERAL/, text);
        }
        const inline = setup.args.find((arg) => arg.startsWith("model_providers="));
        const providers = store === "file"
          ? plain(parseToml(written)).model_providers
          : plain(parseToml(`v = ${inline!.slice("model_providers=".length)}`)).v;
        const gw = providers.gw;
        assert.equal(setup.env[gw.env_key], "tok-LITERAL", store);
        assert.equal(setup.env[gw.env_http_headers["X-Key"]], "hdr-LITERAL", store);
        assert.ok(!gw.env_key.startsWith("CODEX_"), "the model's shell sees CODEX_* variables");
      },
    );
  }
});
