import assert from "node:assert/strict";
import { join } from "node:path";
import { type ExecRequest, runProcess } from "../../exec/exec.ts";
import { commitFile, git, makeRepo } from "../../git/_testing.ts";
import { resolveRepo } from "../../git/repo.ts";
import { loadConfig } from "../../config/config.ts";
import { reviewTurn } from "./review.ts";

Deno.test("reviewTurn: the Stop deadline passing before the provider starts is 'too large to review' (not reviewed), not 'interrupted'", async () => {
  const { dir, repo: root, cleanup } = await makeRepo();
  try {
    const baseline = await git(root, ["rev-parse", "HEAD^{tree}"]);
    await commitFile(root, "a.ts", "export const a = 1;\n", "a");
    const current = await git(root, ["rev-parse", "HEAD^{tree}"]);
    const env = {
      HOME: join(dir, "home"),
      XDG_STATE_HOME: join(dir, "state"),
      PATH: Deno.env.get("PATH"),
    };
    const repo = await resolveRepo(runProcess, root);
    // a named provider: "auto" would find none on this PATH before the deadline is reached
    const config = { ...(await loadConfig({ root, env })).config, provider: "claude" as const };
    // Collection is slow: every git call waits until the deadline has passed.
    const slow = async (request: ExecRequest) => {
      if (request.cmd === "git") await new Promise((r) => setTimeout(r, 1500));
      return await runProcess(request);
    };
    const { verdict, couldNotRun } = await reviewTurn(
      { stdinText: "", env, cwd: root, runner: slow, now: () => new Date() },
      {
        repo,
        config,
        baseline,
        current,
        deadline: Date.now() + 1000,
        label: "this turn's changes",
        gate: "claude-stop",
      },
    );
    assert.equal(couldNotRun, true);
    assert.equal(verdict.status, "not-reviewed", JSON.stringify(verdict));
    assert.match(String(verdict.message), /too large to review in the hook's time/);
    assert.match(String(verdict.message), /ran out of time before the provider started/);
    assert.match(String(verdict.message), /gates\.claude_stop\.timeout_seconds/);
  } finally {
    await cleanup();
  }
});
