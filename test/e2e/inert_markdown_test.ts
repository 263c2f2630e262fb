/**
 * End to end: a model that answers with the hostile corpus (fixtures/hostile_text.ts), about a
 * file whose name is itself hostile, in a throwaway repository. Every Markdown file the CLI writes
 * — `review.md`, `--format markdown`, the GitHub job summary, `compliance.md`, a `--plan-only`
 * plan — renders inert with a real CommonMark/GFM renderer (README.md "Security model": the model's
 * words stay words).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  HOSTILE,
  hostileComplianceAnswer,
  hostileReviewAnswer,
} from "../../fixtures/hostile_text.ts";
import { assertInert } from "../markdown/inert_check.ts";
import { lastRun, runCli, writeScenario } from "./_cli.ts";
import { withSandbox } from "./_sandbox_scope.ts";

/** A file name an outsider's pull request may add: a code-span breakout, HTML, a mention, a link. */
const FILE = "pwn` <img src=x onerror=alert(1)> `@octocat #1 ![i](y).ts";
const SOURCE = "export const a = 1;\nexport const b = 2;\n";
const FINDING_HEADING = /^(HIGH|LOW) \(/;

Deno.test("review: review.md, --format markdown and the job summary render the hostile answer inert", async () => {
  await withSandbox({ [FILE]: SOURCE }, async (sb) => {
    await sb.repo.write(FILE, SOURCE.replace("a = 1", "a = 3").replace("b = 2", "b = 4"));
    const answer = hostileReviewAnswer(FILE);
    const scenario = await writeScenario(sb, "hostile", [{ kind: "valid", answer }]);
    const summary = join(sb.dir, "summary.md");
    const r = await runCli(sb, [
      "review",
      ...["--format", "markdown", "--output", "out.md"],
      ...["--format", "github"],
    ], { scenario, env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } });
    assert.equal(r.code, 1, r.stderr);
    const run = await lastRun(sb);
    const findings = (run.answer as { findings?: unknown[] } | undefined)?.findings?.length ?? 0;
    assert.equal(findings, HOSTILE.length, "every hostile finding was kept");
    const headings = ["Review: needs-attention", "Summary", "Findings", "", "Next steps"]
      .flatMap((h) => h === "" ? Array(findings).fill(FINDING_HEADING) : [h]);
    for (
      const [name, text] of [
        ["review.md", run.reviewMd ?? ""],
        ["--format markdown", await Deno.readTextFile(join(sb.repo.root, "out.md"))],
        ["job summary", await Deno.readTextFile(summary)],
      ]
    ) {
      assert.ok(text.includes("## Summary"), name);
      assertInert(text, { headings });
    }
  });
});

Deno.test("review --plan: compliance.md renders a hostile plan and answer inert", async () => {
  const plan = ["# Plan", "", ...HOSTILE.map((t) => `- [ ] ${t.replace(/[\r\n]+/g, " ")}`), ""];
  await withSandbox({ [FILE]: SOURCE, "PLAN.md": plan.join("\n") }, async (sb) => {
    await sb.repo.write(FILE, SOURCE.replace("a = 1", "a = 3").replace("b = 2", "b = 4"));
    const answer = hostileComplianceAnswer(FILE);
    const scenario = await writeScenario(sb, "hostile", [{ kind: "valid", answer }]);
    const r = await runCli(sb, ["review", "--plan", "PLAN.md"], { scenario });
    assert.equal(r.code, 0, r.stderr);
    const run = await lastRun(sb);
    const md = await Deno.readTextFile(join(run.dir, "compliance.md"));
    assertInert(md, {
      headings: [
        "Plan compliance: incomplete",
        "Summary",
        "Plan items",
        ...answer.items.map((item) => `${item.id} — ${item.status}: `),
        "Unplanned changes",
      ],
    });
  });
});

Deno.test("review --plan-only --format markdown: a hostile file name renders inert, bidi controls escaped", async () => {
  const bidi = "invoice\u202etxt.ts";
  await withSandbox({ [FILE]: SOURCE, [bidi]: SOURCE }, async (sb) => {
    await sb.repo.write(FILE, SOURCE.replace("a = 1", "a = 3"));
    await sb.repo.write(bidi, SOURCE.replace("a = 1", "a = 3"));
    const r = await runCli(sb, ["review", "--plan-only", "--format", "markdown"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("invoice\\u{202e}txt.ts"), "a bidi control is shown escaped");
    assertInert(r.stdout, {
      headings: ["Review plan: NOT reviewed"],
      tags: ["p", "ul", "li", "code", "blockquote", "pre"],
    });
  });
});
