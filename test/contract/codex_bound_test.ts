/**
 * Issue 20 §3 with the real pinned `codex`: codex has no turn cap, so a scripted model that never
 * stops calling its shell would run until the timeout (600 s by default). review-gate counts the
 * tool calls on codex's JSONL stream and stops the child past `max_turns`
 * (lib/session/tool_bound.ts): the review ends at once in `provider-error` with a message naming
 * the bound, and under `on_error: allow` the CI output says the change was NOT reviewed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { codexEnv, findCli, git, haveCli, makeRepo, makeSandbox, writeCodexConfig } from "./env.ts";
import { DENO_DIR, MAIN, NEEDS_ATTENTION } from "./harness.ts";
import { type CodexTurn, startMockOpenAI } from "../../fixtures/mock_model/responses.ts";

/** A model that calls the shell again and again (far more than the bound, far less than 600 s). */
const forever = (): CodexTurn[] =>
  Array.from({ length: 200 }, (_, i) => ({
    kind: "call",
    name: "exec_command",
    args: { cmd: `echo step-${i}` },
  }));

Deno.test({
  name:
    "codex: a model that never stops calling tools is stopped past max_turns, named in the status message; ci --on-error allow says NOT reviewed",
  ignore: !haveCli("codex"),
  async fn() {
    const sb = await makeSandbox();
    const mock = startMockOpenAI();
    try {
      await writeCodexConfig(sb, mock.url);
      const repo = await makeRepo(sb.dir);
      await git(repo, "checkout", "-q", "-b", "feature");
      await Deno.writeTextFile(join(repo, "src", "app.ts"), "export const a = 2;\n");
      await git(repo, "commit", "-q", "-am", "change a");
      const env = {
        ...Deno.env.toObject(),
        ...codexEnv(sb),
        REVIEW_GATE_MAX_TURNS: "3",
        DENO_DIR,
        REVIEW_GATE_CODEX_BIN: findCli("codex") ?? "codex",
        NO_COLOR: "1",
      };
      delete (env as Record<string, string | undefined>).REVIEW_GATE_CHILD;
      const run = async (args: string[]) => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "--allow-all", "--quiet", MAIN, ...args],
          cwd: repo,
          clearEnv: true,
          env,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const d = new TextDecoder();
        return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
      };
      mock.push(...forever(), { kind: "message", text: JSON.stringify(NEEDS_ATTENTION) });
      const started = performance.now();
      const review = await run(["review", "--base", "main", "--provider", "codex", "--json"]);
      const seconds = (performance.now() - started) / 1000;
      const json = JSON.parse(review.stdout);
      assert.equal(json.status, "provider-error", review.stdout + review.stderr);
      assert.equal(review.code, 3);
      assert.match(json.message, /codex started more than 3 tool calls.*max_turns 3/, json.message);
      assert.ok(seconds < 60, `stopped at once, not at the timeout (${seconds} s)`);
      assert.ok(mock.turns().length <= 5, `${mock.turns().length} model requests`);
      const record = JSON.parse(await Deno.readTextFile(join(json.runDir, "run.json")));
      assert.equal(record.attempts.length, 1, "a stopped reviewer is never resumed");
      assert.match(record.attempts[0].message, /max_turns 3/);

      mock.push(...forever());
      const ci = await run(["ci", "--base", "main", "--provider", "codex", "--on-error", "allow"]);
      assert.equal(ci.code, 0, "on_error allow lets it through");
      assert.match(ci.stdout + ci.stderr, /NOT reviewed/);
      assert.match(ci.stdout + ci.stderr, /max_turns 3/);
    } finally {
      await mock.close();
      await sb.cleanup();
    }
  },
});
