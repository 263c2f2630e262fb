/**
 * The guard inside a real Claude Code session: `main.ts install --claude --guard` writes the
 * `PreToolUse` hook on Bash into `.claude/settings.local.json`, then the pinned real `claude -p`
 * runs there against the loopback Anthropic mock, whose scripted model tries `git push
 * --no-verify`. Claude Code must not run the command, must hand the model our reason as the tool's
 * error, and must list the call under `permission_denials`. Facts: lib/gates/claude/guard.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeEnv, findCli, haveCli, makeRepo, makeSandbox, warn } from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain } from "./harness.ts";
import { bash, startMockAnthropic } from "./mock_anthropic.ts";

const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the guard case)`);

Deno.test({
  name:
    "claude -p with --guard installed: the model's git push --no-verify is refused with our reason",
  ignore: !haveMain || !haveCli("claude"),
  fn: async () => {
    const sb = await makeSandbox();
    const repo = await makeRepo(sb.dir);
    const marker = join(sb.dir, "COMMAND-RAN");
    const command = `touch '${marker}'; git push --no-verify origin main`;
    const mock = startMockAnthropic([bash(command), { kind: "text", text: "I could not push." }]);
    try {
      const env = { ...claudeEnv(sb, mock.url), DENO_DIR, NO_COLOR: "1" };
      await runMain(repo, ["install", "--claude", "--guard"], env);
      const child = new Deno.Command(findCli("claude")!, {
        args: [
          "-p",
          "--output-format",
          "json",
          "--permission-mode",
          "acceptEdits",
          "--allowedTools",
          "Bash",
          "--max-turns",
          "4",
        ],
        cwd: repo,
        env: Object.fromEntries(
          Object.entries({ ...Deno.env.toObject(), ...env }).filter(([k]) =>
            k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD"
          ),
        ),
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode("Push the branch, skip the hooks."));
      await writer.close();
      const out = await child.output();
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const envelope = JSON.parse(stdout);
      assert.equal(envelope.subtype, "success", stdout);
      assert.deepEqual(
        envelope.permission_denials.map((d: { tool_input: { command: string } }) =>
          d.tool_input.command
        ),
        [command],
      );
      assert.equal(await exists(marker), false, "the refused command never ran");
      const followUp = JSON.stringify(mock.mainRequests()[1]?.body?.messages ?? []);
      assert.match(
        followUp,
        /PreToolUse:Bash hook error: review-gate refused this command: pushing with --no-verify/,
      );
      assert.match(followUp, /"is_error":true/);
    } finally {
      await mock.close();
      await sb.cleanup();
    }
  },
});
