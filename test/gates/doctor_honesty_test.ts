/**
 * End to end: `doctor` does not say "ok" for what cannot work — hooks whose installed command names
 * a program that is gone (a checkout moved after `install`), and a Claude reviewer with no
 * credentials anywhere (no ANTHROPIC_* variable, no `~/.claude/.credentials.json`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeGateSandbox, runCli, writeUserConfig } from "./_gates.ts";
import { MAIN } from "../e2e/_cli.ts";

Deno.test("doctor fails hooks whose installed command names a main.ts that no longer exists", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const installed = await runCli(sb, ["install", "--git", "--claude"]);
    assert.equal(installed.code, 0, installed.stderr);
    const before = await runCli(sb, ["doctor"]);
    assert.match(before.stdout, /ok {3}git pre-push hook: installed and reached/);
    assert.match(before.stdout, /ok {3}claude hooks \(local\): installed/);
    // The checkout review-gate was installed from moves away.
    const gone = join(sb.dir, "moved-away", "main.ts");
    for (
      const file of [
        join(sb.repo.root, ".git/hooks/pre-push"),
        join(sb.repo.root, ".claude/settings.local.json"),
      ]
    ) {
      const text = await Deno.readTextFile(file);
      assert.ok(text.includes(MAIN), `${file} names main.ts`);
      await Deno.writeTextFile(file, text.replaceAll(MAIN, gone));
    }
    const after = await runCli(sb, ["doctor"]);
    assert.equal(after.code, 1, after.stdout);
    assert.match(
      after.stdout,
      /FAIL git pre-push hook: the hook runs ".*moved-away\/main\.ts", which does not exist/,
    );
    assert.match(
      after.stdout,
      /FAIL claude hooks \(local\): the hook runs ".*moved-away\/main\.ts", which does not exist/,
    );
    assert.doesNotMatch(after.stdout, /ok {3}(git pre-push|claude) hook/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("doctor warns that the Claude reviewer has no credentials when ~/.claude is missing and no ANTHROPIC_* is set", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const home = sb.env.HOME!;
    // about the claude reviewer: pinned, since provider "auto" (the default) would pass over a
    // claude without a login to codex's fake and report that one's auth instead
    await writeUserConfig(sb, { provider: "claude" });
    await Deno.remove(join(home, ".claude"), { recursive: true }).catch(() => {});
    const fake = await runCli(sb, ["doctor"]);
    assert.match(fake.stdout, /ok {3}reviewer auth \(claude\): the bundled fake provider/);
    // a reviewer that is not the bundled fake: its credentials are looked for
    const claude = join(sb.dir, "claude");
    await Deno.writeTextFile(claude, "#!/bin/sh\necho 2.1.332\n", { mode: 0o755 });
    const doctor = (env: Record<string, string> = {}) =>
      runCli(sb, ["doctor"], { env: { REVIEW_GATE_CLAUDE_BIN: claude, ...env } });
    const none = await doctor();
    assert.match(none.stdout, /WARN reviewer auth \(claude\): no credentials found/);
    assert.doesNotMatch(none.stdout, /ok {3}reviewer auth/);
    const key = await doctor({ ANTHROPIC_API_KEY: "sk-test" });
    assert.match(
      key.stdout,
      /ok {3}reviewer auth \(claude\): ANTHROPIC_API_KEY from the environment/,
    );
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    // Claude Code creates ~/.claude at its first start: the folder alone is no login
    const folder = await doctor();
    assert.doesNotMatch(folder.stdout, /ok {3}reviewer auth/);
    assert.match(
      folder.stdout,
      Deno.build.os === "darwin"
        ? /WARN reviewer auth \(claude\): unknown: .*system keychain, which review-gate does not read/
        : /WARN reviewer auth \(claude\): no credentials found: .*\.credentials\.json" does not exist/,
    );
    await Deno.writeTextFile(join(home, ".claude", ".credentials.json"), "{}");
    const login = await doctor();
    assert.match(
      login.stdout,
      /ok {3}reviewer auth \(claude\): Claude Code's own login \(.*\.credentials\.json\)/,
    );
  } finally {
    await sb.cleanup();
  }
});
