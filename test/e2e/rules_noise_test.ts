/**
 * End to end: noise control as a team configures it — `categories` that may block,
 * `block_on_preexisting`, `max_findings` — and the decoder's coherence check that a finding with
 * scope "introduced" points at lines the change added or edited (refused, then corrected in the one
 * resume of the same session). Drives `review-gate review` with scripted fake answers.
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeSandbox, readFakeLog, runCli, type Sandbox, writeScenario } from "./_cli.ts";

const APP = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";

async function withSandbox(fn: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = await makeSandbox({ "src/app.ts": APP });
  try {
    await sandbox.repo.write("src/app.ts", APP.replace("a = 1", "a = 2"));
    await fn(sandbox);
  } finally {
    await sandbox.cleanup();
  }
}

function finding(
  severity: string,
  category: string,
  scope: string,
  line: number,
  title: string,
) {
  return {
    severity,
    category,
    scope,
    title,
    body: `${title}.`,
    file: "src/app.ts",
    line_start: line,
    line_end: line,
    confidence: 0.9,
    recommendation: "Fix it.",
  };
}

const NOISY = {
  verdict: "needs-attention",
  summary: "Several things.",
  findings: [
    finding("high", "style", "introduced", 1, "Name a is too short"),
    finding("critical", "bug", "pre-existing-touched", 2, "b overflows"),
    finding("low", "bug", "introduced", 1, "a could be const-asserted"),
    finding("medium", "reliability", "outside", 3, "c is never read"),
  ],
  next_steps: [],
};

async function writeConfig(sb: Sandbox, config: unknown): Promise<void> {
  await Deno.writeTextFile(`${sb.repo.root}/.git/info/exclude`, ".review-gate.json\n");
  await sb.repo.write(".review-gate.json", JSON.stringify(config));
}

Deno.test("noise control: categories, block_on_preexisting and max_findings decide what blocks and what is shown", async () => {
  await withSandbox(async (sb) => {
    const scenario = await writeScenario(sb, "noisy", [{ kind: "valid", answer: NOISY }]);
    const review = () => runCli(sb, ["review", "--no-cache"], { scenario });

    const all = await review();
    assert.equal(all.code, 1, "by default the high style finding blocks");
    assert.match(all.stdout, /Name a is too short/);

    await writeConfig(sb, { categories: ["bug", "security", "reliability"], max_findings: 2 });
    const quiet = await review();
    assert.equal(
      quiet.code,
      0,
      `style may not block, the critical is pre-existing, the low is below fail_on: ${quiet.stdout}`,
    );
    assert.match(quiet.stdout, /b overflows/, "the most severe is shown");
    assert.match(quiet.stdout, /… and 2 more findings, less severe \(max_findings 2\)/);
    assert.doesNotMatch(quiet.stdout, /a could be const-asserted/, "the least severe is counted");

    await writeConfig(sb, {
      categories: ["bug", "security", "reliability"],
      block_on_preexisting: true,
    });
    const strict = await review();
    assert.equal(strict.code, 1, "block_on_preexisting: the pre-existing critical blocks");
    assert.match(strict.stdout, /\[CRITICAL\] b overflows BLOCKING/);
  });
});

Deno.test("an introduced finding on an unchanged line is refused and corrected in the one resume", async () => {
  await withSandbox(async (sb) => {
    const wrong = { ...NOISY, findings: [finding("high", "bug", "introduced", 3, "c is wrong")] };
    const right = {
      ...NOISY,
      findings: [finding("high", "bug", "pre-existing-touched", 3, "c is wrong")],
    };
    const scenario = await writeScenario(sb, "scope", [
      { kind: "valid", answer: wrong },
      { kind: "valid", answer: right },
    ]);
    const r = await runCli(sb, ["review", "--json"], { scenario });
    assert.equal(r.code, 0, "pre-existing does not block by default: " + r.stdout + r.stderr);
    const log = await readFakeLog(sb);
    assert.equal(log.length, 2, "one corrective resume");
    assert.match(log[1].stdin ?? log[1].argv.join(" "), /\/findings\/0\/scope/);
    const envelope = JSON.parse(r.stdout);
    assert.equal(envelope.answer.findings[0].scope, "pre-existing-touched");
  });
});
