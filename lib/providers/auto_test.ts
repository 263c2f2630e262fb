import assert from "node:assert/strict";
import { join } from "../base/path.ts";
import { DEFAULT_CONFIG } from "../config/config.ts";
import {
  choiceText,
  chooseProvider,
  NoProviderError,
  providerLabel,
  resolveProvider,
} from "./auto.ts";
import { PROVIDER_NAMES, providerMeta } from "./registry.ts";

const FAKE = new URL("../../fixtures/fake/bin/", import.meta.url).pathname;

/** A throwaway HOME and an empty PATH dir; every credential variable left out. */
async function withMachine(
  fn: (at: { home: string; bin: string; env: Record<string, string> }) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "rg-auto-" });
  try {
    const home = join(root, "home");
    const bin = join(root, "bin");
    await Deno.mkdir(home);
    await Deno.mkdir(bin);
    await fn({ home, bin, env: { HOME: home, PATH: bin, XDG_CONFIG_HOME: join(home, ".config") } });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A stand-in program named `name` on `dir` (not the bundled fake: its credentials are checked). */
async function program(dir: string, name: string, mode = 0o755): Promise<string> {
  const path = join(dir, name);
  await Deno.writeTextFile(path, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(path, mode);
  return path;
}

Deno.test("auto tries the providers in the registry's order, and names that order", () => {
  assert.deepEqual(PROVIDER_NAMES.slice(0, 6), [
    "claude",
    "codex",
    "gemini",
    "qwen",
    "copilot",
    "vibe",
  ]);
  assert.equal(DEFAULT_CONFIG.provider, "auto");
});

Deno.test("chooseProvider() takes a provider pointed at the bundled fake, first in order", async () => {
  await withMachine(async ({ env }) => {
    const chosen = await chooseProvider({
      ...env,
      REVIEW_GATE_QWEN_BIN: join(FAKE, "qwen"),
      REVIEW_GATE_COPILOT_BIN: join(FAKE, "copilot"),
    });
    assert.equal(chosen.provider, "qwen");
    assert.deepEqual(chosen.choice, {
      auto: true,
      skipped: [
        { name: "claude", why: "not found" },
        { name: "codex", why: "not found" },
        { name: "gemini", why: "not found" },
      ],
    });
    assert.equal(
      providerLabel(chosen.provider, chosen.choice),
      "qwen (auto: claude not found, codex not found, gemini not found)",
    );
  });
});

Deno.test("chooseProvider() never picks the fake unless a REVIEW_GATE_*_BIN points at it", async () => {
  await withMachine(async ({ env }) => {
    // the fake's folder on PATH: every provider's name is there, none is taken
    const error = await chooseProvider({ ...env, PATH: FAKE }).catch((e: unknown) => e);
    assert.ok(error instanceof NoProviderError);
    assert.deepEqual(error.skipped[0], { name: "claude", why: "is the bundled fake on PATH" });
    assert.match(
      error.message,
      /claude: ".*claude" is the bundled fake: set REVIEW_GATE_CLAUDE_BIN/,
    );
  });
});

Deno.test("chooseProvider() passes over a missing override path, naming the variable", async () => {
  await withMachine(async ({ env }) => {
    const chosen = await chooseProvider({
      ...env,
      REVIEW_GATE_CLAUDE_BIN: "/nonexistent/claude",
      REVIEW_GATE_CODEX_BIN: join(FAKE, "codex"),
    });
    assert.equal(chosen.provider, "codex");
    assert.deepEqual(chosen.choice.skipped, [
      { name: "claude", why: 'not found ("/nonexistent/claude" from REVIEW_GATE_CLAUDE_BIN)' },
    ]);
  });
});

Deno.test("chooseProvider() passes over an installed CLI that is not signed in", async () => {
  await withMachine(async ({ env, bin, home }) => {
    await program(bin, "codex");
    await program(bin, "gemini");
    // gemini signed in through its variable; codex has no key and no auth.json
    const chosen = await chooseProvider({ ...env, GEMINI_API_KEY: "k" });
    assert.equal(chosen.provider, "gemini");
    assert.deepEqual(chosen.choice.skipped, [
      { name: "claude", why: "not found" },
      { name: "codex", why: "not signed in" },
    ]);
    assert.equal(
      choiceText(chosen.choice),
      "auto: claude not found, codex not signed in",
    );
    // a codex login on disk: codex is chosen now
    await Deno.mkdir(join(home, ".codex"));
    await Deno.writeTextFile(join(home, ".codex", "auth.json"), "{}");
    assert.equal((await chooseProvider({ ...env, GEMINI_API_KEY: "k" })).provider, "codex");
  });
});

Deno.test("chooseProvider() passes over a program no one may execute", async () => {
  await withMachine(async ({ env, bin }) => {
    await program(bin, "claude", 0o644);
    const chosen = await chooseProvider({ ...env, REVIEW_GATE_VIBE_BIN: join(FAKE, "vibe") });
    assert.equal(chosen.provider, "vibe");
    assert.deepEqual(chosen.choice.skipped[0], { name: "claude", why: "not executable" });
  });
});

Deno.test("chooseProvider() with no CLI: exit 3, one line per provider with its fix", async () => {
  await withMachine(async ({ env }) => {
    const error = await chooseProvider(env).then(
      () => assert.fail("chose a provider on an empty PATH"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof NoProviderError);
    assert.equal(error.exitCode, 3);
    const lines = error.message.split("\n");
    for (const name of PROVIDER_NAMES) {
      const line = lines.find((l) => l.startsWith(`  ${name}: `));
      assert.ok(line, `a line for ${name}`);
      assert.ok(line.includes(providerMeta(name).installHint), line);
      assert.ok(line.includes(providerMeta(name).binEnv), line);
    }
    assert.deepEqual(error.skipped.map((s) => s.name), [...PROVIDER_NAMES]);
  });
});

Deno.test("resolveProvider() leaves a named provider alone and replaces auto", async () => {
  await withMachine(async ({ env }) => {
    // a named provider: nothing is looked up, not even an empty PATH fails
    const named = await resolveProvider({ ...DEFAULT_CONFIG, provider: "codex" }, env);
    assert.equal(named.config.provider, "codex");
    assert.equal(named.choice, undefined);
    const auto = await resolveProvider(DEFAULT_CONFIG, {
      ...env,
      REVIEW_GATE_CLAUDE_BIN: join(FAKE, "claude"),
    });
    assert.equal(auto.config.provider, "claude");
    assert.deepEqual(auto.choice, { auto: true, skipped: [] });
    assert.equal(providerLabel("claude", auto.choice), "claude (auto)");
  });
});
