/**
 * End to end: the cost ledger. Runs of `review` with the fake provider (which reports cost and
 * tokens like the real CLIs, running totals on a resume) land in `records.jsonl` with tokens, cost,
 * wall time, cache hit and gate; `stats` adds them up exactly as the lines say — blocks,
 * acknowledged findings, runs that could not run, the `ci` gate — overall, by gate and by day, and
 * since a date.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FAKE_BIN, lastRun, runCli, type Sandbox, writeScenario } from "./_cli.ts";
import { withChangedSandbox, withSandbox } from "./_sandbox_scope.ts";

/**
 * A `claude` of the user's own that reports cost like the real CLI: the bundled fake behind a
 * wrapper outside its folder, which review-gate cannot tell from a real provider (only the bundled
 * fake's own program counts as the fake: lib/providers/bundled_fake.ts). The user is signed in to
 * Claude Code (an empty `~/.claude/.credentials.json`), as a claude user is: without a login
 * provider "auto" (the default) passes over it to codex's fake, which reports no cost.
 */
async function ownClaude(sb: Sandbox): Promise<Record<string, string>> {
  await Deno.mkdir(join(sb.env.HOME, ".claude"), { recursive: true });
  await Deno.writeTextFile(join(sb.env.HOME, ".claude", ".credentials.json"), "{}");
  const wrapper = join(sb.dir, "own-claude");
  await Deno.writeTextFile(wrapper, `#!/bin/sh\nexec '${join(FAKE_BIN, "claude")}' "$@"\n`, {
    mode: 0o755,
  });
  return { REVIEW_GATE_CLAUDE_BIN: wrapper };
}

Deno.test("records.jsonl keeps every run's tokens, cost and cache hit; stats matches the lines", async () => {
  await withChangedSandbox(async (sb) => {
    const own = await ownClaude(sb);
    assert.equal((await runCli(sb, ["review"], { scenario: "valid", env: own })).code, 0); // 1 call
    assert.equal((await runCli(sb, ["review"], { scenario: "valid", env: own })).code, 0); // cached
    const fresh = { REVIEW_GATE_FAKE_STATE: join(sb.dir, "resume.attempts") }; // steps from 1 again
    assert.equal(
      (await runCli(sb, ["review", "--no-cache"], {
        scenario: "prose,valid",
        env: { ...fresh, ...own },
      })).code,
      0,
    );
    assert.equal(
      (await runCli(sb, ["review", "--no-cache"], { scenario: "error", env: own })).code,
      3,
    );
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
      fakeRuns: 1, // the codex run: the bundled fake itself
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

Deno.test("a run of the bundled fake provider is marked fake: stats shows its cost as fake, never as money", async () => {
  await withChangedSandbox(async (sb) => {
    assert.equal((await runCli(sb, ["review"], { scenario: "valid" })).code, 0);
    const path = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
    const [line] = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(line.fake, true);
    assert.equal(line.costUsd, 0.00044, "the line keeps what the fake's envelope said");
    assert.equal((await lastRun(sb)).run.fakeProvider, true);

    const stats = JSON.parse((await runCli(sb, ["stats", "--json"])).stdout);
    assert.equal(stats.total.costUsd, 0);
    assert.equal(stats.total.costReported, 0);
    assert.equal(stats.total.fakeRuns, 1);
    const text = (await runCli(sb, ["stats"])).stdout;
    assert.match(text, /^total +1 +1 .* fake +[\d.]+ s$/m, text);
    assert.doesNotMatch(text, /0\.0004/);
    assert.match(
      text,
      /1 run\(s\) by the bundled fake provider: its cost is made up and not counted/,
    );
  });
});

const SOURCE = "export const a = 1;\nexport const b = 2;\n";
const BLOCKING = {
  verdict: "needs-attention",
  summary: "One bug.",
  findings: [{
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: "b is off by one",
    body: "Callers expect 2.",
    file: "src/app.ts",
    line_start: 2,
    line_end: 2,
    confidence: 0.9,
    recommendation: "Keep 2.",
  }],
  next_steps: [],
};

Deno.test("stats counts blocks, acks, could-not-runs and the ci gate, by gate and day, since a date", async () => {
  await withSandbox({ "src/app.ts": SOURCE }, async (sb) => {
    await sb.repo.write("src/app.ts", SOURCE.replace("b = 2", "b = 3"));
    const scenario = await writeScenario(sb, "blocking", [{ kind: "valid", answer: BLOCKING }]);
    const own = await ownClaude(sb); // its cost counts as money (the bundled fake's would not)
    const review = (args: string[], s = scenario) =>
      runCli(sb, ["review", ...args], { scenario: s, env: own });
    assert.equal((await review([])).code, 1); // a call that blocks
    assert.equal((await review([])).code, 1); // the cached verdict blocks again
    const ack = await runCli(sb, [
      "ack",
      `${(await lastRun(sb)).run.id}:1`,
      "--reason",
      "by design",
    ]);
    assert.equal(ack.code, 0, ack.stderr);
    assert.equal((await review(["--no-cache"])).code, 0); // acknowledged: no block
    assert.equal((await review(["--no-cache"], "error")).code, 3); // could not run
    // CI judges by the base's acknowledgements: the uncommitted ack does not count there
    await sb.repo.git("commit", "-qam", "b = 3");
    const ci = await runCli(sb, ["ci", "--base", "HEAD~1", "--format", "json"], {
      scenario,
      env: own,
    });
    assert.equal(ci.code, 1, ci.stderr);

    // one run a fortnight ago (the ledger is the source of stats; rewrite its first line's date)
    const path = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
    const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    const old = new Date(Date.now() - 14 * 86_400_000).toISOString();
    lines[0].finishedAt = old;
    await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    assert.deepEqual(
      lines.map((l) => [l.gate ?? "by hand", l.status, l.cached, l.blocking, l.acknowledged ?? 0]),
      [
        ["by hand", "needs-attention", false, true, 0],
        ["by hand", "needs-attention", true, true, 0],
        ["by hand", "needs-attention", false, false, 1],
        ["by hand", "provider-error", false, false, 0],
        ["ci", "needs-attention", false, true, 0],
      ],
    );

    type Line = { usage?: Record<string, number>; costUsd?: number; durationMs: number };
    const sum = (ls: Line[], f: (l: Line) => number) => ls.reduce((n, l) => n + f(l), 0);
    const totals = (ls: Line[]) => ({
      inputTokens: sum(ls, (l) => l.usage?.inputTokens ?? 0),
      outputTokens: sum(ls, (l) => l.usage?.outputTokens ?? 0),
      costUsd: sum(ls, (l) => l.costUsd ?? 0),
      wallMs: sum(ls, (l) => l.durationMs),
    });
    const stats = async (...args: string[]) =>
      JSON.parse((await runCli(sb, ["stats", "--json", ...args])).stdout);
    const pick = (t: Record<string, number>) => ({
      runs: t.runs,
      calls: t.calls,
      cacheHits: t.cacheHits,
      blocks: t.blocks,
      notReviewed: t.notReviewed,
      acknowledged: t.acknowledged,
      inputTokens: t.inputTokens,
      outputTokens: t.outputTokens,
      costUsd: Number(t.costUsd.toFixed(8)),
      wallMs: t.wallMs,
    });
    const expect = (counts: Record<string, number>, ls: Line[]) => {
      const t = totals(ls);
      return { ...counts, ...t, costUsd: Number(t.costUsd.toFixed(8)) };
    };

    const all = await stats("--by", "gate");
    assert.deepEqual(
      pick(all.total),
      expect(
        { runs: 5, calls: 4, cacheHits: 1, blocks: 3, notReviewed: 1, acknowledged: 1 },
        lines,
      ),
    );
    assert.ok(all.total.inputTokens > 0 && all.total.costUsd > 0, "the fake reports usage");
    assert.deepEqual(all.groups.map((g: { key: string }) => g.key), ["by hand", "ci"]);
    assert.deepEqual(
      pick(all.groups[1].totals),
      expect({ runs: 1, calls: 1, cacheHits: 0, blocks: 1, notReviewed: 0, acknowledged: 0 }, [
        lines[4],
      ]),
    );

    const byDay = await stats("--by", "day");
    const today = lines[4].finishedAt.slice(0, 10);
    assert.deepEqual(byDay.groups.map((g: { key: string }) => g.key), [old.slice(0, 10), today]);
    assert.deepEqual(
      pick(byDay.groups[0].totals),
      expect({ runs: 1, calls: 1, cacheHits: 0, blocks: 1, notReviewed: 0, acknowledged: 0 }, [
        lines[0],
      ]),
    );

    const recent = await stats("--since", "7d");
    assert.deepEqual(
      pick(recent.total),
      expect(
        { runs: 4, calls: 3, cacheHits: 1, blocks: 2, notReviewed: 1, acknowledged: 1 },
        lines.slice(1),
      ),
    );
    const text = (await runCli(sb, ["stats", "--by", "day", "--since", "30d"])).stdout;
    assert.match(text, new RegExp(`^${old.slice(0, 10)} +1 +1 +0 +1 +0 +0 `, "m"));
    assert.match(text, new RegExp(`^${today} +4 +3 +1 +2 +1 +1 `, "m"));
    assert.match(text, /^total +5 +4 +1 +3 +1 +1 /m);
  });
});
