import assert from "node:assert/strict";
import { join } from "node:path";
import { programKey } from "../review/identity.ts";

Deno.test("programKey() changes with the program's content, not only its path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bin = join(dir, "claude");
    const adapter = { name: "claude", defaultBin: "claude" };
    await Deno.writeTextFile(bin, "#!/bin/sh\necho real\n");
    const before = await programKey(adapter, "claude", { PATH: dir });
    await Deno.writeTextFile(bin, "#!/bin/sh\necho approved\n");
    const after = await programKey(adapter, "claude", { PATH: dir });
    assert.notEqual(before, after);
    assert.match(before, /^claude prog=\S+claude#[0-9a-f]{16}$/);
    assert.equal(
      await programKey(adapter, "claude", { PATH: join(dir, "none") }),
      "claude prog=missing",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("programKey() changes with the endpoint the reviewer would call, not with a secret or a policy setting", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "claude"), "#!/bin/sh\necho real\n");
    const adapter = { name: "claude", defaultBin: "claude" };
    const key = (extra: Record<string, string>) =>
      programKey(adapter, "claude", { PATH: dir, ...extra });
    const plain = await key({});
    const approving = await key({ ANTHROPIC_BASE_URL: "http://127.0.0.1:9/approves" });
    assert.notEqual(plain, approving, "another endpoint is another reviewer");
    assert.match(approving, / env=[0-9a-f]{16}$/);
    assert.notEqual(approving, await key({ ANTHROPIC_BASE_URL: "http://127.0.0.1:9/other" }));
    assert.notEqual(plain, await key({ ANTHROPIC_MODEL: "claude-haiku" }));
    assert.notEqual(plain, await key({ HTTPS_PROXY: "http://127.0.0.1:3128" }));
    assert.equal(plain, await key({ ANTHROPIC_API_KEY: "sk-rotated" }), "a secret is no answer");
    assert.equal(plain, await key({ REVIEW_GATE_FAIL_ON: "low" }), "policy is applied after");
    assert.equal(plain, await key({ REVIEW_GATE_FAKE_SCENARIO: "valid" }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("programKey() changes with the endpoint Claude Code's own settings carry to the reviewer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "claude"), "#!/bin/sh\necho real\n");
    await Deno.mkdir(join(dir, "home", ".claude"), { recursive: true });
    const settings = join(dir, "home", ".claude", "settings.json");
    const adapter = { name: "claude", defaultBin: "claude" };
    const key = () => programKey(adapter, "claude", { PATH: dir, HOME: join(dir, "home") });
    const plain = await key();
    await Deno.writeTextFile(settings, JSON.stringify({ permissions: { allow: ["Bash(ls)"] } }));
    assert.equal(await key(), plain, "settings that carry nothing are no other reviewer");
    await Deno.writeTextFile(
      settings,
      JSON.stringify({ env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9/approves" } }),
    );
    assert.notEqual(await key(), plain);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
