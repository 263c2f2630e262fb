/**
 * End-to-end: a council review (`--providers claude,codex`) in a throwaway repository with the
 * fake CLIs playing two providers that disagree — one finding both report (at overlapping lines,
 * titled differently), one only Claude reports. The same plan goes to both, the findings are
 * matched across them and marked with who agreed, and `council_policy` decides which block; the
 * terminal, `--json` and `review.md` show the agreement, and a re-run asks nobody.
 *
 * @module
 */
import assert from "node:assert/strict";
import { lastRun, makeSandbox, readFakeLog, runCli, type Sandbox, writeScenario } from "./_cli.ts";

const FILE = Array.from({ length: 20 }, (_, i) => `export const line${i + 1} = ${i + 1};`);

function finding(title: string, lines: [number, number], severity = "high") {
  return {
    severity,
    category: "reliability",
    scope: "introduced",
    title,
    body: `${title}: a finding of the council test.`,
    file: "src/client.ts",
    line_start: lines[0],
    line_end: lines[1],
    confidence: 0.9,
    recommendation: "Fix it.",
  };
}

function answer(findings: unknown[]) {
  return {
    verdict: "needs-attention",
    summary: `${findings.length} finding(s).`,
    findings,
    next_steps: [],
  };
}

/** Scenario files for the fake Claude and the fake Codex, each answering `findings` once. */
async function councilEnv(
  sandbox: Sandbox,
  claudeFindings: unknown[],
  codexFindings: unknown[],
): Promise<Record<string, string>> {
  const scenario = (cli: string, findings: unknown[]) =>
    writeScenario(sandbox, cli, [{ kind: "valid", answer: answer(findings) }]);
  return {
    REVIEW_GATE_FAKE_SCENARIO_CLAUDE: await scenario("claude", claudeFindings),
    REVIEW_GATE_FAKE_SCENARIO_CODEX: await scenario("codex", codexFindings),
  };
}

Deno.test("council: two providers disagree, findings are matched and marked with who agreed", async () => {
  const sandbox = await makeSandbox({ "src/client.ts": FILE.join("\n") + "\n" });
  try {
    const edited = FILE.map((l, i) => (i >= 9 && i < 16 ? `${l} // retry forever` : l));
    await sandbox.repo.write("src/client.ts", edited.join("\n") + "\n");
    const env = await councilEnv(sandbox, [
      finding("Unbounded retry loop", [10, 14]),
      finding("Token written to the log", [16, 16]),
    ], [finding("The retry loop is unbounded", [11, 13], "critical")]);

    const any = await runCli(sandbox, ["review", "--json", "--providers", "claude,codex"], { env });
    assert.equal(any.code, 1, any.stdout + any.stderr);
    const json = JSON.parse(any.stdout);
    assert.deepEqual(json.council, { providers: ["claude", "codex"], policy: "any" });
    assert.equal(json.status, "needs-attention");
    assert.equal(json.answer.findings.length, 2, "the shared finding is reported once");
    const [shared, lone] = json.answer.findings;
    assert.equal(shared.severity, "critical", "the most severe report is kept");
    assert.equal(lone.title, "Token written to the log");
    assert.deepEqual(json.findingNotes.map((n: { agreement: unknown }) => n.agreement), [
      { agreed: ["claude", "codex"], of: ["claude", "codex"], enough: true },
      { agreed: ["claude"], of: ["claude", "codex"], enough: true },
    ]);
    assert.equal(json.blockingFindings, 2);
    const log = await readFakeLog(sandbox);
    assert.deepEqual(log.map((c) => c.cli).sort(), ["claude", "codex"], "one call each");

    // all: only what every provider reported blocks; the parts are cached, nobody is asked
    const all = await runCli(sandbox, [
      "review",
      "--providers",
      "claude,codex",
      "--council-policy",
      "all",
    ], {
      env,
    });
    assert.equal(all.code, 1, all.stdout + all.stderr);
    assert.match(all.stdout, /council claude, codex, council_policy all/);
    assert.match(all.stdout, /2 findings, 1 blocking/);
    assert.match(all.stdout, /\n {2}Council: agreed: claude, codex \(2 of 2\)\n/);
    assert.match(
      all.stdout,
      /\n {2}Council: only claude \(1 of 2; not codex\); does not block \(council_policy all\)\n/,
    );
    assert.equal((await readFakeLog(sandbox)).length, 2, "every part's verdict was cached");
    const run = await lastRun(sandbox);
    assert.match(run.reviewMd ?? "", /- Council: claude, codex \(council_policy all\)/);
    assert.match(run.reviewMd ?? "", /Council: only claude \(1 of 2; not codex\); does not block/);

    // majority of two is both: the lone finding does not block, the shared one does
    const majority = await runCli(
      sandbox,
      ["review", "--json", "--providers", "claude,codex", "--council-policy", "majority"],
      { env },
    );
    assert.equal(JSON.parse(majority.stdout).blockingFindings, 1);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("council: a finding only one provider reports does not block under majority", async () => {
  const sandbox = await makeSandbox({ "src/client.ts": FILE.join("\n") + "\n" });
  try {
    await sandbox.repo.write(
      "src/client.ts",
      [...FILE, "export const extra = 0;"].join("\n") + "\n",
    );
    const claude = await writeScenario(sandbox, "claude", [{
      kind: "valid",
      answer: answer([finding("Extra export is unused", [21, 21])]),
    }]);
    const env = {
      REVIEW_GATE_FAKE_SCENARIO_CLAUDE: claude,
      REVIEW_GATE_FAKE_SCENARIO_CODEX: "valid",
    };
    const result = await runCli(
      sandbox,
      ["review", "--json", "--providers", "codex,claude", "--council-policy", "majority"],
      { env },
    );
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "needs-attention");
    assert.equal(json.blocking, false);
    assert.deepEqual(json.findingNotes[0].agreement, {
      agreed: ["claude"],
      of: ["codex", "claude"],
      enough: false,
    });
    const bad = await runCli(sandbox, ["review", "--providers", "claude,gpt"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --providers "claude,gpt"/);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("council: a finding blocks when one provider's own version blocks, in either provider order", async () => {
  const sandbox = await makeSandbox({ "src/client.ts": FILE.join("\n") + "\n" });
  try {
    const edited = FILE.map((l, i) => (i === 9 ? `${l} // eval(input)` : l));
    await sandbox.repo.write("src/client.ts", edited.join("\n") + "\n");
    const introduced = { ...finding("Backdoor via eval", [10, 10], "critical"), confidence: 0.99 };
    const touched = { ...introduced, scope: "pre-existing-touched", category: "style" };
    const env = await councilEnv(sandbox, [touched], [introduced]);
    for (const order of ["claude,codex", "codex,claude"]) {
      const run = await runCli(sandbox, ["review", "--json", "--providers", order], { env });
      assert.equal(run.code, 1, `${order}: ${run.stdout}${run.stderr}`);
      const json = JSON.parse(run.stdout);
      assert.equal(json.blockingFindings, 1, order);
      const [shown] = json.answer.findings;
      assert.equal(shown.scope, "introduced", `${order}: the blocking version is shown, whole`);
      assert.equal(shown.category, "reliability", order);
    }
    // all: claude's own version does not block (pre-existing), so the finding does not block
    const all = await runCli(sandbox, [
      "review",
      "--json",
      "--providers",
      "claude,codex",
      "--council-policy",
      "all",
    ], { env });
    assert.equal(all.code, 0, all.stdout + all.stderr);
    assert.equal(JSON.parse(all.stdout).blockingFindings, 0);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("council: severity and confidence come from the same provider's version", async () => {
  const sandbox = await makeSandbox({ "src/client.ts": FILE.join("\n") + "\n" });
  try {
    const edited = FILE.map((l, i) => (i === 9 ? `${l} // eval(input)` : l));
    await sandbox.repo.write("src/client.ts", edited.join("\n") + "\n");
    const base = finding("Backdoor via eval", [10, 10]);
    const env = await councilEnv(
      sandbox,
      [{ ...base, severity: "critical", confidence: 0.3 }],
      [{ ...base, severity: "low", confidence: 0.99 }],
    );
    const run = await runCli(sandbox, [
      "review",
      "--json",
      "--providers",
      "claude,codex",
      "--council-policy",
      "all",
    ], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const json = JSON.parse(run.stdout);
    assert.equal(json.blockingFindings, 0, "neither provider's own version blocks");
    const [shown] = json.answer.findings;
    assert.deepEqual([shown.severity, shown.confidence], ["critical", 0.3]);
  } finally {
    await sandbox.cleanup();
  }
});
