/**
 * End to end: the cost ledger. Runs of `review` with the fake provider (which reports cost and
 * tokens like the real CLIs, running totals on a resume) land in `records.jsonl` with tokens, cost,
 * wall time, cache hit and gate; `stats` adds them up exactly as the lines say.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./_cli.ts";
import { withChangedSandbox } from "./_sandbox_scope.ts";

Deno.test("records.jsonl keeps every run's tokens, cost and cache hit; stats matches the lines", async () => {
  await withChangedSandbox(async (sb) => {
    assert.equal((await runCli(sb, ["review"], { scenario: "valid" })).code, 0); // 1 call
    assert.equal((await runCli(sb, ["review"], { scenario: "valid" })).code, 0); // cached
    const fresh = { REVIEW_GATE_FAKE_STATE: join(sb.dir, "resume.attempts") }; // steps from 1 again
    assert.equal(
      (await runCli(sb, ["review", "--no-cache"], { scenario: "prose,valid", env: fresh })).code,
      0,
    );
    assert.equal((await runCli(sb, ["review", "--no-cache"], { scenario: "error" })).code, 3);
    assert.equal(
      (await runCli(sb, ["review", "--provider", "codex", "--no-cache"], { scenario: "valid" }))
        .code,
      0,
    );
    const path = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
    const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 5);
    assert.deepEqual(lines.map((l) => [l.cached, l.attempts, l.costUsd]), [
      [false, 1, 0.00044],
      [true, 0, undefined],
      [false, 2, 0.00088], // the resume's running total, not 0.00044 + 0.00088
      [false, 1, 0],
      [false, 1, undefined], // codex reports no cost: absent, never 0
    ]);
    assert.deepEqual(lines[2].usage, {
      inputTokens: 20,
      outputTokens: 40,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    for (const l of lines) assert.ok(l.durationMs >= 0 && l.gate === undefined);

    const stats = JSON.parse((await runCli(sb, ["stats", "--json", "--by", "provider"])).stdout);
    type Line = { attempts: number; durationMs: number; usage?: Record<string, number> };
    const sum = (f: (l: Line) => number) => lines.reduce((n: number, l: Line) => n + f(l), 0);
    assert.deepEqual(stats.total, {
      runs: 5,
      calls: 4,
      attempts: sum((l) => l.attempts),
      cacheHits: 1,
      blocks: 0,
      notReviewed: 1,
      acknowledged: 0,
      inputTokens: sum((l) => l.usage?.inputTokens ?? 0),
      outputTokens: sum((l) => l.usage?.outputTokens ?? 0),
      cachedTokens: 0,
      costUsd: 0.00132,
      costReported: 3,
      wallMs: sum((l) => l.durationMs),
    });
    assert.deepEqual(stats.groups.map((g: { key: string }) => g.key), ["claude", "codex"]);
    assert.equal(stats.groups[1].totals.costReported, 0);

    const text = (await runCli(sb, ["stats", "--since", "7d"])).stdout;
    assert.match(text, /^review-gate stats, since .* UTC: 5 run\(s\)/);
    assert.match(text, /^total +5 +4 +1 +0 +1 +0 .* 0\.0013 /m);
    const bad = await runCli(sb, ["stats", "--since", "last week"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --since "last week"/);
  });
});
