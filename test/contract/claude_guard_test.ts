/**
 * The guard inside a real Claude Code session: `main.ts install --claude --guard` writes the
 * `PreToolUse` hook on Bash into `.claude/settings.local.json`, then the pinned real `claude -p`
 * runs there against the loopback Anthropic mock, whose scripted model runs an ordinary command,
 * then tries `git push --no-verify` and `REVIEW_GATE=0 git push`. Claude Code must run the first,
 * must not run the other two, must hand the model our reason as each refused tool's error, and must
 * list exactly those two calls under `permission_denials`. Facts: lib/gates/claude/guard.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeEnv, findCli, haveCli, makeRepo, makeSandbox, warn } from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain } from "./harness.ts";
import { bash, startMockAnthropic } from "../../fixtures/mock_model/anthropic.ts";

const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the guard case)`);

Deno.test({
  name:
    "claude -p with --guard installed: the model's git push --no-verify and REVIEW_GATE=0 are refused with our reason, an ordinary command runs",
  ignore: !haveMain || !haveCli("claude"),
  fn: async () => {
    const sb = await makeSandbox();
    const repo = await makeRepo(sb.dir);
    // inside the worktree: --guard also turns on Claude Code's sandbox, whose Bash writes only there
    const marker = join(repo, "COMMAND-RAN");
    const allowedMarker = join(repo, "ALLOWED-RAN");
    const allowed = `touch '${allowedMarker}' && git status --short`;
    const noVerify = `touch '${marker}'; git push --no-verify origin main`;
    const skipVariable = `REVIEW_GATE=0 git push origin main; touch '${marker}'`;
    const mock = startMockAnthropic([
      bash(allowed),
      bash(noVerify),
      bash(skipVariable),
      { kind: "text", text: "I could not push." },
    ]);
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
        [noVerify, skipVariable],
        "only the escapes are refused",
      );
      assert.equal(await exists(allowedMarker), true, "an ordinary command still runs");
      assert.equal(await exists(marker), false, "the refused commands never ran");
      const requests = mock.mainRequests();
      assert.equal(requests.length, 4);
      const lastTurn = (i: number) =>
        JSON.stringify((requests[i].body?.messages as unknown[] | undefined)?.at(-1) ?? {});
      assert.doesNotMatch(lastTurn(1), /"is_error":true|review-gate refused/);
      assert.match(
        lastTurn(2),
        /PreToolUse:Bash hook error: review-gate refused this command: pushing with --no-verify/,
      );
      assert.match(lastTurn(2), /"is_error":true/);
      assert.match(
        lastTurn(3),
        /PreToolUse:Bash hook error: review-gate refused this command: setting REVIEW_GATE/,
      );
      assert.match(lastTurn(3), /"is_error":true/);
    } finally {
      await mock.close();
      await sb.cleanup();
    }
  },
});
