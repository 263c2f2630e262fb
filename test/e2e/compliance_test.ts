/**
 * End-to-end: `review-gate review --plan PLAN.md` — a plan-compliance review — against each
 * provider (the fake claude, codex and vibe CLIs): what each receives (Claude's `--json-schema`
 * and Codex's `--output-schema` are the compliance schema's dialects, Vibe's prompt carries its
 * canonical text), the decoder's coherence refusal and one corrective resume, `compliance.json` +
 * `compliance.md` (no `answer.json`), terminal and `--json` output, and the exit code with and
 * without `--fail-on-missing`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { promptOf, resumedSession } from "./_assert.ts";
import {
  lastRun,
  makeSandbox,
  PROVIDERS,
  readFakeLog,
  repoState,
  runCli,
  type Sandbox,
  writeScenario,
} from "./_cli.ts";

const PLAN = [
  "# Plan",
  "",
  "- [ ] Export a `half()` helper from src/math.ts",
  "- [ ] Add a test for it",
  "",
].join("\n");

const ANSWER = {
  verdict: "incomplete",
  summary: "half() is there; its test is not.",
  items: [
    {
      id: "1",
      status: "done",
      evidence: [{ file: "src/math.ts", line_start: 1, line_end: 3 }],
      note: "half() divides by two.",
    },
    { id: "2", status: "missing", evidence: [], note: "No test file in the change." },
  ],
  unplanned_changes: [],
};

async function planSandbox(): Promise<Sandbox> {
  const sandbox = await makeSandbox({ "README.md": "hello\n", "PLAN.md": PLAN });
  await sandbox.repo.write(
    "src/math.ts",
    "export function half(n: number): number {\n  return n / 2;\n}\n",
  );
  return sandbox;
}

for (const provider of PROVIDERS) {
  Deno.test(`review --plan --provider ${provider}: judged, stored as compliance.json + compliance.md, gated by --fail-on-missing`, async () => {
    const sb = await planSandbox();
    try {
      const before = await repoState(sb.repo);
      const scenario = await writeScenario(sb, "answer", [{ kind: "valid", answer: ANSWER }]);
      const out = await runCli(sb, ["review", "--plan", "PLAN.md", "--provider", provider], {
        scenario,
      });
      assert.equal(out.code, 0, out.stderr);
      assert.match(
        out.stdout,
        /^review-gate: plan compliance incomplete — 1 of 2 items done, 1 missing \(/,
      );
      assert.ok(out.stdout.includes("[MISSING] 2  Add a test for it\n"), out.stdout);
      const run = await lastRun(sb);
      assert.equal(run.run.status, "needs-attention");
      assert.equal(run.run.answerKind, "compliance");
      assert.deepEqual(run.run.itemCounts, { done: 1, missing: 1 });
      assert.ok(run.files.includes("compliance.json") && run.files.includes("compliance.md"));
      assert.ok(!run.files.includes("answer.json") && !run.files.includes("review.md"));
      const stored = JSON.parse(await Deno.readTextFile(join(run.dir, "compliance.json")));
      assert.deepEqual(stored, ANSWER);
      assert.match(
        await Deno.readTextFile(join(run.dir, "compliance.md")),
        /^# Plan compliance: incomplete\n/,
      );
      assert.deepEqual(await repoState(sb.repo), before);

      const [call] = await readFakeLog(sb);
      const prompt = promptOf(call);
      assert.ok(prompt.includes('- "2": Add a test for it'), prompt);
      if (provider === "claude" || provider === "qwen") {
        const schema = JSON.parse(call.argv[call.argv.indexOf("--json-schema") + 1]);
        assert.equal(schema.title, "review-gate plan-compliance answer");
        assert.equal(schema.$schema, undefined);
      } else if (provider === "codex") {
        assert.ok(call.schemaFile?.includes('"unplanned_changes"'), call.schemaFile ?? "");
        assert.ok(call.schemaFile?.includes('"pattern": "\\\\S"'), "strict-mode dialect");
      } else {
        // vibe and gemini: the canonical schema in the prompt
        assert.ok(prompt.includes("https://review-gate.dev/schemas/compliance.schema.json"));
      }

      // The same plan and change again: a cached verdict; a gate on missing items blocks.
      const gated = await runCli(sb, [
        "review",
        "--plan",
        "PLAN.md",
        "--provider",
        provider,
        "--fail-on-missing",
        "--json",
      ], { scenario });
      assert.equal(gated.code, 1, gated.stderr);
      const envelope = JSON.parse(gated.stdout);
      assert.equal(envelope.answerKind, "compliance");
      assert.equal(envelope.cached, true);
      assert.equal(envelope.blocking, true);
      assert.equal(envelope.blockingItems, 1);
      assert.deepEqual(envelope.plan.items.map((i: { id: string }) => i.id), ["1", "2"]);
      assert.equal((await readFakeLog(sb)).length, 1, "the cached verdict made no model call");
    } finally {
      await sb.cleanup();
    }
  });
}

for (const provider of PROVIDERS) {
  Deno.test(`review --plan --provider ${provider}: an answer missing a plan item is refused, resumed once with the refusal, then accepted`, async () => {
    const sb = await planSandbox();
    try {
      const partial = { ...ANSWER, items: [ANSWER.items[0]], verdict: "compliant" };
      const scenario = await writeScenario(sb, "resume", [
        { kind: "valid", answer: partial },
        { kind: "valid", answer: ANSWER },
      ]);
      const out = await runCli(sb, ["review", "--plan", "PLAN.md", "--provider", provider], {
        scenario,
      });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /^review-gate: plan compliance incomplete — 1 of 2 items done/);
      const calls = await readFakeLog(sb);
      assert.equal(calls.length, 2);
      assert.equal(resumedSession(calls[0]), undefined);
      assert.equal(resumedSession(calls[1]), calls[0].sessionId, "the same session, resumed");
      const corrective = promptOf(calls[1]);
      assert.ok(
        corrective.includes(`plan item "2" ("Add a test for it") has no entry: answer every item`),
        corrective,
      );
      const run = await lastRun(sb);
      assert.equal(run.run.attempts.length, 2);
      assert.deepEqual(
        JSON.parse(await Deno.readTextFile(join(run.dir, "compliance.json"))),
        ANSWER,
      );
    } finally {
      await sb.cleanup();
    }
  });
}

Deno.test("review --plan: a changed plan is a new review; usage errors (a format that cannot show it too) exit 2 before any model call or job", async () => {
  const sb = await planSandbox();
  try {
    const scenario = await writeScenario(sb, "answer", [{ kind: "valid", answer: ANSWER }]);
    assert.equal((await runCli(sb, ["review", "--plan", "PLAN.md"], { scenario })).code, 0);
    await Deno.writeTextFile(join(sb.repo.root, "PLAN.md"), PLAN + "- [ ] Nothing else\n");
    const third = {
      ...ANSWER,
      items: [...ANSWER.items, {
        id: "3",
        status: "done",
        evidence: [{ file: "src/math.ts", line_start: 1, line_end: 1 }],
        note: "Nothing else.",
      }],
    };
    const scenario2 = await writeScenario(sb, "answer3", [{ kind: "valid", answer: third }]);
    const again = await runCli(sb, ["review", "--plan", "PLAN.md"], { scenario: scenario2 });
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await readFakeLog(sb)).length, 2, "a new plan is not a cache hit");

    for (
      const [args, message] of [
        [["--plan", "missing.md"], /Cannot read the plan "missing.md"/],
        [["--fail-on-missing"], /--fail-on-missing only applies with --plan/],
        [["--plan", "PLAN.md", "--adversarial"], /--adversarial is a code review prompt/],
        [["--plan", "README.md"], /No plan items found in "README.md"/],
        [["--plan", "PLAN.md", "--format", "sarif"], /The sarif format cannot show a "compliance"/],
        [
          ["--plan", "PLAN.md", "--background", "--format", "github", "--output", "g.txt"],
          /The github format cannot show a "compliance" run: use terminal, json, markdown/,
        ],
      ] as const
    ) {
      const out = await runCli(sb, ["review", ...args], { scenario });
      assert.equal(out.code, 2, `${args.join(" ")}: ${out.stderr}`);
      assert.match(out.stderr, message);
    }
    assert.equal((await readFakeLog(sb)).length, 2, "no model call for a refused request");
    const jobs = await runCli(sb, ["jobs", "--json"]);
    assert.deepEqual(JSON.parse(jobs.stdout), [], "no background job was started");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("decode --plan judges a compliance answer like a provider's", async () => {
  const sb = await planSandbox();
  try {
    const good = join(sb.dir, "good.json");
    await Deno.writeTextFile(good, JSON.stringify(ANSWER));
    const ok = await runCli(sb, ["decode", good, "--plan", "PLAN.md"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), ANSWER);
    const bad = join(sb.dir, "bad.json");
    await Deno.writeTextFile(bad, JSON.stringify({ ...ANSWER, verdict: "compliant" }));
    const refused = await runCli(sb, ["decode", bad, "--kind", "compliance", "--plan", "PLAN.md"]);
    assert.equal(refused.code, 3);
    assert.match(refused.stdout, /^Refused:\n`\/verdict`: "compliant" does not match the items/);
    const noPlan = await runCli(sb, ["decode", good, "--kind", "compliance"]);
    assert.equal(noPlan.code, 2);
    assert.match(
      noPlan.stderr,
      /A compliance answer is judged against its input: add --plan <file>/,
    );
    const schema = await runCli(sb, ["schema", "compliance", "--dialect", "codex"]);
    assert.equal(schema.code, 0, schema.stderr);
    assert.equal(JSON.parse(schema.stdout).$id, undefined);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("review --plan --background: the job's result renders the compliance review and exits by --fail-on-missing", async () => {
  const sb = await planSandbox();
  try {
    const contradicted = {
      verdict: "deviates",
      summary: "half() exists but multiplies; no test.",
      items: [
        {
          id: "1",
          status: "contradicted",
          evidence: [{ file: "src/math.ts", line_start: 2, line_end: 2 }],
          note: "It divides, the plan says so, but the note says otherwise.",
        },
        ANSWER.items[1],
      ],
      unplanned_changes: [],
    };
    const scenario = await writeScenario(sb, "bg", [{ kind: "valid", answer: contradicted }]);
    const start = await runCli(sb, [
      "review",
      "--plan",
      "PLAN.md",
      "--fail-on-missing",
      "--background",
    ], { scenario });
    assert.equal(start.code, 0, start.stderr);
    const id = start.stdout.split("\n")[0];
    const waited = await runCli(sb, ["status", id, "--wait", "--timeout", "120", "--json"]);
    assert.equal(waited.code, 0, waited.stderr);
    const job = JSON.parse(waited.stdout);
    assert.equal(job.state, "finished");
    assert.equal(job.answerKind, "compliance");
    assert.equal(job.exitCode, 1, "contradicted items block with --fail-on-missing");
    const result = await runCli(sb, ["result", id]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^review-gate: plan compliance deviates — 0 of 2 items done, 1 missing, 1 contradicted, 2 blocking/,
    );
    assert.ok(result.stdout.includes("[CONTRADICTED] 1  Export a `half()` helper"), result.stdout);
    const json = JSON.parse((await runCli(sb, ["result", id, "--json"])).stdout);
    assert.equal(json.answerKind, "compliance");
    assert.equal(json.blockingItems, 2);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("review --plan with the fake's default scenario (as the README's try-it uses it): every item missing, on each provider", async () => {
  const sb = await planSandbox();
  try {
    for (const provider of PROVIDERS) {
      const out = await runCli(sb, ["review", "--plan", "PLAN.md", "--provider", provider], {
        scenario: "valid",
      });
      assert.equal(out.code, 0, `${provider}: ${out.stderr}${out.stdout}`);
      assert.match(
        out.stdout,
        /^review-gate: plan compliance incomplete — 0 of 2 items done, 2 missing \(/,
      );
      assert.ok(out.stdout.includes("every item is reported missing"), out.stdout);
    }
  } finally {
    await sb.cleanup();
  }
});
