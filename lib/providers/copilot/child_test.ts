import assert from "node:assert/strict";
import { join } from "node:path";
import { NoCredentialsError } from "../provider.ts";
import { copilotPackageCache, describeCopilotAuth, prepareCopilotChild } from "./child.ts";

Deno.test("prepareCopilotChild() gives an empty private COPILOT_HOME and HOME, an allowlisted environment", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rg-copilot-" });
  try {
    const setup = await prepareCopilotChild({
      env: {
        HOME: "/home/u",
        PATH: "/usr/bin",
        COPILOT_GITHUB_TOKEN: "ghu_x",
        COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:1/v1",
        COPILOT_MODEL: "m",
        COPILOT_ALLOW_ALL: "true",
        COPILOT_HOME: "/home/u/.copilot",
        COPILOT_CUSTOM_INSTRUCTIONS_DIRS: "/evil",
        COPILOT_CLI_DIST_DIR: "/evil",
        COPILOT_OTEL_FILE_EXPORTER_PATH: "/tmp/otel",
        OPENAI_API_KEY: "other provider",
        CLAUDECODE: "1",
      },
      dir,
      root: "/repo",
      workdir: "/tmp/copy",
    });
    assert.equal(setup.env.HOME, join(dir, "home"));
    assert.equal(setup.env.COPILOT_HOME, join(dir, "copilot-home"));
    assert.equal(setup.env.TMPDIR, join(dir, "tmp"));
    assert.equal(setup.env.COPILOT_AUTO_UPDATE, "false");
    assert.equal(setup.env.COPILOT_GITHUB_TOKEN, "ghu_x");
    assert.equal(setup.env.COPILOT_PROVIDER_BASE_URL, "http://127.0.0.1:1/v1");
    assert.equal(setup.env.COPILOT_MODEL, "m");
    for (
      const name of [
        "COPILOT_ALLOW_ALL",
        "COPILOT_CUSTOM_INSTRUCTIONS_DIRS",
        "COPILOT_CLI_DIST_DIR",
        "COPILOT_OTEL_FILE_EXPORTER_PATH",
        "OPENAI_API_KEY",
        "CLAUDECODE",
      ]
    ) assert.equal(setup.env[name], undefined, name);
    assert.deepEqual([...Deno.readDirSync(join(dir, "copilot-home"))], []);
    assert.deepEqual(setup.args, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copilotPackageCache() is the user's own package cache, as the npm loader looks it up", () => {
  assert.equal(copilotPackageCache({ HOME: "/h" }, "linux"), "/h/.cache/copilot");
  assert.equal(copilotPackageCache({ HOME: "/h", XDG_CACHE_HOME: "/x" }, "linux"), "/x/copilot");
  assert.equal(copilotPackageCache({ HOME: "/h" }, "darwin"), "/h/Library/Caches/copilot");
  assert.equal(copilotPackageCache({ HOME: "/h", COPILOT_CACHE_HOME: "/c" }, "darwin"), "/c");
  assert.equal(copilotPackageCache({ COPILOT_PKG_CACHE_HOME: "/p", HOME: "/h" }, "linux"), "/p");
  assert.equal(copilotPackageCache({}, "linux"), undefined);
});

Deno.test("describeCopilotAuth() names sources without secrets, and says when there are none", () => {
  assert.throws(() => describeCopilotAuth({ HOME: "/h" }), NoCredentialsError);
  assert.deepEqual(describeCopilotAuth({ GH_TOKEN: "ghp_secret" }), [
    "GH_TOKEN from the environment (a GitHub token)",
  ]);
  const byok = describeCopilotAuth({ COPILOT_PROVIDER_BASE_URL: "http://h/v1" });
  assert.match(byok[0], /no COPILOT_MODEL/);
  assert.ok(!JSON.stringify(describeCopilotAuth({ GH_TOKEN: "ghp_secret" })).includes("ghp_"));
});
