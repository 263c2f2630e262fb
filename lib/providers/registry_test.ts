import assert from "node:assert/strict";
import { UsageError } from "../base/errors.ts";
import { SCHEMA_DIALECTS } from "../answer/types.ts";
import {
  getProvider,
  isProviderName,
  missingBinaryMessage,
  PROVIDER_NAMES,
  providerMeta,
  providerMetas,
  resolveBinary,
} from "./registry.ts";
import { isReviewerVar } from "./reviewer_env.ts";

Deno.test("getProvider() returns the adapter for each name", async () => {
  // the order `provider: "auto"` tries them in (README "Choosing a provider")
  assert.deepEqual(PROVIDER_NAMES, [
    "claude",
    "codex",
    "gemini",
    "qwen",
    "copilot",
    "vibe",
    "opencode",
  ]);
  for (const name of PROVIDER_NAMES) assert.equal((await getProvider(name)).name, name);
});

Deno.test("each adapter carries its folder's meta.ts unchanged", async () => {
  for (const meta of providerMetas()) {
    const adapter = await getProvider(meta.name);
    for (const [key, value] of Object.entries(meta)) {
      assert.deepEqual(adapter[key as keyof typeof adapter], value, `${meta.name}.${key}`);
    }
    assert.equal(providerMeta(meta.name), meta);
  }
});

Deno.test("every provider's meta follows the conventions the gates rely on", () => {
  for (const meta of providerMetas()) {
    // lib/providers/program.ts `providerProgram` finds a program by these two without the registry
    assert.equal(meta.defaultBin, meta.name);
    assert.equal(meta.binEnv, `REVIEW_GATE_${meta.name.toUpperCase()}_BIN`);
    assert.match(meta.name, /^[a-z]+$/);
    assert.ok(SCHEMA_DIALECTS.includes(meta.dialect), meta.name);
    assert.ok(meta.maxPromptBytes === null || meta.maxPromptBytes > 16 * 1024, meta.name);
    for (const prefix of meta.reviewerVars.prefixes) {
      assert.equal(isReviewerVar(`${prefix}SOMETHING`), true, `${meta.name}: ${prefix}`);
    }
    for (const name of meta.reviewerVars.names ?? []) {
      assert.equal(isReviewerVar(name), true, `${meta.name}: ${name}`);
    }
  }
});

Deno.test("isProviderName() accepts registered names only", () => {
  for (const name of PROVIDER_NAMES) assert.equal(isProviderName(name), true, name);
  for (const name of ["", "gpt", "toString", "__proto__", "Claude", "constructor"]) {
    assert.equal(isProviderName(name), false, name);
  }
});

Deno.test("getProvider() refuses an unknown name, listing the choices", async () => {
  await assert.rejects(getProvider("bard"), (e: unknown) => {
    assert.ok(e instanceof UsageError);
    assert.equal(
      e.message,
      'Unknown provider "bard": choose one of "claude", "codex", "gemini", "qwen", "copilot", "vibe", "opencode"',
    );
    assert.equal(e.exitCode, 2);
    return true;
  });
  await assert.rejects(getProvider("toString"), UsageError);
});

Deno.test("resolveBinary() prefers the non-empty env override", async () => {
  const codex = await getProvider("codex");
  assert.equal(resolveBinary(codex, {}), "codex");
  assert.equal(resolveBinary(codex, { REVIEW_GATE_CODEX_BIN: "" }), "codex");
  assert.equal(resolveBinary(codex, { REVIEW_GATE_CODEX_BIN: "/opt/codex" }), "/opt/codex");
  assert.equal(
    resolveBinary(await getProvider("claude"), { REVIEW_GATE_CODEX_BIN: "/opt/codex" }),
    "claude",
  );
  assert.equal(
    resolveBinary(await getProvider("vibe"), { REVIEW_GATE_VIBE_BIN: "/x/vibe" }),
    "/x/vibe",
  );
});

Deno.test("missingBinaryMessage() says how to install or override", async () => {
  assert.equal(
    missingBinaryMessage(await getProvider("codex")),
    'Cannot find "codex": install it with "npm i -g @openai/codex" or set REVIEW_GATE_CODEX_BIN',
  );
  assert.match(
    missingBinaryMessage(await getProvider("claude")),
    /@anthropic-ai\/claude-code.*REVIEW_GATE_CLAUDE_BIN/,
  );
});

Deno.test("resolveBinary() resolves a relative override against the given cwd", async () => {
  const codex = await getProvider("codex");
  assert.equal(
    resolveBinary(codex, { REVIEW_GATE_CODEX_BIN: "tools/codex" }, "/home/u/repo"),
    "/home/u/repo/tools/codex",
  );
  assert.equal(
    resolveBinary(codex, { REVIEW_GATE_CODEX_BIN: "codex-beta" }, "/home/u/repo"),
    "codex-beta",
  );
});

Deno.test("missingBinaryMessage() names an override path that does not exist", async () => {
  assert.equal(
    missingBinaryMessage(await getProvider("claude"), "/nope/claude"),
    'Cannot run "/nope/claude" (from REVIEW_GATE_CLAUDE_BIN): no such executable; fix the path, or unset ' +
      'REVIEW_GATE_CLAUDE_BIN and install "claude" with "npm i -g @anthropic-ai/claude-code"',
  );
});

Deno.test("each provider's install hint is README's install command, pinned where the contract suite pins it", async () => {
  const { PINNED } = await import("../../test/contract/versions.ts");
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const install = readme.slice(readme.indexOf("\n## Install\n"), readme.indexOf("\n## Usage\n"));
  const spans = [...install.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  for (const meta of providerMetas()) {
    assert.ok(spans.includes(meta.installHint), `${meta.name}: README says ${meta.installHint}`);
    const pin = (PINNED as Record<string, { pkg: string; version: string }>)[meta.name];
    const pinned = pin && new RegExp(`${pin.pkg}@`).test(meta.installHint);
    if (pinned) assert.ok(meta.installHint.endsWith(`${pin.pkg}@${pin.version}`), meta.installHint);
  }
  // qwen's newest lines need Node >= 22: the hint must hold the 0.15 line
  assert.equal(
    providerMeta("qwen").installHint,
    `npm i -g ${PINNED.qwen.pkg}@${PINNED.qwen.version}`,
  );
});
