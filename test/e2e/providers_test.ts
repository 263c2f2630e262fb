/**
 * End-to-end: `review-gate review` against each provider (the fake claude, codex and vibe CLIs) ×
 * approve / blocking needs-attention / non-blocking medium. Asserts exit code, stdout/stderr, the
 * run folder, what the provider was sent, and that index, HEAD and worktree are untouched.
 *
 * @module
 */
import assert from "node:assert/strict";
import { assertFencedDiff, assertFirstCallArgv, promptOf } from "./_assert.ts";
import {
  entriesOf,
  lastRun,
  makeSandbox,
  PROVIDERS,
  readFakeLog,
  repoState,
  runCli,
  type Sandbox,
  writeScenario,
} from "./_cli.ts";

const SOURCE = Array.from({ length: 20 }, (_, i) => `export const v${i} = ${i};`).join("\n") + "\n";

function finding(severity: string, confidence = 0.9) {
  return {
    severity,
    category: "bug",
    scope: "introduced",
    title: `A ${severity} problem`,
    body: "Something is wrong here.",
    file: "src/app.ts",
    line_start: 3,
    line_end: 4,
    confidence,
    recommendation: "Fix it.",
  };
}

const CASES = [
  {
    name: "approve",
    answer: { verdict: "approve", summary: "Looks good.", findings: [], next_steps: [] },
    code: 0,
    status: "approved",
    headline: "review-gate: approved — 0 findings",
  },
  {
    name: "blocking high",
    answer: {
      verdict: "needs-attention",
      summary: "A real bug.",
      findings: [finding("high"), finding("low", 0.4)],
      next_steps: ["Fix the bug"],
    },
    code: 1,
    status: "needs-attention",
    headline: "review-gate: needs attention — 2 findings, 1 blocking",
  },
  {
    name: "non-blocking medium",
    answer: {
      verdict: "needs-attention",
      summary: "A small thing.",
      findings: [finding("medium")],
      next_steps: [],
    },
    code: 0,
    status: "needs-attention",
    headline: "review-gate: needs attention — 1 finding (",
  },
] as const;

async function dirtySandbox(): Promise<Sandbox> {
  const sandbox = await makeSandbox({ "src/app.ts": SOURCE, "README.md": "hello\n" });
  await sandbox.repo.write("src/app.ts", SOURCE.replace("v3 = 3", "v3 = 33"));
  await sandbox.repo.write("notes.txt", "an untracked file\n");
  return sandbox;
}

for (const provider of PROVIDERS) {
  Deno.test(`review --provider ${provider}: approve, blocking and non-blocking answers`, async (t) => {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const sandbox = await dirtySandbox();
        try {
          const scenario = await writeScenario(sandbox, "s", [{ kind: "valid", answer: c.answer }]);
          const before = await repoState(sandbox.repo);
          const result = await runCli(sandbox, ["review", "--provider", provider], { scenario });
          assert.equal(result.code, c.code, result.stderr + result.stdout);
          assert.equal(result.stderr, "", "stderr is silent when it is not a TTY");
          assert.ok(result.stdout.startsWith(c.headline), result.stdout);
          assert.ok(result.stdout.includes(c.answer.summary));
          if (c.answer.findings.length > 0) assert.ok(result.stdout.includes("src/app.ts:3-4"));
          assert.deepEqual(
            await repoState(sandbox.repo),
            before,
            "index, HEAD, worktree unchanged",
          );
          assert.deepEqual(await entriesOf(sandbox.tmp), [], "no temp dir left");

          const log = await readFakeLog(sandbox);
          assert.equal(log.length, 1, "exactly one provider call");
          assertFirstCallArgv(provider, log[0], sandbox.repo.root);
          const diff = assertFencedDiff(promptOf(log[0]), "+export const v3 = 33;");
          assert.ok(diff.includes("notes.txt"), "the untracked file is reviewed");

          const run = await lastRun(sandbox);
          assert.ok(result.stdout.includes(`Run folder: ${run.dir}`));
          assert.equal(run.run.status, c.status);
          assert.equal(run.run.provider, provider);
          assert.equal(run.run.blocking, c.code === 1);
          assert.equal(run.run.cached, false);
          assert.equal(run.run.target.kind, "worktree");
          assert.equal(run.run.coverage?.status, "complete");
          assert.equal(run.run.attempts.length, 1);
          assert.equal(run.run.attempts[0].outcome, "answer");
          if (provider !== "vibe") assert.equal(run.run.sessionId, log[0].sessionId);
          assert.deepEqual(run.answer, c.answer);
          assert.ok(run.reviewMd?.includes(c.answer.summary));
          for (const f of ["answer.json", "review.md", "run.json", "transcript/attempt-1.stdout"]) {
            assert.ok(run.files.includes(f), `${f} in ${run.files}`);
          }
          assert.ok(run.files.includes("transcript/attempt-1.stderr"));
        } finally {
          await sandbox.cleanup();
        }
      });
    }
  });
}
