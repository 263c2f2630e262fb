/**
 * End to end: a finding that is shown but does not block says why beside it in the terminal and
 * review.md ("not blocking: <reason>"), and is never an error in SARIF or a GitHub annotation, so
 * a passing run carries no error annotations.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, writeScenario } from "./_cli.ts";
import { withSandbox } from "./_sandbox_scope.ts";

const SOURCE = "export const a = 1;\nexport const b = 2;\n";
const FINDING = {
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: "Wrong constant",
  body: "It breaks.",
  file: "src/app.ts",
  line_start: 2,
  line_end: 2,
  confidence: 0.3,
  recommendation: "Use 2.",
};
const ANSWER = {
  verdict: "needs-attention",
  summary: "A doubtful bug and a pre-existing one.",
  findings: [FINDING, {
    ...FINDING,
    title: "Old bug",
    scope: "pre-existing-touched",
    confidence: 0.9,
  }],
  next_steps: [],
};

Deno.test("review: findings that do not block say why, and are never error-level in SARIF or GitHub", async () => {
  await withSandbox({ "src/app.ts": SOURCE }, async (sb) => {
    await sb.repo.write("src/app.ts", SOURCE.replace("b = 2", "b = 3"));
    const scenario = await writeScenario(sb, "doubtful", [{ kind: "valid", answer: ANSWER }]);
    const r = await runCli(sb, [
      "review",
      ...["--format", "terminal"],
      ...["--format", "markdown", "--output", "review.md"],
      ...["--format", "sarif", "--output", "review.sarif"],
      ...["--format", "github", "--output", "github.txt"],
    ], { scenario });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Wrong constant \(not blocking: confidence 0\.30 is below min_confidence 0\.5\)/,
    );
    assert.match(
      r.stdout,
      /Old bug \(not blocking: pre-existing-touched \(block_on_preexisting is false\)\)/,
    );
    const root = sb.repo.root;
    const md = await Deno.readTextFile(join(root, "review.md"));
    assert.match(md, /### HIGH \(not blocking: confidence 0\.30 is below min_confidence 0\.5\)/);
    const sarif = JSON.parse(await Deno.readTextFile(join(root, "review.sarif")));
    const levels = sarif.runs[0].results.map((x: { level: string }) => x.level);
    assert.deepEqual(levels, ["warning", "warning"]);
    const github = await Deno.readTextFile(join(root, "github.txt"));
    assert.doesNotMatch(github, /^::error/m);
    assert.match(github, /^::warning .*not blocking%3A confidence 0\.30/m);
  });
});
