/**
 * End to end through the CLI: while review-gate's Claude Code plugin is installed and enabled for
 * the project, `install --claude` (and plain `install`) refuses with exit 2 and writes nothing,
 * because the plugin's Stop hook and a settings Stop hook would both review every stop;
 * `install --git` and `uninstall --claude` still work. The plugin's state is the files Claude Code
 * keeps in the user's config dir (lib/install/claude/plugin.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeGateSandbox, runCli } from "./_gates.ts";

Deno.test("install --claude refuses while the review-gate plugin is enabled for the project; --git and uninstall still work", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const cfg = join(sb.env.HOME, ".claude");
  try {
    await Deno.mkdir(join(cfg, "plugins"), { recursive: true });
    await Deno.writeTextFile(
      join(cfg, "plugins", "installed_plugins.json"),
      JSON.stringify({ version: 2, plugins: { "review-gate@rg": [{ scope: "user" }] } }),
    );
    await Deno.writeTextFile(
      join(cfg, "settings.json"),
      JSON.stringify({ enabledPlugins: { "review-gate@rg": true } }),
    );
    for (
      const args of [["install", "--claude"], ["install"], ["install", "--claude", "--dry-run"]]
    ) {
      const refused = await runCli(sb, args);
      assert.equal(refused.code, 2, `${args.join(" ")}: ${refused.stderr}`);
      assert.match(refused.stderr, /review-gate Claude Code plugin is enabled for this project/);
      assert.match(refused.stderr, /claude plugin disable review-gate@rg --scope user/);
      assert.match(refused.stderr, /"review-gate install --git" for the pre-push hook alone/);
      assert.equal(refused.stdout, "");
    }
    assert.equal(await Deno.lstat(join(root, ".claude")).catch(() => null), null);
    assert.equal(await Deno.lstat(join(root, ".git", "hooks", "pre-push")).catch(() => null), null);

    const git = await runCli(sb, ["install", "--git"]);
    assert.equal(git.code, 0, git.stderr);
    assert.ok((await Deno.lstat(join(root, ".git", "hooks", "pre-push"))).isFile);
    const uninstall = await runCli(sb, ["uninstall", "--claude"]);
    assert.equal(uninstall.code, 0, uninstall.stderr);

    // Disabled for this project (local settings override the user's): install goes ahead.
    await Deno.mkdir(join(root, ".claude"));
    await Deno.writeTextFile(
      join(root, ".claude", "settings.local.json"),
      JSON.stringify({ enabledPlugins: { "review-gate@rg": false } }),
    );
    const allowed = await runCli(sb, ["install", "--claude"]);
    assert.equal(allowed.code, 0, allowed.stderr);
    const settings = JSON.parse(
      await Deno.readTextFile(join(root, ".claude", "settings.local.json")),
    );
    assert.ok(JSON.stringify(settings.hooks.Stop).includes("hook claude-stop"));

    // Enabled again for this project with the settings hooks in place: doctor says both run.
    settings.enabledPlugins = { "review-gate@rg": true };
    await Deno.writeTextFile(
      join(root, ".claude", "settings.local.json"),
      JSON.stringify(settings),
    );
    const doctor = await runCli(sb, ["doctor"]);
    assert.match(
      doctor.stdout + doctor.stderr,
      /claude plugin.*"review-gate@rg" is enabled \(local settings\) as well as the hooks in settings/,
    );
  } finally {
    await sb.cleanup();
  }
});
