/**
 * End-to-end: how `review-gate review` handles every way a provider can misbehave, driven through
 * the fake provider CLIs — prose (one corrective resume of the same session), fenced JSON,
 * schema-invalid twice, truncated JSON, error envelopes, exhausted retries, a hang past
 * `--timeout`, a crash, huge output, non-UTF-8 output and a write into the worktree.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  entriesOf,
  lastRun,
  makeSandbox,
  processAlive,
  type Provider,
  PROVIDERS,
  readFakeLog,
  repoState,
  runCli,
  type Sandbox,
  writeScenario,
} from "./_cli.ts";
import { assertFencedDiff, promptOf, resumedSession } from "./_assert.ts";

async function dirtySandbox(): Promise<Sandbox> {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
  return sandbox;
}

/** Run one review with a scenario and check the invariants every run must keep. */
async function review(
  provider: Provider,
  scenarioOf: string | ((sandbox: Sandbox) => Promise<string>),
  extra: string[] = [],
  setup?: (sandbox: Sandbox) => Promise<void>,
) {
  const sandbox = await dirtySandbox();
  await setup?.(sandbox);
  const scenario = typeof scenarioOf === "string" ? scenarioOf : await scenarioOf(sandbox);
  const before = await repoState(sandbox.repo);
  const result = await runCli(sandbox, ["review", "--provider", provider, ...extra], { scenario });
  const log = await readFakeLog(sandbox);
  const run = await lastRun(sandbox);
  const after = await repoState(sandbox.repo);
  const leftovers = await entriesOf(sandbox.tmp);
  return { sandbox, result, log, run, before, after, leftovers };
}

function assertNotReviewed(stdout: string, status: string): void {
  assert.ok(stdout.startsWith(`review-gate: NOT reviewed — ${status}`), stdout);
  assert.ok(!/approved|needs attention|\[(CRITICAL|HIGH|MEDIUM|LOW)\]/.test(stdout), stdout);
}

/** The session id a resume invocation names. */

for (const provider of PROVIDERS) {
  Deno.test(`review --provider ${provider} resumes the same session once after prose`, async () => {
    const { sandbox, result, log, run, before, after, leftovers } = await review(
      provider,
      "prose,valid",
    );
    try {
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.ok(result.stdout.startsWith("review-gate: approved"));
      assert.equal(log.length, 2, "exactly two invocations");
      assert.equal(resumedSession(log[0]), undefined, "the first call is not a resume");
      assert.equal(
        resumedSession(log[1]),
        log[0].sessionId,
        "the second resumes the first session",
      );
      const corrective = promptOf(log[1]);
      assert.ok(corrective.includes("Your previous answer was refused"), corrective);
      assert.ok(corrective.includes('"verdict"'), "the corrective prompt names the keys");
      assertFencedDiff(promptOf(log[0]), "+export const a = 2;");
      if (provider === "codex") {
        assert.ok(log[1].schemaFile, "the resume gets the schema file again");
        assert.ok(log[1].argv.indexOf("--sandbox") < log[1].argv.indexOf("resume"));
      }
      assert.equal(run.run.status, "approved");
      assert.deepEqual(run.run.attempts.map((a) => a.outcome), ["refused", "answer"]);
      // The fake reports the session's running totals on the resume, like the real CLIs: the run
      // stores them once (two calls), not the sum of both reports (three).
      const ledger = {
        claude: [{ inputTokens: 20, outputTokens: 40 }, 0.00088],
        codex: [
          { inputTokens: 20, outputTokens: 10 },
          undefined,
        ],
        vibe: [undefined, undefined],
        qwen: [{ inputTokens: 20, outputTokens: 40 }, undefined],
        // each attempt reports its own tokens (capabilities.attemptUsage): the run adds them up
        gemini: [{ inputTokens: 20, outputTokens: 40 }, undefined],
        copilot: [{ inputTokens: 20, outputTokens: 40 }, undefined],
        opencode: [{ inputTokens: 20, outputTokens: 40 }, undefined],
      }[provider];
      assert.deepEqual(
        run.run.usage &&
          { inputTokens: run.run.usage.inputTokens, outputTokens: run.run.usage.outputTokens },
        ledger[0],
      );
      assert.equal(run.run.costUsd, ledger[1]);
      for (const n of [1, 2]) {
        for (const ext of ["stdout", "stderr", "json"]) {
          assert.ok(
            run.files.includes(`transcript/attempt-${n}.${ext}`),
            `${n}.${ext} in ${run.files}`,
          );
        }
      }
      assert.ok(run.files.includes("answer.json") && run.files.includes("review.md"));
      assert.deepEqual(after, before);
      assert.deepEqual(leftovers, []);
    } finally {
      await sandbox.cleanup();
    }
  });
}

Deno.test("review accepts a whole-message fenced JSON answer with a note", async () => {
  const { sandbox, result, log, run } = await review("codex", "fenced");
  try {
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(log.length, 1, "no resume for a fenced answer");
    assert.equal(run.run.status, "approved");
    assert.ok(run.run.notes?.some((n) => /fence/i.test(n)), JSON.stringify(run.run.notes));
    assert.ok(run.files.includes("answer.json"));
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review reports invalid-answer (exit 3) after two schema-invalid answers", async () => {
  const { sandbox, result, log, run, before, after } = await review("claude", "schema-invalid");
  try {
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assertNotReviewed(result.stdout, "invalid-answer");
    assert.match(
      result.stdout,
      /^The provider's answer was refused after the corrective resume:\n {2}\S/m,
    );
    for (const { problem } of run.run.refusal ?? []) {
      assert.equal(result.stdout.split(problem).length - 1, 1, `said once: ${problem}`);
    }
    assert.ok(result.stdout.includes("verdict"), "the refusal names the bad key");
    assert.equal(log.length, 2);
    assert.equal(resumedSession(log[1]), log[0].sessionId);
    assert.equal(run.run.status, "invalid-answer");
    assert.ok(run.run.refusal && run.run.refusal.length > 0);
    assert.deepEqual(run.run.attempts.map((a) => a.outcome), ["refused", "refused"]);
    assert.ok(!run.files.includes("answer.json") && !run.files.includes("review.md"));
    assert.ok(run.files.includes("transcript/attempt-2.stdout"));
    assert.deepEqual(after, before);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review refuses truncated JSON without repairing it", async () => {
  const { sandbox, result, log, run } = await review("codex", "truncated");
  try {
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assertNotReviewed(result.stdout, "invalid-answer");
    assert.equal(log.length, 2, "one corrective resume");
    assert.equal(run.run.status, "invalid-answer");
    assert.ok(!run.files.includes("answer.json"));
  } finally {
    await sandbox.cleanup();
  }
});

for (
  const [provider, step, pattern] of [
    ["claude", "error", /API Error: 500/],
    ["codex", "error", /500 Internal Server Error/],
    ["vibe", "error", /API error from mistral/],
    ["claude", "max-retries", /error_max_structured_output_retries|structured output/i],
  ] as const
) {
  Deno.test(`review never resumes a ${provider} ${step} envelope (provider-error, exit 3)`, async () => {
    const { sandbox, result, log, run } = await review(provider, `${step},valid`);
    try {
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assertNotReviewed(result.stdout, "provider-error");
      assert.match(result.stdout, pattern);
      assert.equal(log.length, 1, "never resumed");
      assert.equal(run.run.status, "provider-error");
      assert.match(run.run.message ?? "", pattern);
      assert.deepEqual(run.run.attempts.map((a) => a.outcome), ["error"]);
      assert.ok(!run.files.includes("answer.json") && !run.files.includes("review.md"));
      assert.ok(run.files.includes("transcript/attempt-1.stdout"));
      assert.ok(run.files.includes("transcript/attempt-1.stderr"));
    } finally {
      await sandbox.cleanup();
    }
  });
}

for (const provider of ["claude", "codex"] as const) {
  Deno.test(`review --timeout 2 kills a hanging ${provider} and its process group`, async () => {
    const started = performance.now();
    const { sandbox, result, log, run, leftovers } = await review(provider, "hang", [
      "--timeout",
      "2",
    ]);
    try {
      assert.ok(performance.now() - started < 10_000, "ends soon after the timeout");
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assertNotReviewed(result.stdout, "timeout");
      assert.match(result.stdout, /did not finish within 2 s/);
      assert.equal(log.length, 1);
      const grandchild = log[0].grandchildPid!;
      assert.ok(grandchild > 0);
      assert.equal(await processAlive(grandchild), false, "the grandchild sleep is gone");
      assert.equal(await processAlive(log[0].pid), false, "the provider is gone");
      assert.deepEqual(leftovers, [], "no temp dir left");
      assert.equal(run.run.status, "timeout");
      assert.equal(run.run.attempts[0].outcome, "timeout");
      assert.ok(!run.files.includes("answer.json"));
      assert.ok(run.files.includes("transcript/attempt-1.stdout"));
    } finally {
      await sandbox.cleanup();
    }
  });
}

Deno.test("review reports a crashing provider as provider-error without resuming", async () => {
  const { sandbox, result, log, run } = await review("claude", "crash,valid");
  try {
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assertNotReviewed(result.stdout, "provider-error");
    assert.equal(log.length, 1);
    assert.equal(run.run.status, "provider-error");
    const stdout = await Deno.readTextFile(join(run.dir, "transcript/attempt-1.stdout"));
    assert.ok(stdout.includes('"subtype":"succ'), "the partial output is in the transcript");
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review handles 32 MiB of provider output and keeps it in the transcript", async () => {
  const { sandbox, result, log, run } = await review("claude", "huge");
  try {
    assert.equal(result.code, 0, result.stdout.slice(0, 2000) + result.stderr.slice(0, 2000));
    assert.ok(result.stdout.startsWith("review-gate: approved"));
    assert.ok(result.stdout.length < 10_000, "the padding is not printed");
    assert.equal(log.length, 1);
    const size = (await Deno.stat(join(run.dir, "transcript/attempt-1.stdout"))).size;
    assert.ok(size > 32 * 1024 * 1024, `transcript holds the whole output (${size} bytes)`);
  } finally {
    await sandbox.cleanup();
  }
});

for (const provider of PROVIDERS) {
  Deno.test(`review survives non-UTF-8 output from ${provider} and keeps the raw bytes`, async () => {
    const { sandbox, result, run } = await review(provider, "non-utf8");
    try {
      assert.ok(
        [0, 3].includes(result.code),
        `exit ${result.code}: ${result.stdout}${result.stderr}`,
      );
      assert.ok(!result.stderr.includes("internal error"), result.stderr);
      if (result.code === 3) assertNotReviewed(result.stdout, run.run.status);
      else assert.ok(result.stdout.startsWith("review-gate: approved"));
      const raw = await Deno.readFile(join(run.dir, "transcript/attempt-1.stdout"));
      const at = raw.findIndex((b, i) => b === 0xff && raw[i + 1] === 0xfe);
      assert.ok(at >= 0, "the transcript keeps the invalid bytes as they came");
    } finally {
      await sandbox.cleanup();
    }
  });
}

for (const provider of PROVIDERS) {
  Deno.test(`review flags a ${provider} that writes into its working directory (the private copy)`, async () => {
    const { sandbox, result, log, run } = await review(provider, "write-file");
    try {
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assertNotReviewed(result.stdout, "provider-error");
      assert.match(
        result.stdout,
        /read-only violation.*reviewed copy\/FAKE_PROVIDER_WAS_HERE\.txt/,
      );
      assert.equal(log.length, 1);
      assert.notEqual(log[0].cwd, sandbox.repo.root, "the provider ran in the copy");
      assert.equal(run.run.status, "provider-error");
      assert.match(run.run.message ?? "", /FAKE_PROVIDER_WAS_HERE\.txt/);
      assert.ok(!run.files.includes("answer.json"), "an answer from a violating run is not stored");
      assert.equal(
        await Deno.lstat(join(sandbox.repo.root, "FAKE_PROVIDER_WAS_HERE.txt")).catch(() => null),
        null,
        "the user's repository was not the working directory",
      );
    } finally {
      await sandbox.cleanup();
    }
  });

  Deno.test(`review flags a ${provider} that writes into the user's repository and keeps the file`, async () => {
    let target = "";
    const { sandbox, result, run } = await review(provider, (sandbox) => {
      target = join(sandbox.repo.root, "FAKE_PROVIDER_WAS_HERE.txt");
      return writeScenario(sandbox, "w", [{ kind: "write-file", path: target }]);
    });
    try {
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assertNotReviewed(result.stdout, "provider-error");
      assert.match(
        result.stdout,
        /read-only violation\): FAKE_PROVIDER_WAS_HERE\.txt\. If you changed/,
      );
      assert.equal(run.run.status, "provider-error");
      const kept = await Deno.readTextFile(target);
      assert.equal(kept, "written by the fake provider\n", "the file is not removed");
    } finally {
      await sandbox.cleanup();
    }
  });
}
