/**
 * End to end: `review --format … --output …` writes every format at once, each valid against its
 * official schema (SARIF 2.1.0, reviewdog rdjson/rdjsonl), GitHub annotations on stdout and the job
 * summary appended, model text fenced off from the Actions runner; `--min-confidence` decides.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, type Sandbox, writeScenario } from "./_cli.ts";
import { withSandbox } from "./_sandbox_scope.ts";
import { assertValid, rdjsonValidators, sarifValidator } from "../schemas/validators.ts";

const SOURCE = "export const a = 1;\nexport const b = 2;\n";
const ANSWER = {
  verdict: "needs-attention",
  summary: "::error::not a command\nIt breaks.",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "Wrong constant",
    body: "::warning::injected\nsecond line",
    file: "src/app.ts",
    line_start: 2,
    line_end: 2,
    confidence: 0.9,
    recommendation: "Use 2.",
  }],
  next_steps: [],
};

async function changed(fn: (sb: Sandbox, scenario: string) => Promise<void>): Promise<void> {
  await withSandbox({ "src/app.ts": SOURCE }, async (sb) => {
    await sb.repo.write("src/app.ts", SOURCE.replace("b = 2", "b = 3"));
    await fn(sb, await writeScenario(sb, "blocking", [{ kind: "valid", answer: ANSWER }]));
  });
}

Deno.test("review writes sarif, rdjson, rdjsonl and github at once, each valid", async () => {
  await changed(async (sb, scenario) => {
    const summary = join(sb.dir, "summary.md");
    await Deno.writeTextFile(summary, "# earlier step\n");
    const r = await runCli(sb, [
      "review",
      ...["--format", "sarif", "--output", "out/review.sarif"],
      ...["--format", "rdjson", "--output", "review.rdjson"],
      ...["--format", "rdjsonl", "--output", "review.rdjsonl"],
      ...["--format", "github"],
    ], { scenario, env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } });
    assert.equal(r.code, 1, r.stderr);
    const root = sb.repo.root;
    const sarif = JSON.parse(await Deno.readTextFile(join(root, "out/review.sarif")));
    assertValid(sarifValidator(), sarif, "SARIF");
    assert.equal(sarif.runs[0].results[0].locations[0].physicalLocation.region.startLine, 2);
    assert.match(
      sarif.runs[0].results[0].partialFingerprints.primaryLocationLineHash,
      /^[0-9a-f]{64}$/,
    );
    const { result, line } = rdjsonValidators();
    assertValid(result, JSON.parse(await Deno.readTextFile(join(root, "review.rdjson"))), "rdjson");
    const lines = (await Deno.readTextFile(join(root, "review.rdjsonl"))).trim().split("\n");
    for (const l of lines) assertValid(line, JSON.parse(l), "rdjsonl");
    // data keeps ":" (only %, CR, LF are escaped): the model's "::warning::" stays inside our line
    const annotation =
      "::error file=src/app.ts,line=2,endLine=2,title=review-gate [high%2C blocking] Wrong constant::::warning::injected%0Asecond line";
    assert.ok(r.stdout.split("\n").some((l) => l.startsWith(annotation)), r.stdout);
    assert.ok(
      r.stdout.split("\n").every((l) =>
        l === "" || l.startsWith("::") || l.startsWith("review-gate: ")
      ),
    );
    const md = await Deno.readTextFile(summary);
    assert.ok(md.startsWith("# earlier step\n"), "appended, not replaced");
    assert.match(md, /### HIGH \(blocking\): Wrong constant/);
  });
});

Deno.test("review under GitHub Actions fences its terminal output from the runner", async () => {
  await changed(async (sb, scenario) => {
    const r = await runCli(sb, ["review"], { scenario, env: { GITHUB_ACTIONS: "true" } });
    const lines = r.stdout.trimEnd().split("\n");
    const token = /^::stop-commands::([0-9a-f]{32})$/.exec(lines[0])?.[1];
    assert.ok(token, r.stdout);
    assert.equal(lines.at(-1), `::${token}::`);
    assert.ok(r.stdout.includes("::error::not a command"), "the model's text is inside the fence");
  });
});

Deno.test("--min-confidence decides beside --fail-on; bad output flags exit 2", async (t) => {
  await changed(async (sb, scenario) => {
    await t.step("a 0.9 finding does not block under --min-confidence 0.95", async () => {
      const r = await runCli(sb, ["review", "--min-confidence", "0.95"], { scenario });
      assert.equal(r.code, 0, r.stdout);
      assert.match(r.stdout, /1 finding \(/);
    });
    await t.step("--fail-on critical lets a high finding through", async () => {
      assert.equal((await runCli(sb, ["review", "--fail-on", "critical"], { scenario })).code, 0);
    });
    const bad: [string[], RegExp][] = [
      [["--min-confidence", "2"], /Invalid --min-confidence "2"/],
      [["--format", "sarif", "--format", "json"], /Only one format can go to stdout/],
      [["--output", "x.json"], /--output x\.json must follow the --format/],
      [["--format", "xml"], /--format: Expected "xml" to be one of/],
    ];
    for (const [args, message] of bad) {
      await t.step(args.join(" "), async () => {
        const r = await runCli(sb, ["review", ...args], { scenario });
        assert.equal(r.code, 2, r.stdout);
        assert.match(r.stderr, message);
      });
    }
  });
});

Deno.test("a review that could not run says NOT reviewed in SARIF (executionSuccessful false)", async () => {
  await changed(async (sb) => {
    const r = await runCli(sb, ["review", "--format", "sarif"], { scenario: "error" });
    assert.equal(r.code, 3);
    const sarif = JSON.parse(r.stdout);
    assertValid(sarifValidator(), sarif, "SARIF");
    const invocation = sarif.runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.equal(invocation.exitCode, 3);
    assert.match(
      invocation.toolExecutionNotifications[0].message.text,
      /^NOT reviewed: provider-error/,
    );
  });
});
