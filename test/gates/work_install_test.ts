/**
 * End to end: `install --claude` writes the `PostToolUse` hook of
 * `gates.claude_stop.review_while_working` (docs/design.md "Review while working") while the
 * setting is on — by default — a later install with it off removes it, uninstall removes it with
 * the rest, and `doctor` says when the setting and the installed hook disagree; `install --codex`
 * likewise, where the setting is off by default.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeGateSandbox, runCli, writeRepoConfig } from "./_gates.ts";

Deno.test("install --claude adds the tool hook while review_while_working is on (the default); doctor names a mismatch", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const path = join(sb.repo.root, ".claude", "settings.local.json");
  try {
    // no config: review_while_working is on by default, so the hook is installed by default
    const installed = await runCli(sb, ["install", "--claude"]);
    assert.equal(installed.code, 0, installed.stderr);
    const settings = JSON.parse(await Deno.readTextFile(path));
    const [group] = settings.hooks.PostToolUse;
    assert.equal(group.matcher, "Edit|Write|MultiEdit|NotebookEdit|Bash");
    assert.match(group.hooks[0].command, / hook claude-work # managed-by: review-gate$/);
    assert.equal(group.hooks[0].timeout, 10);
    const doctor = await runCli(sb, ["doctor"]);
    assert.match(
      doctor.stdout,
      /ok {3}claude hooks \(local\): installed .*reviews while the agent works/,
    );

    await writeRepoConfig(sb, { gates: { claude_stop: { review_while_working: false } } });
    const stale = await runCli(sb, ["doctor"]);
    assert.match(
      stale.stdout,
      /FAIL claude hooks \(local\): the PostToolUse hook of review_while_working is installed/,
    );
    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    assert.equal(JSON.parse(await Deno.readTextFile(path)).hooks.PostToolUse, undefined);

    await writeRepoConfig(sb, null); // back to the default: on
    const missing = await runCli(sb, ["doctor"]);
    assert.match(
      missing.stdout,
      /FAIL claude hooks \(local\): gates\.claude_stop\.review_while_working is on but its PostToolUse hook is not installed/,
    );
    assert.equal((await runCli(sb, ["install", "--claude"])).code, 0);
    assert.equal((await runCli(sb, ["uninstall", "--claude"])).code, 0);
    assert.equal(
      await Deno.lstat(path).then(() => true, () => false),
      false,
      "uninstall removed it all",
    );
  } finally {
    await sb.cleanup();
  }
});

Deno.test("install --codex adds Codex's PostToolUse hook while codex_stop.review_while_working is on (off by default)", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const home = join(sb.dir, "codex-home");
  const env = { CODEX_HOME: home };
  try {
    assert.equal((await runCli(sb, ["install", "--codex"], { env })).code, 0);
    const plain = JSON.parse(await Deno.readTextFile(join(home, "hooks.json"))).hooks;
    assert.deepEqual(Object.keys(plain), ["UserPromptSubmit", "Stop"], "off by default");
    await writeRepoConfig(sb, { gates: { codex_stop: { review_while_working: true } } });
    const installed = await runCli(sb, ["install", "--codex"], { env });
    assert.equal(installed.code, 0, installed.stderr);
    const hooks = JSON.parse(await Deno.readTextFile(join(home, "hooks.json"))).hooks;
    assert.deepEqual(Object.keys(hooks), ["UserPromptSubmit", "Stop", "PostToolUse"]);
    assert.match(
      hooks.PostToolUse[0].hooks[0].command,
      / hook codex-work # managed-by: review-gate$/,
    );
    await writeRepoConfig(sb, null);
    assert.equal((await runCli(sb, ["install", "--codex"], { env })).code, 0);
    const after = JSON.parse(await Deno.readTextFile(join(home, "hooks.json"))).hooks;
    assert.deepEqual(Object.keys(after), ["UserPromptSubmit", "Stop"]);
  } finally {
    await sb.cleanup();
  }
});
