/**
 * End to end: a change with a line longer than `budgets.file_bytes` (minified code, or a file
 * with CR-only line ends, which git reads as one line). The long line is named as not reviewed by
 * its own line number, every other line is shown once, coverage counts no more than the diff,
 * and a finding on a shown line after the long line is accepted at once (no corrective resume).
 *
 * @module
 */
import assert from "node:assert/strict";
import { lastRun, readFakeLog, runCli, writeScenario } from "./_cli.ts";
import { promptOf } from "./_assert.ts";
import { withSandbox } from "./_sandbox_scope.ts";

const LONG = [
  ...Array.from({ length: 10 }, (_, i) => `before ${i + 1}`),
  "L".repeat(70_000),
  ...Array.from({ length: 20 }, (_, i) => `after ${i + 1}`),
].join("\n") + "\n";
/** CR-only line ends: one line for git (only "\n" ends a line), then one "\n" line. */
const CR_ONLY = "x = 1;\r".repeat(12_000) + "\ntail line\n";

const finding = (file: string, line: number) => ({
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: `Bug in ${file}`,
  body: "A real problem on a shown line.",
  file,
  line_start: line,
  line_end: line,
  confidence: 0.9,
  recommendation: "Fix it.",
});

Deno.test("review names a line longer than file_bytes, shows the rest once, and accepts findings after it", async () => {
  await withSandbox({ "base.txt": "base\n" }, async (sb) => {
    await sb.repo.write("f.txt", LONG);
    await sb.repo.write("cr.txt", CR_ONLY);
    await sb.repo.git("add", "f.txt", "cr.txt");
    await sb.repo.git("commit", "-q", "-m", "long lines");
    const diffBytes = new TextEncoder().encode(
      await sb.repo.git("diff-tree", "-p", "--no-color", "HEAD^", "HEAD"),
    ).length;

    const plan = await runCli(sb, ["review", "--commit", "HEAD", "--plan-only", "--json"]);
    const planned = JSON.parse(plan.stdout).coverage;
    assert.ok(planned.reviewedBytes + planned.omittedBytes <= diffBytes, plan.stdout);

    const answer = {
      verdict: "needs-attention",
      summary: "Two bugs.",
      findings: [finding("f.txt", 25), finding("cr.txt", 2)],
      next_steps: [],
    };
    const scenario = await writeScenario(sb, "after", [{ kind: "valid", answer }]);
    const r = await runCli(sb, ["review", "--commit", "HEAD"], { scenario });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const calls = await readFakeLog(sb);
    assert.equal(calls.length, 1, "one call, no corrective resume");
    const prompt = promptOf(calls[0]);
    assert.ok(!prompt.includes("LLLL") && !prompt.includes("x = 1;\r"), "long lines not shown");
    for (let i = 1; i <= 20; i++) assert.equal(prompt.split(`+after ${i}\n`).length, 2);
    assert.match(prompt, /\+tail line\n/);
    const { run } = await lastRun(sb);
    assert.equal(run.status, "needs-attention");
    const coverage = run.coverage as {
      status: string;
      reviewedBytes: number;
      omittedBytes: number;
      omitted: { path: string; hunks?: { newStart: number; newLines: number }[] }[];
    };
    assert.equal(coverage.status, "partial");
    assert.deepEqual(
      coverage.omitted.map((o) => [o.path, o.hunks?.map((h) => [h.newStart, h.newLines])]),
      [["cr.txt", [[1, 1]]], ["f.txt", [[11, 1]]]],
    );
    assert.ok(coverage.reviewedBytes + coverage.omittedBytes <= diffBytes);
    assert.match(r.stdout + r.stderr, /partially reviewed|NOT reviewed|not reviewed/i);
    // the reason names the limit that applies, not the plan's total budget
    assert.match(
      r.stdout + r.stderr,
      /f\.txt: line 11 \(a line longer than one part, budgets\.file_bytes/,
    );
  });
});
