/**
 * End-to-end: `review-gate eval` run as a user runs it, over the shipped suite and suites of a
 * user's own, with the fake's scripted reviewers (fixtures/fake/README.md "Scenario file") — each
 * gives exact, known scores (docs/eval.md "Scripted reviewers"), so a change to the suite, the
 * review pipeline or the scoring that moves one is seen here. The record is checked against its
 * published schema; every eval leaves no temp folder behind.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import reportSchema from "../../schemas/eval_report.schema.json" with { type: "json" };
import type { EvalReport, Scores } from "../../lib/eval/record.ts";
import { FAKE_BIN, FIXTURES, makeSandbox, readFakeLog, runCli, type Sandbox } from "./_cli.ts";

const SCENARIOS = `${FIXTURES}/fake/scenarios`;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(reportSchema);

/** The record of an eval run with `--format json` on stdout, checked against its schema. */
async function evalRecord(
  sandbox: Sandbox,
  args: string[],
  env: Record<string, string> = {},
): Promise<EvalReport> {
  const result = await runCli(sandbox, ["eval", "--format", "json", ...args], { env });
  assert.equal(result.code, 0, result.stderr.slice(-3000));
  const record: unknown = JSON.parse(result.stdout);
  assert.ok(validate(record), JSON.stringify(validate.errors?.slice(0, 3), null, 2));
  assert.deepEqual([...Deno.readDirSync(sandbox.tmp)], [], "no temp folder left behind");
  return record as unknown as EvalReport;
}

/** The counts of a column's scores that a scripted reviewer fixes exactly. */
function counts(s: Scores) {
  return {
    runs: s.runs,
    defects: s.defects,
    lineHits: s.lineHits,
    fileHits: s.fileHits,
    blockedDefectRuns: s.blockedDefectRuns,
    cleanRuns: s.cleanRuns,
    falseBlocks: s.falseBlocks,
    findings: s.findings,
    hallucinated: s.hallucinated,
    invalidAnswers: s.invalidAnswers,
    couldNotRun: s.couldNotRun,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    costUsd: s.costUsd === null ? null : Number(s.costUsd.toFixed(8)),
    fakeRuns: s.fakeRuns,
  };
}

Deno.test("eval of the shipped suite: three scripted reviewers side by side give their exact scores", async () => {
  const sandbox = await makeSandbox();
  try {
    const record = await evalRecord(sandbox, ["--providers", "claude,codex,vibe", "--jobs", "2"], {
      REVIEW_GATE_FAKE_SCENARIO_CLAUDE: `${SCENARIOS}/first_changed_line.json`,
      REVIEW_GATE_FAKE_SCENARIO_CODEX: `${SCENARIOS}/finds_nothing.json`,
      REVIEW_GATE_FAKE_SCENARIO_VIBE: `${SCENARIOS}/flags_every_line.json`,
    });
    assert.deepEqual(
      { cases: record.suite.cases, clean: record.suite.clean, languages: record.suite.languages },
      {
        cases: 44,
        clean: 15,
        languages: ["go", "java", "javascript", "python", "rust", "shell", "typescript"],
      },
    );
    const [first, nothing, every] = record.providers;
    assert.deepEqual(record.providers.map((p) => p.label), ["claude", "codex", "vibe"]);
    const suite = { runs: 44, defects: 29, cleanRuns: 15, invalidAnswers: 0, couldNotRun: 0 };
    // the first added line: in the defect's file for 27 of 29 cases, on its lines for 3; it
    // blocks every change that adds a line (all 44)
    assert.deepEqual(counts(first.scores), {
      ...suite,
      lineHits: 3,
      fileHits: 27,
      blockedDefectRuns: 29,
      falseBlocks: 15,
      findings: 44,
      hallucinated: 0,
      inputTokens: 440,
      outputTokens: 880,
      costUsd: null, // the bundled fake's made-up cost is never counted as spend
      fakeRuns: 44,
    });
    assert.deepEqual(counts(nothing.scores), {
      ...suite,
      lineHits: 0,
      fileHits: 0,
      blockedDefectRuns: 0,
      falseBlocks: 0,
      findings: 0,
      hallucinated: 0,
      inputTokens: 440,
      outputTokens: 220,
      costUsd: null, // codex reports no cost: not 0
      fakeRuns: 44,
    });
    assert.deepEqual(counts(every.scores), {
      ...suite,
      lineHits: 29,
      fileHits: 29,
      blockedDefectRuns: 29,
      falseBlocks: 15,
      findings: 260,
      hallucinated: 0,
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
      fakeRuns: 44,
    });
    assert.equal(first.scores.lineRecall, 3 / 29);
    assert.equal(every.scores.falseBlockRate, 1);
    assert.equal(nothing.scores.findingsPerCase, 0);
    const kind = (k: string) => first.kinds.find((x) => x.kind === k);
    assert.deepEqual([kind("missing-await")?.lineHits, kind("off-by-one")?.lineHits], [2, 1]);
    const calls = await readFakeLog(sandbox);
    assert.deepEqual(
      ["claude", "codex", "vibe"].map((cli) => calls.filter((c) => c.cli === cli).length),
      [44, 44, 44],
      "one model call per case and provider: no cached verdict, no resume",
    );
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("eval with the hallucinating reviewer: every finding on an untouched line, none blocks", async () => {
  const sandbox = await makeSandbox();
  try {
    const record = await evalRecord(sandbox, ["--provider", "claude", "--jobs", "2"], {
      REVIEW_GATE_FAKE_SCENARIO: `${SCENARIOS}/hallucinates.json`,
    });
    assert.deepEqual(counts(record.providers[0].scores), {
      runs: 44,
      defects: 29,
      cleanRuns: 15,
      invalidAnswers: 0,
      couldNotRun: 0,
      lineHits: 0,
      fileHits: 27, // the line it names is in the defect's file, not on the defect
      blockedDefectRuns: 0, // pre-existing: the default policy does not block on it
      falseBlocks: 0,
      findings: 44,
      hallucinated: 44,
      inputTokens: 440,
      outputTokens: 880,
      costUsd: null,
      fakeRuns: 44,
    });
    assert.equal(record.providers[0].scores.hallucinationRate, 1);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a prompt that loses the second file's context changes the score: recall 1/1, then 0/1", async () => {
  const sandbox = await makeSandbox();
  const args = ["--provider", "claude", "--cases", "ts/cross-file-context"];
  const env = { REVIEW_GATE_FAKE_SCENARIO: `${SCENARIOS}/finds_with_context.json` };
  try {
    // the reviewer finds the bug only when src/config.ts ("SESSION_TTL … // seconds") is in the
    // prompt beside src/session.ts, as the review pipeline sends it
    const full = await evalRecord(sandbox, args, env);
    assert.deepEqual([full.providers[0].scores.lineHits, full.providers[0].scores.defects], [1, 1]);
    assert.equal(full.providers[0].runs[0].blocking, true);
    // a pipeline that drops that file from the prompt — here the config's exclude does — loses it
    const config = join(sandbox.dir, "config", "review-gate");
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(join(config, "config.json"), '{ "exclude": ["src/config.ts"] }');
    const dropped = await evalRecord(sandbox, args, env);
    assert.deepEqual(
      [dropped.providers[0].scores.lineHits, dropped.providers[0].scores.defects],
      [0, 1],
    );
    assert.equal(dropped.providers[0].runs[0].status, "approved");
    const prompts = (await readFakeLog(sandbox)).map((c) => c.stdin ?? "");
    assert.deepEqual(prompts.map((p) => p.includes("SESSION_TTL = 30 * 60; // seconds")), [
      true,
      false,
    ]);
  } finally {
    await sandbox.cleanup();
  }
});

/**
 * A claude CLI outside the bundled fake's folder that runs the fake: review-gate takes it for a
 * real provider, so the cost it reports counts (the bundled fake's never does).
 */
async function pricedClaude(sandbox: Sandbox): Promise<string> {
  const bin = join(sandbox.dir, "priced-claude");
  await Deno.writeTextFile(bin, `#!/bin/sh\nexec "${FAKE_BIN}/claude" "$@"\n`);
  await Deno.chmod(bin, 0o755);
  return bin;
}

Deno.test("--budget starts no run once the reported cost reaches it, and every format says PARTIAL", async () => {
  const sandbox = await makeSandbox();
  try {
    const html = join(sandbox.dir, "out", "eval.html");
    const result = await runCli(sandbox, [
      "eval",
      "--provider",
      "claude",
      "--cases",
      "ts/*",
      "--budget",
      "0.001",
      "--format",
      "terminal",
      "--format",
      "json",
      "--output",
      join(sandbox.dir, "out", "eval.json"),
      "--format",
      "html",
      "--output",
      html,
    ], {
      scenario: `${SCENARIOS}/first_changed_line.json`,
      env: { REVIEW_GATE_CLAUDE_BIN: await pricedClaude(sandbox) },
    });
    assert.equal(result.code, 0, result.stderr);
    const record = JSON.parse(
      await Deno.readTextFile(join(sandbox.dir, "out", "eval.json")),
    ) as EvalReport;
    // 0.00044 a call: the third run reaches 0.001, and the six other ts/ runs never start
    assert.deepEqual(record.stopped, { reason: "budget", notRun: 6 });
    assert.equal(record.providers[0].scores.runs, 3);
    assert.equal((await readFakeLog(sandbox)).length, 3);
    assert.match(result.stdout, /PARTIAL: 6 runs did not run \(stopped by --budget\)/);
    assert.match(result.stdout, /stopped by --budget 0\.001 USD after 0\.0013 USD reported/);
    assert.match(await Deno.readTextFile(html), /<b>PARTIAL:<\/b> 6 runs did not run/);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("the bundled fake's made-up cost is not spend: --budget never stops it, the table says fake", async () => {
  const sandbox = await makeSandbox();
  try {
    const result = await runCli(
      sandbox,
      ["eval", "--provider", "claude", "--cases", "ts/*", "--budget", "0.001"],
      { scenario: `${SCENARIOS}/first_changed_line.json` },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await readFakeLog(sandbox)).length, 9, "every ts/ case ran");
    assert.doesNotMatch(result.stdout, /PARTIAL|\$0\.0/);
    assert.match(result.stdout, /^cost\s+fake \(the bundled fake's made-up cost, not counted\)$/m);
    assert.match(result.stdout, /the bundled fake's cost is made up: --budget did not count it/);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("an eval none of whose runs got an answer exits 3 and says why", async () => {
  const sandbox = await makeSandbox();
  try {
    const result = await runCli(sandbox, ["eval", "--provider", "claude", "--cases", "ts/rename"], {
      env: { REVIEW_GATE_CLAUDE_BIN: join(sandbox.dir, "no-such-claude") },
    });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assert.match(result.stdout, /^could not run\s+1\/1 100\.0%$/m);
    assert.match(result.stdout, /Not answered:\n {2}claude ts\/rename: provider-error/);
    assert.match(result.stderr, /no run of the eval got an answer, so its scores measure nothing/);
  } finally {
    await sandbox.cleanup();
  }
});

/** Write a suite of the user's own: repo-relative path → content. */
async function writeSuite(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
}

const OWN_CASE = {
  "bugs/loop/case.json": JSON.stringify({
    title: "Loop bound",
    language: "python",
    kind: "off-by-one",
    oracle: { defects: [{ file: "a.py", line_start: 2, line_end: 2, min_severity: "high" }] },
  }),
  "bugs/loop/base/a.py": "def f(xs):\n    return xs[0:len(xs)]\n",
  "bugs/loop/change.patch": "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n" +
    "@@ -1,2 +1,2 @@\n def f(xs):\n-    return xs[0:len(xs)]\n+    return xs[0:len(xs) - 1]\n",
  "ok/docs/case.json": JSON.stringify({
    title: "Docs",
    language: "markdown",
    kind: "docs",
    oracle: { clean: true },
  }),
  "ok/docs/base/README.md": "# x\n\nOne.\n",
  "ok/docs/after/README.md": "# x\n\nOne.\nTwo.\n",
};

Deno.test("a suite of your own, run twice per case: exact scores, no spread, markdown and html files", async () => {
  const sandbox = await makeSandbox();
  try {
    const suite = join(sandbox.dir, "my-suite");
    await writeSuite(suite, OWN_CASE);
    const out = join(sandbox.dir, "reports");
    const result = await runCli(sandbox, [
      "eval",
      "--suite",
      suite,
      "--repeat",
      "2",
      "--format",
      "json",
      "--format",
      "markdown",
      "--output",
      join(out, "eval.md"),
      "--format",
      "html",
      "--output",
      join(out, "eval.html"),
    ], { scenario: `${SCENARIOS}/first_changed_line.json` });
    assert.equal(result.code, 0, result.stderr);
    const record = JSON.parse(result.stdout) as EvalReport;
    assert.ok(validate(record));
    const [claude] = record.providers;
    // the config's provider is "auto" (the default): the column names the provider it chose
    assert.equal(claude.label, "claude (auto)", "the provider auto chose");
    assert.equal(claude.provider, "claude");
    assert.deepEqual(claude.runs.map((r) => [r.case, r.repeat, r.status]), [
      ["bugs/loop", 1, "needs-attention"],
      ["bugs/loop", 2, "needs-attention"],
      ["ok/docs", 1, "needs-attention"],
      ["ok/docs", 2, "needs-attention"],
    ]);
    assert.deepEqual([claude.scores.lineHits, claude.scores.defects], [2, 2]);
    assert.deepEqual([claude.scores.falseBlocks, claude.scores.cleanRuns], [2, 2]);
    assert.deepEqual(claude.repeats.map((s) => s.lineRecall), [1, 1]);
    assert.deepEqual(claude.spread?.lineRecall, { min: 1, max: 1, stdev: 0 });
    assert.deepEqual(claude.unstable, [], "a scripted reviewer is deterministic");
    const markdown = await Deno.readTextFile(join(out, "eval.md"));
    assert.match(
      markdown,
      /^\| `bugs\/loop` \| off-by-one \| caught, blocked, 1 finding \/ caught, blocked, 1 finding \|$/m,
    );
    const html = await Deno.readTextFile(join(out, "eval.html"));
    assert.match(html, /<td><code>ok\/docs<\/code><\/td><td>docs \(clean\)<\/td>/);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a broken suite is a usage error before any model is asked", async () => {
  const sandbox = await makeSandbox();
  try {
    const suite = join(sandbox.dir, "my-suite");
    await writeSuite(suite, {
      ...OWN_CASE,
      "bugs/loop/change.patch": OWN_CASE["bugs/loop/change.patch"].replaceAll("a.py", "b.py"),
    });
    const result = await runCli(sandbox, ["eval", "--suite", suite]);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /Eval case "bugs\/loop": change\.patch does not apply to base\//);
    assert.deepEqual(await readFakeLog(sandbox), []);
    const none = await runCli(sandbox, ["eval", "--cases", "nothing/*"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No case of the eval suite .* matches --cases nothing\/\*/);
    assert.deepEqual([...Deno.readDirSync(sandbox.tmp)], [], "no temp folder left behind");
  } finally {
    await sandbox.cleanup();
  }
});
