import assert from "node:assert/strict";
import { join } from "node:path";
import { NoCredentialsError } from "../provider.ts";
import {
  carryGeminiSettings,
  describeGeminiAuth,
  GEMINI_TOOLS,
  geminiCarried,
  prepareGeminiChild,
  readGeminiUser,
  REVIEW_POLICY,
} from "./child.ts";

async function withDirs(fn: (home: string, dir: string) => Promise<void>): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "rg-gemini-" });
  const home = join(base, "home");
  const dir = join(base, "call");
  await Deno.mkdir(join(home, ".gemini"), { recursive: true });
  await Deno.mkdir(dir);
  try {
    await fn(home, dir);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("carryGeminiSettings() keeps auth and model keys only, never the user's turn cap", () => {
  const carried = carryGeminiSettings({
    security: { auth: { selectedType: "oauth-personal" }, folderTrust: { enabled: false } },
    model: { name: "gemini-2.5-pro", maxSessionTurns: 100 },
    hooks: { SessionStart: [] },
    mcpServers: { evil: { command: "sh" } },
    tools: { core: ["run_shell_command"] },
    context: { fileName: ["EVIL.md"] },
  });
  assert.deepEqual(carried, {
    security: { auth: { selectedType: "oauth-personal" } },
    model: { name: "gemini-2.5-pro" },
  });
  assert.deepEqual(carryGeminiSettings("nope"), {});
});

Deno.test("prepareGeminiChild() gives a private HOME with read tools only, the turn cap, an allowlisted environment", async () => {
  await withDirs(async (home, dir) => {
    await Deno.writeTextFile(
      join(home, ".gemini", "settings.json"),
      '{ // the user\'s\n "model": {"name": "gemini-2.5-pro"}, "hooks": {"SessionStart": []},}',
    );
    await Deno.writeTextFile(join(home, ".gemini", ".env"), "GOOGLE_API_KEY=gk\nSECRET_X=1\n");
    await Deno.writeTextFile(join(home, ".gemini", "oauth_creds.json"), "{}");
    const setup = await prepareGeminiChild({
      env: {
        HOME: home,
        PATH: "/usr/bin",
        GEMINI_API_KEY: "k",
        GITHUB_TOKEN: "gh",
        GEMINI_SYSTEM_MD: "evil.md",
        GEMINI_CLI_SYSTEM_SETTINGS_PATH: "/tmp/evil.json",
        GEMINI_CLI_TRUST_WORKSPACE: "true",
        CLAUDECODE: "1",
      },
      dir,
      root: "/repo",
      workdir: "/tmp/copy",
      maxTurns: 7,
    });
    const privateHome = join(dir, "gemini-home");
    assert.equal(setup.env.HOME, privateHome);
    assert.equal(setup.env.GEMINI_CLI_HOME, privateHome);
    assert.equal(setup.env.TMPDIR, join(dir, "tmp"));
    assert.equal(setup.env.GEMINI_API_KEY, "k");
    assert.equal(setup.env.GOOGLE_API_KEY, "gk");
    for (
      const name of [
        "GITHUB_TOKEN",
        "GEMINI_SYSTEM_MD",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        "GEMINI_CLI_TRUST_WORKSPACE",
        "CLAUDECODE",
        "SECRET_X",
      ]
    ) {
      assert.equal(setup.env[name], undefined, name);
    }
    const gemini = join(privateHome, ".gemini");
    const settings = JSON.parse(await Deno.readTextFile(join(gemini, "settings.json")));
    assert.deepEqual(settings.tools, { core: GEMINI_TOOLS });
    assert.deepEqual(settings.model, { name: "gemini-2.5-pro", maxSessionTurns: 7 });
    assert.deepEqual(settings.security, { auth: { selectedType: "gemini-api-key" } });
    assert.equal(settings.hooks, undefined);
    assert.equal(settings.hooksConfig.enabled, false);
    assert.equal(settings.advanced.ignoreLocalEnv, true);
    assert.equal(settings.context.fileFiltering.respectGitIgnore, false);
    assert.equal(
      await Deno.readTextFile(join(gemini, "policies", "review-gate.toml")),
      REVIEW_POLICY,
    );
    assert.equal(
      await Deno.readLink(join(gemini, "oauth_creds.json")),
      join(home, ".gemini", "oauth_creds.json"),
    );
  });
});

Deno.test("REVIEW_POLICY denies every tool and allows the read tools above it", () => {
  assert.match(REVIEW_POLICY, /toolName = "\*"\ndecision = "deny"\npriority = 900/);
  for (const tool of GEMINI_TOOLS) {
    assert.match(
      REVIEW_POLICY,
      new RegExp(`toolName = "${tool}"\\ndecision = "allow"\\npriority = 999`),
    );
  }
});

Deno.test("describeGeminiAuth() names sources without secrets, and says when there are none", async () => {
  await withDirs(async (home) => {
    const user = await readGeminiUser({ HOME: home });
    assert.throws(() => describeGeminiAuth({ HOME: home }, user), NoCredentialsError);
    const lines = describeGeminiAuth({ HOME: home, GEMINI_API_KEY: "secret-value" }, user);
    assert.deepEqual(lines, ["GEMINI_API_KEY from the environment"]);
    await Deno.writeTextFile(join(home, ".gemini", "settings.json"), "{not json");
    const broken = await readGeminiUser({ HOME: home });
    assert.match(broken.problem!, /not valid JSON/);
  });
});

Deno.test("geminiCarried keys a verdict by the carried model and endpoint, never by a key", async () => {
  await withDirs(async (home) => {
    const env = { HOME: home };
    assert.equal(await geminiCarried.answerKey(env), null);
    await Deno.writeTextFile(join(home, ".gemini", ".env"), "GEMINI_API_KEY=one\n");
    assert.equal(await geminiCarried.answerKey(env), null);
    await Deno.writeTextFile(join(home, ".gemini", ".env"), "GOOGLE_GEMINI_BASE_URL=https://a\n");
    const a = await geminiCarried.answerKey(env);
    await Deno.writeTextFile(join(home, ".gemini", ".env"), "GOOGLE_GEMINI_BASE_URL=https://b\n");
    assert.notEqual(await geminiCarried.answerKey(env), a);
    assert.ok(a !== null);
  });
});
