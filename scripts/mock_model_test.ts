import assert from "node:assert/strict";
import { join } from "node:path";
import {
  banner,
  cliSettings,
  parseMockModelArgs,
  shellQuote,
  writeCliFiles,
} from "./mock_model.ts";

Deno.test("parseMockModelArgs takes --port and --approve and names what it refuses", () => {
  assert.deepEqual(parseMockModelArgs([]), { port: 0, approve: false, help: false });
  assert.deepEqual(parseMockModelArgs(["--port", "8080", "--approve"]), {
    port: 8080,
    approve: true,
    help: false,
  });
  assert.equal(parseMockModelArgs(["--port=9"]).port, 9);
  assert.throws(() => parseMockModelArgs(["--port", "70000"]), /--port takes a port number/);
  assert.throws(() => parseMockModelArgs(["--port"]), /--port takes a port number/);
  assert.throws(() => parseMockModelArgs(["--model", "x"]), /unknown argument "--model"/);
});

Deno.test("shellQuote leaves plain values alone and single-quotes the rest", () => {
  assert.equal(shellQuote("http://127.0.0.1:1/v1"), "http://127.0.0.1:1/v1");
  assert.equal(shellQuote("/tmp/a b"), "'/tmp/a b'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});

Deno.test("the banner gives every CLI its lines; codex and opencode name files that exist", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = "http://127.0.0.1:4000";
    await writeCliFiles(dir, url);
    const settings = cliSettings(url, dir);
    assert.deepEqual(settings.map((s) => s.provider), [
      "claude",
      "codex",
      "qwen",
      "gemini",
      "copilot",
      "opencode",
    ]);
    const env = (cli: string) => Object.fromEntries(settings.find((s) => s.provider === cli)!.env);
    const codexConfig = await Deno.readTextFile(join(env("codex").CODEX_HOME, "config.toml"));
    assert.match(codexConfig, /base_url = "http:\/\/127\.0\.0\.1:4000\/v1"/);
    const opencode = join(env("opencode").XDG_CONFIG_HOME, "opencode", "opencode.json");
    assert.match(await Deno.readTextFile(opencode), /127\.0\.0\.1:4000\/v1/);
    const text = banner(url, false, settings);
    assert.match(
      text,
      /^# claude \(Claude Code\)\nexport ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:4000$/m,
    );
    assert.match(text, /Stop with Ctrl-C/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
