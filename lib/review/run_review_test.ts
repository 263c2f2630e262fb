import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../config/config.ts";
import { GitError, StoreError } from "../base/errors.ts";
import { type ExecRequest, type ExecResult, runProcess } from "../exec/exec.ts";
import { liveTempDirs } from "../exec/tmpdir.ts";
import { makeTestRepo, type TestRepo } from "../git/test_repo.ts";
import { type Repo, resolveRepo } from "../git/repo.ts";
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
  cache = false,
  resolved?: Repo,
) {
  return runReview(
    {
      cwd: repo.root,
      ...(resolved ? { repo: resolved } : {}),
      kind: "review",
      config: { ...DEFAULT_CONFIG, provider: "claude", cache },
      useCache: cache,
    },
    { runner, env: { REVIEW_GATE_CLAUDE_BIN: FAKE_BIN }, now: () => new Date(), signal },
  );
}

Deno.test("runReview() kills a slow collection git call on abort and never starts the provider", async () => {
  // given the resolved repository, the review snapshots the worktree before it is set up
  for (const given of [false, true]) {
    await dirtyRepo(async (repo) => {
      const resolved = given ? await resolveRepo(runProcess, repo.root) : undefined;
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
      const outcome = await review(repo, runner, controller.signal, false, resolved);
      assert.ok(performance.now() - t0 < 3000, "the abort did not kill the git child");
      assert.equal(outcome.record.status, "interrupted");
      assert.equal(outcome.exitCode, 130);
      assert.ok(!cmds.includes(FAKE_BIN), "the provider was started");
      assert.deepEqual(runDirs(repo), []);
      assert.deepEqual(liveTempDirs(), [], "the private index is left");
    });
  }
});

Deno.test("runReview() returns interrupted between collection and the provider", async () => {
  for (const cache of [true, false]) {
    await dirtyRepo(async (repo) => {
      const controller = new AbortController();
      const ended = new Set<string>();
      const watched = watchedRunner({
        // the abort lands once the last collection calls (the patch and the path filter's
        // check-attr) finished normally: with --no-cache, while the setting prepared ahead is
        // under way; with the cache, once every call ended (the review prepared nothing ahead)
        after: (request, running) => {
          ended.add(subcommand(request));
          const collected = ended.has("diff-tree") && ended.has("check-attr");
          if (collected && (!cache || running === 0)) controller.abort();
        },
      });
      const outcome = await review(repo, watched.runner, controller.signal, cache);
      assert.equal(outcome.record.status, "interrupted");
      assert.equal(outcome.exitCode, 130);
      assert.equal(outcome.record.runDir, "");
      assert.ok(outcome.change && outcome.change.files.length === 1);
      assert.ok(!watched.seen.includes(FAKE_BIN), "the provider was started");
      // with the cache no proof is taken; --no-cache started one ahead
      assert.equal(watched.seen.includes("status"), !cache);
      // --no-cache prepared the call's setting ahead: nothing of it is left
      assert.equal(watched.running(), 0, "a git child is left running");
      assert.deepEqual(liveTempDirs(), [], "the copy is left");
      assert.deepEqual(runDirs(repo), []);
    });
  }
});

/** The git subcommand of a request (`status`, `ls-tree`, …) past the `-c` options, else the program. */
function subcommand(request: ExecRequest): string {
  if (request.cmd !== "git") return request.cmd;
  const args = request.args;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return "";
}

/**
 * A real runner that records each program (git by subcommand), counts the children still running,
 * and calls `after` as each one ends; `fail` makes a git subcommand exit 128 after running.
 */
function watchedRunner(at: {
  after?: (request: ExecRequest, running: number) => void;
  fail?: string;
  provider?: () => ExecResult;
} = {}) {
  const seen: string[] = [];
  let running = 0;
  const runner = async (request: ExecRequest): Promise<ExecResult> => {
    const name = subcommand(request);
    seen.push(name);
    if (request.cmd === FAKE_BIN && at.provider) return at.provider();
    running++;
    try {
      const result = await runProcess(request);
      return name === at.fail ? { ...result, code: 128 } : result;
    } finally {
      running--;
      at.after?.(request, running);
    }
  };
  return { runner, seen, running: () => running };
}

Deno.test("runReview() prepares no proof and no copy where no model is asked: a clean tree, a cache hit, a change the rules exclude", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n", "package-lock.json": "{}\n" });
  try {
    const clean = watchedRunner();
    assert.equal((await review(repo, clean.runner)).record.status, "nothing-to-review");
    assert.deepEqual(clean.seen, ["rev-parse", "add", "write-tree", "diff-tree"]);
    // a lockfile is excluded by default once its content is read (cat-file): NOT reviewed
    await repo.write("package-lock.json", '{"lockfileVersion": 3, "packages": {}}\n');
    const excluded = watchedRunner();
    const outcome = await review(repo, excluded.runner);
    assert.equal(outcome.record.status, "not-reviewed");
    assert.equal(outcome.exitCode, 3);
    assert.match(outcome.record.message ?? "", /every changed file is excluded by rule/);
    assert.deepEqual(excluded.seen.sort(), [
      "add",
      "cat-file",
      "cat-file",
      "diff-tree",
      "rev-parse",
      "write-tree",
    ]);
    await repo.write("a.ts", "export const a = 2;\n");
    const first = watchedRunner({ provider: () => claudeAnswer(BLOCKING) });
    assert.equal(
      (await review(repo, first.runner, undefined, true)).record.status,
      "needs-attention",
    );
    assert.ok(first.seen.includes("ls-tree") && first.seen.includes(FAKE_BIN));
    const hit = watchedRunner();
    const cached = await review(repo, hit.runner, undefined, true);
    assert.equal(cached.record.cached, true);
    assert.deepEqual(hit.seen.sort(), [
      "add",
      "cat-file",
      "cat-file",
      "check-attr",
      "diff-tree",
      "rev-parse",
      "write-tree",
    ]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("runReview() --no-cache ends the setting it prepared ahead when nothing can be shown to the model", async () => {
  const repo = await makeTestRepo({ "a.ts": "export const a = 1;\n" });
  try {
    await Deno.writeFile(join(repo.root, "logo.png"), new Uint8Array([0x89, 0x50, 0, 0, 1, 2]));
    const watched = watchedRunner();
    const outcome = await review(repo, watched.runner);
    assert.equal(outcome.record.status, "not-reviewed");
    assert.equal(outcome.exitCode, 3);
    assert.ok(watched.seen.includes("ls-tree"), "the copy was not started ahead");
    assert.ok(!watched.seen.includes(FAKE_BIN), "the provider was started");
    assert.equal(watched.running(), 0, "a git child is left running");
    assert.deepEqual(liveTempDirs(), [], "the copy is left");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("runReview() --no-cache: a collection error after the listing ends the setting prepared ahead", async () => {
  await dirtyRepo(async (repo) => {
    // the listing reaches the review (the setting starts), then diff-tree fails
    const watched = watchedRunner({ fail: "diff-tree" });
    const error = await review(repo, watched.runner).catch((e) => e);
    assert.ok(error instanceof GitError, String(error));
    assert.ok(watched.seen.includes("status"), "the setting was not started ahead");
    assert.equal(watched.running(), 0, "a git child is left running");
    assert.deepEqual(liveTempDirs(), [], "the copy is left");
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

/** A claude `result` envelope carrying `answer` as structured_output, exit 0. */
function claudeAnswer(answer: unknown): ExecResult {
  const envelope = {
    type: "result",
    subtype: "success",
    is_error: false,
    session_id: "s-1",
    result: "",
    structured_output: answer,
  };
  return {
    code: 0,
    stdout: new TextEncoder().encode(JSON.stringify(envelope) + "\n"),
    stderr: new Uint8Array(),
    durationMs: 1,
    timedOut: false,
    aborted: false,
    truncated: false,
  };
}

const BLOCKING = {
  verdict: "needs-attention",
  summary: "A bug",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "Wrong value",
    body: "a is 2",
    file: "a.ts",
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "Use 1",
  }],
  next_steps: [],
};

Deno.test("runReview() keeps a blocking verdict when the cache and records writes fail", async () => {
  await dirtyRepo(async (repo) => {
    const state = join(repo.root, ".git", "review-gate");
    const runner = async (request: ExecRequest): Promise<ExecResult> => {
      if (request.cmd !== FAKE_BIN) return await runProcess(request);
      // the disk "fills up" while the provider runs: cache/ and records.jsonl cannot be written
      await Deno.remove(join(state, "cache"), { recursive: true });
      await Deno.writeTextFile(join(state, "cache"), "in the way");
      await Deno.mkdir(join(state, "records.jsonl"));
      return claudeAnswer(BLOCKING);
    };
    const outcome = await runReview(
      {
        cwd: repo.root,
        kind: "review",
        config: { ...DEFAULT_CONFIG, provider: "claude", cache: true },
        useCache: true,
      },
      { runner, env: { REVIEW_GATE_CLAUDE_BIN: FAKE_BIN }, now: () => new Date() },
    );
    assert.equal(outcome.record.status, "needs-attention");
    assert.equal(outcome.exitCode, 1);
    assert.equal(outcome.record.blocking, true);
    const warnings = outcome.storeWarnings ?? [];
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.match(warnings[0], /^Cannot write the verdict cache ".*": .*check permissions/);
    assert.match(warnings[1], /^Could not store the records line: /);
    const stored = JSON.parse(await Deno.readTextFile(join(outcome.record.runDir, "run.json")));
    assert.equal(stored.status, "needs-attention");
    assert.ok(stored.notes.includes(warnings[0]));
    await Deno.stat(join(outcome.record.runDir, "answer.json"));
    await Deno.stat(join(outcome.record.runDir, "transcript", "attempt-1.stdout"));
  });
});

Deno.test("runReview() reports a state dir it cannot create as StoreError before the provider", async () => {
  await dirtyRepo(async (repo) => {
    await Deno.writeTextFile(join(repo.root, ".git", "review-gate"), "in the way");
    const cmds: string[] = [];
    const runner = (request: ExecRequest) => {
      cmds.push(request.cmd);
      return runProcess(request);
    };
    const error = await review(repo, runner).catch((e) => e);
    assert.ok(error instanceof StoreError, String(error));
    assert.equal(error.exitCode, 3);
    assert.match(
      error.message,
      /^Cannot write the state directory .*check permissions and free space$/,
    );
    assert.ok(!cmds.includes(FAKE_BIN), "the provider was started");
  });
});

Deno.test("runReview() stores a provider answer nested 10,000 levels deep as invalid-answer", async () => {
  await dirtyRepo(async (repo) => {
    let deep: unknown = [];
    for (let i = 1; i < 10_000; i++) deep = [deep];
    const runner = async (request: ExecRequest): Promise<ExecResult> =>
      request.cmd === FAKE_BIN ? claudeAnswer(deep) : await runProcess(request);
    const outcome = await review(repo, runner);
    assert.equal(outcome.record.status, "invalid-answer");
    assert.equal(outcome.exitCode, 3);
    assert.equal(outcome.record.attempts.length, 2);
    assert.match(outcome.record.message ?? "", /nested 10000 levels deep \(at most 64\)/);
    const stored = JSON.parse(await Deno.readTextFile(join(outcome.record.runDir, "run.json")));
    assert.equal(stored.status, "invalid-answer");
    const transcript = [...Deno.readDirSync(join(outcome.record.runDir, "transcript"))];
    assert.equal(transcript.length, 6);
  });
});

/** A runner that fails `git status --porcelain=v2` (the read-only proof's snapshot) when `fail()` says so. */
function failingSnapshot(fail: () => boolean, provider: () => ExecResult) {
  const calls: string[] = [];
  const runner = async (request: ExecRequest): Promise<ExecResult> => {
    calls.push(request.cmd);
    if (request.cmd === FAKE_BIN) return provider();
    if (request.cmd === "git" && request.args.includes("--porcelain=v2") && fail()) {
      return {
        ...claudeAnswer({}),
        code: 128,
        stdout: new Uint8Array(),
        stderr: new TextEncoder().encode("fatal: bad ref"),
      };
    }
    return await runProcess(request);
  };
  return { runner, calls };
}

Deno.test("runReview() stores a failing after-snapshot as provider-error with the transcript", async () => {
  await dirtyRepo(async (repo) => {
    let answered = false;
    const { runner } = failingSnapshot(() => answered, () => {
      answered = true;
      return claudeAnswer(BLOCKING);
    });
    const outcome = await review(repo, runner);
    assert.equal(outcome.record.status, "provider-error");
    assert.equal(outcome.exitCode, 3);
    assert.match(
      outcome.record.message ?? "",
      /^Could not verify the repository was left unchanged: /,
    );
    assert.equal(outcome.answer, undefined);
    const stored = JSON.parse(await Deno.readTextFile(join(outcome.record.runDir, "run.json")));
    assert.equal(stored.status, "provider-error");
    assert.equal(stored.attempts.length, 1);
    await Deno.stat(join(outcome.record.runDir, "transcript", "attempt-1.stdout"));
    const records = await Deno.readTextFile(
      join(repo.root, ".git", "review-gate", "records.jsonl"),
    );
    assert.match(records, /"status":"provider-error"/);
  });
});

Deno.test("runReview() stores the run as provider-error before rethrowing an error after openRun", async () => {
  await dirtyRepo(async (repo) => {
    // the proof's first snapshot fails: its first take, once the run folder exists, throws it
    const { runner, calls } = failingSnapshot(() => true, () => claudeAnswer(BLOCKING));
    const error = await review(repo, runner).then(() => null, (e) => e);
    assert.ok(error instanceof GitError, String(error));
    assert.ok(!calls.includes(FAKE_BIN), "the provider was started");
    const [dir] = runDirs(repo);
    const stored = JSON.parse(await Deno.readTextFile(join(dir, "run.json")));
    assert.equal(stored.status, "provider-error");
    assert.equal(stored.message, error.message);
    assert.ok(stored.finishedAt);
    const records = await Deno.readTextFile(
      join(repo.root, ".git", "review-gate", "records.jsonl"),
    );
    assert.match(records, /"status":"provider-error"/);
  });
});

Deno.test("runReview() with onPartial block records an approved but partial review as blocking", async () => {
  const repo = await makeTestRepo({
    "a.ts": "export const a = 1;\n",
    "logo.bin": new Uint8Array([0x89, 0x50, 0, 1, 2]),
  });
  try {
    await repo.write("a.ts", "export const a = 2;\n");
    await Deno.writeFile(join(repo.root, "logo.bin"), new Uint8Array([0x89, 0x50, 0, 7, 8, 9]));
    const approve = { verdict: "approve", summary: "Fine", findings: [], next_steps: [] };
    const runner = async (request: ExecRequest): Promise<ExecResult> =>
      request.cmd === FAKE_BIN ? claudeAnswer(approve) : await runProcess(request);
    const blocking: Record<string, boolean> = {};
    for (const onPartial of ["allow", "block"] as const) {
      const outcome = await runReview(
        {
          cwd: repo.root,
          kind: "review",
          config: { ...DEFAULT_CONFIG, provider: "claude", cache: false },
          useCache: false,
          onPartial,
        },
        { runner, env: { REVIEW_GATE_CLAUDE_BIN: FAKE_BIN }, now: () => new Date() },
      );
      assert.equal(outcome.record.status, "approved");
      assert.equal(outcome.record.coverage?.status, "partial", "the binary file was not shown");
      blocking[onPartial] = outcome.record.blocking;
    }
    assert.deepEqual(blocking, { allow: false, block: true }, "the record counts the block");
  } finally {
    await repo.cleanup();
  }
});
