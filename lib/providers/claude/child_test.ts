import assert from "node:assert/strict";
import { join } from "node:path";
import { prepareClaudeChild } from "./adapter.ts";
import {
  carryAuthSettings,
  checkClaudeLogin,
  claudeChildEnv,
  describeClaudeAuth,
} from "./child.ts";
import { NoCredentialsError } from "../provider.ts";
import { readCarriedSettings } from "./child.ts";

const PARENT = {
  PATH: "/usr/bin",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  HTTPS_PROXY: "http://proxy:3128",
  ANTHROPIC_API_KEY: "sk-ant-env",
  CLAUDECODE: "1",
  CLAUDE_CODE_ENTRYPOINT: "claude-desktop",
  CLAUDE_CODE_SESSION_ID: "parent-session",
  CLAUDE_CODE_MESSAGING_SOCKET: "/tmp/sock",
  CLAUDE_CODE_MESSAGING_TOKEN: "parent-token",
  CLAUDE_PROJECT_DIR: "/repo",
  CLAUDE_PLUGIN_ROOT: "/plugins/x",
  GITHUB_TOKEN: "ghp_secret",
  OPENAI_API_KEY: "sk-openai",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  BASH_ENV: "/home/u/.bashrc",
  CI_JOB_JWT: "jwt",
};

Deno.test("claudeChildEnv() is an allowlist: no session markers, no other secrets", () => {
  const env = claudeChildEnv(PARENT, {});
  assert.deepEqual(Object.keys(env).sort(), [
    "ANTHROPIC_API_KEY",
    "HTTPS_PROXY",
    "LANG",
    "LC_ALL",
    "PATH",
    "REVIEW_GATE_FAKE_DENO",
  ]);
  assert.equal(env.REVIEW_GATE_FAKE_DENO, Deno.execPath(), "the bundled fake starts this Deno");
});

Deno.test("claudeChildEnv() lets AWS credentials through only when Bedrock is switched on", () => {
  assert.equal(claudeChildEnv(PARENT, {}).AWS_SECRET_ACCESS_KEY, undefined);
  const carried = { env: { CLAUDE_CODE_USE_BEDROCK: "1" } };
  assert.equal(claudeChildEnv(PARENT, carried).AWS_SECRET_ACCESS_KEY, "aws-secret");
});

Deno.test("carryAuthSettings() keeps credential helpers and auth env, never hooks or permissions", () => {
  const carried = carryAuthSettings({
    env: {
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: "http://gw",
      MY_VAR: "x",
      GITHUB_TOKEN: "t",
    },
    apiKeyHelper: "/bin/get-key",
    awsAuthRefresh: "aws sso login",
    otelHeadersHelper: "/bin/otel",
    hooks: { Stop: [] },
    permissions: { allow: ["Bash(*)"] },
    statusLine: { type: "command", command: "x" },
    enabledPlugins: { a: true },
  }, {});
  assert.deepEqual(carried, {
    apiKeyHelper: "/bin/get-key",
    awsAuthRefresh: "aws sso login",
    env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://gw" },
  });
});

Deno.test("prepareClaudeChild() writes the carried settings 0600 in the private dir, never on argv", async () => {
  const base = await Deno.makeTempDir({ prefix: "rg-claude-child-" });
  try {
    const home = join(base, "home");
    const dir = join(base, "call");
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.mkdir(dir);
    await Deno.writeTextFile(
      join(home, ".claude", "settings.json"),
      `{ // JSONC like Claude Code accepts\n "env": {"ANTHROPIC_API_KEY": "sk-from-settings"},` +
        ` "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "touch x"}]}]},}`,
    );
    const setup = await prepareClaudeChild({
      env: { ...PARENT, HOME: home },
      dir,
      root: "/repo",
      workdir: join(base, "copy"),
    });
    const file = join(dir, "claude-settings.json");
    assert.deepEqual(setup.args, ["--settings", file]);
    assert.ok(!setup.args.join(" ").includes("sk-from-settings"));
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), {
      env: { ANTHROPIC_API_KEY: "sk-from-settings" },
    });
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.equal(setup.env.HOME, home);
    assert.equal(setup.env.TMPDIR, dir);
    assert.equal(setup.env.CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS, "1");
    assert.equal(setup.env.CLAUDE_CODE_PLUGIN_DIRS, "");
    for (const name of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_MESSAGING_TOKEN"]) {
      assert.equal(setup.env[name], undefined, name);
    }
    const sessions = join(
      home,
      ".claude",
      "projects",
      join(base, "copy").replace(/[^a-zA-Z0-9]/g, "-"),
    );
    await Deno.mkdir(sessions, { recursive: true });
    await setup.cleanup?.();
    await assert.rejects(Deno.lstat(sessions), Deno.errors.NotFound);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("describeClaudeAuth() names the sources, never the secrets", async () => {
  const base = await Deno.makeTempDir({ prefix: "rg-claude-auth-" });
  try {
    await Deno.mkdir(join(base, ".claude"));
    await Deno.writeTextFile(
      join(base, ".claude", "settings.json"),
      JSON.stringify({ apiKeyHelper: "/bin/key", env: { ANTHROPIC_BASE_URL: "http://gw" } }),
    );
    const env = { ...PARENT, HOME: base };
    const lines = describeClaudeAuth(env, await readCarriedSettings(env));
    assert.deepEqual(lines, [
      "ANTHROPIC_API_KEY from the environment",
      `apiKeyHelper from ${join(base, ".claude", "settings.json")}`,
      `env ANTHROPIC_BASE_URL from ${join(base, ".claude", "settings.json")}`,
    ]);
    assert.ok(!lines.join("\n").includes("sk-ant-env"));
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("checkClaudeLogin() says ok only for a login file it found: not found on Linux, unknown on macOS", async () => {
  const home = await Deno.makeTempDir();
  try {
    const env = { HOME: home };
    const own = describeClaudeAuth(env, { settings: {} });
    await Deno.mkdir(join(home, ".claude"));
    // ~/.claude exists (Claude Code creates it at its first start) but holds no login
    await assert.rejects(
      checkClaudeLogin(env, own, "linux"),
      (e: Error) =>
        e instanceof NoCredentialsError &&
        /^no credentials found: .*\.claude\/\.credentials\.json" does not exist\); run "claude" once and log in/
          .test(e.message),
    );
    await assert.rejects(
      checkClaudeLogin(env, own, "darwin"),
      (e: Error) =>
        e instanceof NoCredentialsError &&
        /^unknown: .*on macOS Claude Code keeps its login in the system keychain, which review-gate does not read/
          .test(e.message),
    );
    await assert.rejects(checkClaudeLogin({}, own, "linux"), /HOME is not set/);
    await Deno.writeTextFile(join(home, ".claude", ".credentials.json"), "{}");
    for (const os of ["linux", "darwin"]) {
      assert.deepEqual(await checkClaudeLogin(env, own, os), [
        `Claude Code's own login (${join(home, ".claude", ".credentials.json")})`,
      ]);
    }
    const key = describeClaudeAuth({ ...env, ANTHROPIC_API_KEY: "k" }, { settings: {} });
    assert.deepEqual(await checkClaudeLogin({}, key, "linux"), key, "another source: unchecked");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("prepareClaudeChild() cleans up the session folder of the resolved workdir (a TMPDIR behind a symlink, as on macOS)", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rg-claude-link-" }));
  try {
    const home = join(base, "home");
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.mkdir(join(base, "private", "var", "call", "copy"), { recursive: true });
    await Deno.symlink(join(base, "private", "var"), join(base, "var"));
    const spelled = join(base, "var", "call", "copy");
    const setup = await prepareClaudeChild({
      env: { ...PARENT, HOME: home },
      dir: join(base, "var", "call"),
      root: "/repo",
      workdir: spelled,
    });
    // what the child writes: its cwd is the resolved path
    const real = await Deno.realPath(spelled);
    const sessions = join(home, ".claude", "projects", real.replace(/[^a-zA-Z0-9]/g, "-"));
    await Deno.mkdir(sessions, { recursive: true });
    await Deno.writeTextFile(join(sessions, "s.jsonl"), "the whole diff");
    await setup.cleanup?.();
    await assert.rejects(Deno.lstat(sessions), Deno.errors.NotFound);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
