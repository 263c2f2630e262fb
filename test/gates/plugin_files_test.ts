/**
 * The Claude Code plugin's own files (`.claude-plugin/`, `hooks/hooks.json`, `commands/*.md`,
 * `bin/review-gate`) stay consistent with the code: the manifest's version is `deno.json`'s (the
 * git-marketplace cache is per version), the hooks call the launcher with `--source plugin` and the
 * Stop timeout the gate keeps its deadline under, every command's `!` step cannot fail (a non-zero
 * exit would drop the command without asking the model) and is allowed to run review-gate; the
 * launcher passes shellcheck, runs this checkout's main.ts, skips hooks inside a review child, and
 * without deno uses a review-gate binary on PATH — never itself — or says the turn was NOT reviewed.
 * The real Claude Code loads all of it in test/contract/claude_plugin_test.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import plugin from "../../.claude-plugin/plugin.json" with { type: "json" };
import marketplace from "../../.claude-plugin/marketplace.json" with { type: "json" };
import hooks from "../../hooks/hooks.json" with { type: "json" };
import { PLUGIN_STOP_TIMEOUT_SECONDS } from "../../lib/gates/claude/door.ts";
import { PLUGIN_NAME } from "../../lib/install/claude/plugin.ts";
import { CLAUDE_WORK } from "../../lib/install/claude/settings.ts";
import { assertShellcheckClean } from "../../lib/git/_testing.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const LAUNCHER = join(ROOT, "bin", "review-gate");

Deno.test("plugin manifest and marketplace name review-gate at deno.json's version, the repo root as source", () => {
  assert.equal(plugin.name, PLUGIN_NAME);
  assert.equal(plugin.version, denoJson.version);
  assert.equal(marketplace.plugins.length, 1);
  assert.deepEqual([marketplace.plugins[0].name, marketplace.plugins[0].source], [
    PLUGIN_NAME,
    "./",
  ]);
});

Deno.test("hooks.json runs the launcher with --source plugin and the Stop timeout the gate expects", () => {
  const stop = hooks.hooks.Stop[0].hooks[0];
  const prompt = hooks.hooks.UserPromptSubmit[0].hooks[0];
  assert.equal(
    stop.command,
    `"\${CLAUDE_PLUGIN_ROOT}/bin/review-gate" hook claude-stop --source plugin`,
  );
  assert.equal(
    prompt.command,
    `"\${CLAUDE_PLUGIN_ROOT}/bin/review-gate" hook claude-prompt --source plugin`,
  );
  assert.equal(stop.timeout, PLUGIN_STOP_TIMEOUT_SECONDS);
});

Deno.test("hooks.json carries the PostToolUse hook of review_while_working as install --claude writes it", () => {
  // docs/design.md "Review while working": on by default, so plugin users get the tool hook too
  const groups = (hooks.hooks as Record<string, unknown>)[CLAUDE_WORK.event] as
    | { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]
    | undefined;
  assert.ok(groups, `hooks.json has no ${CLAUDE_WORK.event} hook`);
  assert.equal(groups.length, 1);
  assert.equal(groups[0].matcher, CLAUDE_WORK.matcher);
  assert.deepEqual(groups[0].hooks, [{
    type: "command",
    command: `"\${CLAUDE_PLUGIN_ROOT}/bin/review-gate" hook ${CLAUDE_WORK.hook} --source plugin`,
    timeout: CLAUDE_WORK.timeoutSeconds,
  }]);
});

Deno.test("every slash command runs review-gate in a step that cannot fail, and may run it", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "commands"))) names.push(entry.name);
  assert.deepEqual(names.sort(), [
    "cancel.md",
    "compliance.md",
    "jobs.md",
    "result.md",
    "review.md",
    "status.md",
  ]);
  for (const name of names) {
    const text = await Deno.readTextFile(join(ROOT, "commands", name));
    const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? "";
    assert.match(front, /^description: \S/m, name);
    assert.match(front, /^allowed-tools: Bash\(review-gate:\*\)$/m, name);
    const steps = [...text.matchAll(/!`([^`]*)`/g)].map((m) => m[1]);
    assert.equal(steps.length, 1, `${name}: one step (several run in no fixed order)`);
    assert.match(steps[0], /^review-gate [a-z]+( --plan)? \$ARGUMENTS \|\| true$/, name);
  }
});

async function launch(
  args: string[],
  env: Record<string, string>,
  stdin = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(LAUNCHER, {
    args,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  } catch (error) {
    // a hook that answers without reading stdin (REVIEW_GATE_CHILD) may exit before the write
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
  const out = await child.output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

Deno.test("the launcher passes shellcheck and runs this checkout's main.ts with deno", async () => {
  await assertShellcheckClean(await Deno.readTextFile(LAUNCHER));
  assert.ok(((await Deno.stat(LAUNCHER)).mode ?? 0) & 0o111, "executable");
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };
  const denoDir = Deno.env.get("DENO_DIR");
  const out = await launch(["--version"], denoDir ? { ...env, DENO_DIR: denoDir } : env);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), denoJson.version);
  const child = await launch(["hook", "claude-stop"], { ...env, REVIEW_GATE_CHILD: "1" }, "{}");
  assert.deepEqual([child.code, child.stdout, child.stderr], [0, "", ""]);
});

Deno.test("without deno the launcher uses a review-gate on PATH, never itself, or says NOT reviewed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "rg-launcher-" });
  try {
    const tools = join(dir, "tools");
    await Deno.mkdir(tools);
    for (const tool of ["dirname"]) {
      await Deno.symlink(await Deno.realPath(`/usr/bin/${tool}`), join(tools, tool));
    }
    // only the plugin's own bin/ holds a review-gate: it must not exec itself
    const selfOnly = { PATH: `${tools}:${join(ROOT, "bin")}` };
    const stop = await launch(["hook", "claude-stop"], selfOnly, "{}");
    assert.equal(stop.code, 0);
    assert.match(JSON.parse(stop.stdout).systemMessage, /this turn was NOT reviewed/);
    const prompt = await launch(["hook", "claude-prompt"], selfOnly, "{}");
    assert.deepEqual([prompt.code, prompt.stdout], [0, ""]);
    const review = await launch(["review"], selfOnly);
    assert.equal(review.code, 2);
    assert.match(review.stderr, /neither deno nor a review-gate binary is on PATH/);
    // a compiled review-gate elsewhere on PATH is used
    const other = join(dir, "other");
    await Deno.mkdir(other);
    await Deno.writeTextFile(join(other, "review-gate"), '#!/bin/sh\necho "compiled $*"\n');
    await Deno.chmod(join(other, "review-gate"), 0o755);
    const found = await launch(["status", "--wait"], {
      PATH: `${tools}:${join(ROOT, "bin")}:${other}`,
    });
    assert.deepEqual([found.code, found.stdout], [0, "compiled status --wait\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
