/**
 * End-to-end: `provider: "auto"`, the default (README "Choosing a provider"), in a throwaway
 * repository with some providers' `REVIEW_GATE_<NAME>_BIN` pointing at the bundled fake and the
 * others at missing paths: the first one found reviews, every output names the choice and why the
 * ones before it were passed over, and with none found the review exits 3 with one line per
 * provider. A council refuses `auto`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FAKE_BIN, lastRun, makeSandbox, readFakeLog, runCli, type Sandbox } from "./_cli.ts";
import { PROVIDER_NAMES } from "../../lib/providers/registry.ts";

/** Every provider's variable at a missing path, but those named, which point at the fake. */
function pluggedIn(sandbox: Sandbox, fakes: readonly string[]): Record<string, string> {
  return Object.fromEntries(PROVIDER_NAMES.map((name) => [
    `REVIEW_GATE_${name.toUpperCase()}_BIN`,
    fakes.includes(name) ? join(FAKE_BIN, name) : join(sandbox.dir, "missing", name),
  ]));
}

Deno.test("auto reviews with the first provider found and every output names the choice", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    const env = pluggedIn(sandbox, ["qwen", "vibe"]);
    const sarif = join(sandbox.dir, "out.sarif");
    const md = join(sandbox.dir, "out.md");
    const result = await runCli(sandbox, [
      "review",
      "--no-cache",
      "--format",
      "terminal",
      "--format",
      "sarif",
      "--output",
      sarif,
      "--format",
      "markdown",
      "--output",
      md,
    ], { env });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const missing = (name: string) =>
      `${name} not found ("${
        join(sandbox.dir, "missing", name)
      }" from REVIEW_GATE_${name.toUpperCase()}_BIN)`;
    const words = `qwen (auto: ${missing("claude")}, ${missing("codex")}, ${missing("gemini")})`;
    // the headline names the model the answer reported, between the provider and the choice
    assert.ok(result.stdout.includes(words.replace("qwen (", "qwen qwen-fake (")), result.stdout);
    assert.ok((await Deno.readTextFile(md)).includes(`- Provider: ${words}`));
    const run = JSON.parse(await Deno.readTextFile(sarif)).runs[0];
    assert.equal(run.properties.provider, "qwen");
    assert.equal(run.properties.providerChoice.text, words.slice("qwen (".length, -1));
    // the fake qwen was asked, and only it
    assert.deepEqual((await readFakeLog(sandbox)).map((c) => c.cli), ["qwen"]);

    const json = await runCli(sandbox, ["review", "--json", "--no-cache"], { env });
    assert.equal(json.code, 0, json.stderr);
    const envelope = JSON.parse(json.stdout);
    assert.equal(envelope.provider, "qwen");
    assert.deepEqual(envelope.providerChoice, {
      auto: true,
      skipped: ["claude", "codex", "gemini"].map((name) => ({
        name,
        why: missing(name).slice(name.length + 1),
      })),
    });
    assert.deepEqual((await lastRun(sandbox)).run.providerChoice, envelope.providerChoice);

    // named: no choice made, none named
    const named = await runCli(sandbox, ["review", "--json", "--no-cache", "--provider", "vibe"], {
      env,
    });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).providerChoice, null);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("auto with no provider found exits 3, one line per provider with its fix", async () => {
  const sandbox = await makeSandbox({ "a.txt": "a\n" });
  try {
    await sandbox.repo.write("a.txt", "b\n");
    const result = await runCli(sandbox, ["review"], { env: pluggedIn(sandbox, []) });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assert.match(result.stderr, /No provider CLI can review \(provider "auto" tries claude, codex/);
    for (const name of PROVIDER_NAMES) {
      assert.match(
        result.stderr,
        new RegExp(
          `\\n {2}${name}: not found \\(".*" from REVIEW_GATE_${name.toUpperCase()}_BIN\\)`,
        ),
      );
    }
    assert.deepEqual(await readFakeLog(sandbox).catch(() => []), []);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a council refuses auto with a clear message", async () => {
  const sandbox = await makeSandbox({ "a.txt": "a\n" });
  try {
    await sandbox.repo.write("a.txt", "b\n");
    const result = await runCli(sandbox, ["review", "--providers", "auto,codex"]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /a council names its providers \("auto" picks one, not a council\)/,
    );
    await Deno.writeTextFile(
      join(sandbox.repo.root, ".review-gate.json"),
      '{ "council": ["auto", "codex"] }\n',
    );
    const config = await runCli(sandbox, ["review"]);
    assert.equal(config.code, 2, config.stderr);
    assert.match(config.stderr, /council/);
  } finally {
    await sandbox.cleanup();
  }
});
