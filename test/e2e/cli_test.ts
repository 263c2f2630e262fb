/**
 * End-to-end: Ctrl-C mid-review, the verdict cache, the `--json` envelope, `schema`, `decode`,
 * `--help` on every command and `--version`, all through the CLI as a user runs it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import {
  entriesOf,
  FIXTURES,
  lastRun,
  makeSandbox,
  processAlive,
  readFakeLog,
  readRunFolder,
  repoState,
  runCli,
  spawnCli,
} from "./_cli.ts";
import { waitFor, withChangedSandbox } from "./_sandbox_scope.ts";

for (const provider of ["claude", "codex"] as const) {
  Deno.test(`review interrupted by Ctrl-C (${provider}) exits 130 and leaves nothing behind`, async () => {
    await withChangedSandbox(async (sandbox) => {
      const before = await repoState(sandbox.repo);
      const child = spawnCli(sandbox, ["review", "--provider", provider], { scenario: "hang" });
      await waitFor(async () => (await readFakeLog(sandbox)).length > 0, 15_000);
      child.kill("SIGINT");
      const out = await child.output();
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 130, stdout + new TextDecoder().decode(out.stderr));
      assert.ok(stdout.startsWith("review-gate: NOT reviewed — interrupted"), stdout);
      const [call] = await readFakeLog(sandbox);
      await waitFor(async () => !(await processAlive(call.grandchildPid!)), 3_000);
      assert.equal(await processAlive(call.pid), false, "the provider is gone");
      assert.deepEqual(await entriesOf(sandbox.tmp), [], "no temp dir left");
      const run = await lastRun(sandbox);
      assert.equal(run.run.status, "interrupted");
      assert.ok(!run.files.includes("answer.json") && !run.files.includes("review.md"));
      assert.ok(run.files.includes("transcript/attempt-1.stdout"));
      assert.deepEqual(await repoState(sandbox.repo), before);
    });
  });
}

Deno.test("review reuses a cached verdict with no provider call; --no-cache asks again", async () => {
  await withChangedSandbox(async (sandbox) => {
    const first = await runCli(sandbox, ["review"]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal((await readFakeLog(sandbox)).length, 1);
    const reviewed = (await lastRun(sandbox)).run;

    const second = await runCli(sandbox, ["review"]);
    assert.equal(second.code, 0);
    assert.match(
      second.stdout,
      /^review-gate: approved — 0 findings \(claude .*cached verdict, no model call\)/,
    );
    assert.equal((await readFakeLog(sandbox)).length, 1, "no new provider call");
    const cached = await lastRun(sandbox);
    assert.equal(cached.run.cached, true);
    assert.deepEqual(cached.run.attempts, []);
    assert.ok(cached.files.includes("answer.json"));
    assert.deepEqual(cached.run.cachedFrom, {
      runId: reviewed.id,
      reviewedAt: reviewed.finishedAt,
    });
    assert.match(
      cached.reviewMd ?? "",
      new RegExp(
        `^- Verdict: cached verdict: no model call this run \\(reviewed by run ${reviewed.id} at `,
        "m",
      ),
    );

    const other = await runCli(sandbox, ["review", "--provider", "codex"]);
    assert.equal(other.code, 0);
    assert.equal((await readFakeLog(sandbox)).length, 2, "another provider is another cache key");

    const fresh = await runCli(sandbox, ["review", "--no-cache"]);
    assert.equal(fresh.code, 0);
    assert.ok(!fresh.stdout.includes("cached"), fresh.stdout);
    assert.equal((await readFakeLog(sandbox)).length, 3, "--no-cache calls the provider");

    await sandbox.repo.write("src/app.ts", "export const a = 3;\n");
    await runCli(sandbox, ["review"]);
    assert.equal((await readFakeLog(sandbox)).length, 4, "a changed change is not a cache hit");
  });
});

Deno.test("review --json prints the run envelope on success and on failure", async (t) => {
  await withChangedSandbox(async (sandbox) => {
    await t.step("approved", async () => {
      const result = await runCli(sandbox, ["review", "--json", "--no-cache"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, "");
      const json = JSON.parse(result.stdout);
      const [call] = await readFakeLog(sandbox);
      assert.deepEqual(Object.keys(json).sort(), [
        "acknowledgedFindings",
        "answer",
        "answerKind",
        "blocking",
        "blockingFindings",
        "cached",
        "cachedFrom",
        "costUsd",
        "council",
        "coverage",
        "durationMs",
        "exitCode",
        "findingNotes",
        "message",
        "model",
        "provider",
        "providerChoice",
        "rawOutput",
        "refusal",
        "rules",
        "runDir",
        "runId",
        "sessionId",
        "status",
        "target",
        "unreviewed",
        "usage",
      ]);
      assert.equal(json.status, "approved");
      assert.equal(json.exitCode, 0);
      assert.equal(json.blocking, false);
      assert.equal(json.answer.verdict, "approve");
      assert.equal(json.rawOutput, null);
      assert.equal(json.provider, "claude");
      // no provider configured: "auto" chose claude, the first in order (the fake, by its variable)
      assert.deepEqual(json.providerChoice, { auto: true, skipped: [] });
      assert.equal(json.council, null, "one provider: no council");
      assert.equal(json.model, "claude-fake-1");
      assert.equal(json.sessionId, call.sessionId);
      assert.equal(json.coverage.status, "complete");
      assert.deepEqual(json.unreviewed, [], "the whole change was reviewed");
      assert.deepEqual(json.findingNotes, []);
      assert.equal(typeof json.costUsd, "number");
      assert.equal(json.target.kind, "worktree");
      const folder = await readRunFolder(json.runDir);
      assert.equal(folder.run.id, json.runId);
      assert.deepEqual(folder.answer, json.answer);
    });
    await t.step("provider error", async () => {
      const result = await runCli(sandbox, ["review", "--json", "--no-cache"], {
        scenario: "error",
      });
      assert.equal(result.code, 3);
      const json = JSON.parse(result.stdout);
      assert.equal(json.status, "provider-error");
      assert.equal(json.exitCode, 3);
      assert.equal(json.answer, null);
      assert.match(json.message, /API Error: 500/);
      assert.match(json.rawOutput.stdout, /"is_error":true/);
      assert.match(json.unreviewed[0], /^NOT reviewed: provider-error: /);
    });
    await t.step("invalid answer", async () => {
      const result = await runCli(sandbox, ["review", "--json", "--no-cache"], {
        scenario: "schema-invalid",
      });
      assert.equal(result.code, 3);
      const json = JSON.parse(result.stdout);
      assert.equal(json.status, "invalid-answer");
      assert.equal(json.answer, null);
      assert.ok(json.refusal.length > 0);
    });
  });
});

Deno.test("schema prints the canonical schema and each provider's dialect", async (t) => {
  await withChangedSandbox(async (sandbox) => {
    await t.step("canonical", async () => {
      const result = await runCli(sandbox, ["schema"]);
      assert.equal(result.code, 0);
      const schema = JSON.parse(result.stdout);
      assert.match(schema.$schema, /2020-12/);
      assert.ok(schema.$id);
      assert.deepEqual(Object.keys(schema.properties).sort(), [
        "findings",
        "next_steps",
        "summary",
        "verdict",
      ]);
    });
    await t.step("claude", async () => {
      const schema = JSON.parse((await runCli(sandbox, ["schema", "--dialect", "claude"])).stdout);
      assert.equal(schema.$schema, undefined);
      assert.equal(schema.$id, undefined);
      assert.equal(schema.additionalProperties, false);
    });
    await t.step("codex", async () => {
      const result = await runCli(sandbox, ["schema", "review", "--dialect", "codex"]);
      assert.equal(result.code, 0);
      assert.ok(!result.stdout.includes("minLength"));
      assert.ok(
        result.stdout.includes('"pattern": "\\\\S"') || result.stdout.includes('"pattern":"\\\\S"'),
      );
      JSON.parse(result.stdout);
    });
    await t.step("vibe", async () => {
      const result = await runCli(sandbox, ["schema", "--dialect", "vibe"]);
      assert.equal(result.code, 0);
      assert.ok(result.stdout.includes('"verdict"'));
    });
    await t.step("config", async () => {
      const schema = JSON.parse((await runCli(sandbox, ["schema", "config"])).stdout);
      assert.ok(schema.properties.budgets);
    });
    await t.step("bad input", async () => {
      const unknown = await runCli(sandbox, ["schema", "nope"]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown schema "nope": choose one of/);
      const dialect = await runCli(sandbox, ["schema", "--dialect", "bard"]);
      assert.equal(dialect.code, 2);
      assert.match(
        dialect.stderr,
        /--dialect: Expected "bard" to be one of \(claude\|codex\|gemini\|qwen\|copilot\|vibe\|opencode\)/,
      );
    });
  });
});

Deno.test("decode judges answer files and stdin (exit 0 accepted, 3 refused)", async (t) => {
  const sandbox = await makeSandbox({
    "src/session.ts": Array.from({ length: 60 }, (_, i) => `// line ${i + 1}`).join("\n") + "\n",
  });
  try {
    const good = join(FIXTURES, "answers/review.good.json");
    const bad = join(FIXTURES, "answers/review.bad.json");
    await t.step("good file", async () => {
      const result = await runCli(sandbox, ["decode", good]);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), JSON.parse(await Deno.readTextFile(good)));
    });
    await t.step("bad file", async () => {
      const result = await runCli(sandbox, ["decode", bad]);
      assert.equal(result.code, 3);
      assert.ok(result.stdout.startsWith("Refused:\n"), result.stdout);
    });
    await t.step("good stdin, --json", async () => {
      const result = await runCli(sandbox, ["decode", "-", "--json"], {
        stdin: await Deno.readFile(good),
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.equal(JSON.parse(result.stdout).ok, true);
    });
    await t.step("fenced stdin is accepted with a note", async () => {
      const fenced = "```json\n" + await Deno.readTextFile(good) + "\n```\n";
      const result = await runCli(sandbox, ["decode", "-"], { stdin: fenced });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stderr, /^note: .*fence/im);
    });
    await t.step("a finding past the end of the file is refused", async () => {
      const answer = JSON.parse(await Deno.readTextFile(good));
      answer.findings[0].line_end = 500;
      const result = await runCli(sandbox, ["decode", "-"], { stdin: JSON.stringify(answer) });
      assert.equal(result.code, 3);
      assert.match(result.stdout, /line_end/);
    });
    await t.step("prose on stdin", async () => {
      const result = await runCli(sandbox, ["decode", "-"], { stdin: "Looks fine to me." });
      assert.equal(result.code, 3);
      assert.ok(result.stdout.startsWith("Refused:\n"));
    });
    await t.step("missing file", async () => {
      const result = await runCli(sandbox, ["decode", "nope.json"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /Cannot read "nope\.json"/);
    });
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("--help works on every command and --version prints the version", async (t) => {
  await withChangedSandbox(async (sandbox) => {
    for (
      const args of [["--help"], ["review", "--help"], ["schema", "--help"], ["decode", "--help"], [
        "help",
        "review",
      ]]
    ) {
      await t.step(args.join(" "), async () => {
        const result = await runCli(sandbox, args);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /^USAGE\n {2}review-gate /);
        if (args.includes("review")) assert.match(result.stdout, /Exit codes: 0 approved/);
      });
    }
    await t.step("--version", async () => {
      for (const flag of ["--version", "-V"]) {
        const result = await runCli(sandbox, [flag]);
        assert.equal(result.code, 0);
        assert.equal(result.stdout.trim(), denoJson.version);
      }
    });
    await t.step("no arguments", async () => {
      const result = await runCli(sandbox, []);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^USAGE\n {2}review-gate /);
    });
    assert.deepEqual(await readFakeLog(sandbox), []);
  });
});
