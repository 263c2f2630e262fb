import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../config.ts";
import { type ExecRequest, type ExecResult, runProcess } from "../exec.ts";
import { makeTestRepo, type TestRepo } from "../git/test_repo.ts";
import { runReview } from "./run_review.ts";

const FAKE_BIN = "/nonexistent/review-gate-test-claude";

async function dirtyRepo(fn: (repo: TestRepo) => Promise<void>): Promise<void> {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    await repo.write("a.ts", "export const a = 2;\n");
    await fn(repo);
  } finally {
    await repo.cleanup();
  }
}

function runDirs(repo: TestRepo): string[] {
  try {
    return [...Deno.readDirSync(join(repo.root, ".git", "review-gate", "runs"))].map((e) =>
      join(repo.root, ".git", "review-gate", "runs", e.name)
    );
  } catch {
    return [];
  }
}

function review(
  repo: TestRepo,
  runner: (r: ExecRequest) => Promise<ExecResult>,
  signal?: AbortSignal,
) {
  return runReview(
    {
      cwd: repo.root,
      kind: "review",
      config: { ...DEFAULT_CONFIG, cache: false },
      useCache: false,
    },
    { runner, env: { REVIEW_GATE_CLAUDE_BIN: FAKE_BIN }, now: () => new Date(), signal },
  );
}

Deno.test("runReview() kills a slow collection git call on abort and never starts the provider", async () => {
  await dirtyRepo(async (repo) => {
    const controller = new AbortController();
    const cmds: string[] = [];
    const runner = (request: ExecRequest) => {
      cmds.push(request.cmd);
      if (request.cmd === "git" && request.args.includes("add")) {
        // stand-in for `git add -A` over 60k untracked files; Ctrl-C arrives meanwhile
        setTimeout(() => controller.abort(), 100);
        return runProcess({ ...request, cmd: "sleep", args: ["5"] });
      }
      return runProcess(request);
    };
    const t0 = performance.now();
    const outcome = await review(repo, runner, controller.signal);
    assert.ok(performance.now() - t0 < 3000, "the abort did not kill the git child");
    assert.equal(outcome.record.status, "interrupted");
    assert.equal(outcome.exitCode, 130);
    assert.ok(!cmds.includes(FAKE_BIN), "the provider was started");
    assert.deepEqual(runDirs(repo), []);
  });
});

Deno.test("runReview() returns interrupted between collection and the provider", async () => {
  await dirtyRepo(async (repo) => {
    const controller = new AbortController();
    const cmds: string[][] = [];
    const runner = async (request: ExecRequest) => {
      cmds.push([request.cmd, ...request.args]);
      const result = await runProcess(request);
      // the abort lands while the last collection call finishes normally
      if (request.args.includes("--raw")) controller.abort();
      return result;
    };
    const outcome = await review(repo, runner, controller.signal);
    assert.equal(outcome.record.status, "interrupted");
    assert.equal(outcome.exitCode, 130);
    assert.equal(outcome.record.runDir, "");
    assert.ok(outcome.change && outcome.change.files.length === 1);
    assert.ok(!cmds.some((c) => c[0] === FAKE_BIN), "the provider was started");
    assert.ok(!cmds.some((c) => c.includes("ls-files")), "the read-only proof was taken");
    assert.deepEqual(runDirs(repo), []);
  });
});

Deno.test("runReview() writes run.json as running before the provider starts, final at the end", async () => {
  await dirtyRepo(async (repo) => {
    let seen: string | undefined;
    const runner = async (request: ExecRequest): Promise<ExecResult> => {
      if (request.cmd !== FAKE_BIN) return await runProcess(request);
      const [dir] = runDirs(repo);
      seen = JSON.parse(await Deno.readTextFile(join(dir, "run.json"))).status;
      const fail = new TextEncoder().encode("boom");
      return {
        code: 1,
        stdout: new Uint8Array(),
        stderr: fail,
        durationMs: 1,
        timedOut: false,
        aborted: false,
        truncated: false,
      };
    };
    const outcome = await review(repo, runner);
    assert.equal(seen, "running");
    assert.equal(outcome.record.status, "provider-error");
    const stored = JSON.parse(await Deno.readTextFile(join(outcome.record.runDir, "run.json")));
    assert.equal(stored.status, "provider-error");
    assert.ok(stored.finishedAt);
  });
});
