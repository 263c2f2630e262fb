/**
 * End to end: `review-gate ack` / `acks` on a throwaway repository with the fake provider — a
 * finding acknowledged by fingerprint or by `<run-id>:<n>` stops blocking `review`, is told to the
 * model, shows as "acknowledged (reason)"; expiry, `--prune`, and clear errors for bad input.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lastRun, readFakeLog, runCli, type Sandbox, writeScenario } from "./_cli.ts";
import { withSandbox } from "./_sandbox_scope.ts";
import { assertValid, rdjsonValidators, sarifValidator } from "../schemas/validators.ts";

const SOURCE = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";
const FINDING = {
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: "Off by one in the bound",
  body: "The bound skips the last item.",
  file: "src/app.ts",
  line_start: 2,
  line_end: 2,
  confidence: 0.9,
  recommendation: "Use <=.",
};
const ANSWER = {
  verdict: "needs-attention",
  summary: "One bug.",
  findings: [FINDING],
  next_steps: [],
};

async function changed(fn: (sb: Sandbox, scenario: string) => Promise<void>): Promise<void> {
  await withSandbox({ "src/app.ts": SOURCE }, async (sb) => {
    await sb.repo.write("src/app.ts", SOURCE.replace("b = 2", "b = 20"));
    const scenario = await writeScenario(sb, "blocking", [{ kind: "valid", answer: ANSWER }]);
    await fn(sb, scenario);
  });
}

const acksPath = (sb: Sandbox) => join(sb.repo.root, ".review-gate", "acks.json");

Deno.test("ack <run-id>:<n> stops a finding blocking review, tells the model and shows the reason", async () => {
  await changed(async (sb, scenario) => {
    const first = await runCli(sb, ["review"], { scenario });
    assert.equal(first.code, 1, first.stderr);
    const id = /id ([0-9a-f]{12})/.exec(first.stdout)?.[1];
    assert.ok(id, first.stdout);
    const run = await lastRun(sb);
    const ack = await runCli(sb, [
      "ack",
      `${run.run.id}:1`,
      "--reason",
      "the bound is inclusive by design",
      "--expires",
      "30d",
    ]);
    assert.equal(ack.code, 0, ack.stderr);
    const stored = JSON.parse(await Deno.readTextFile(acksPath(sb)));
    assert.equal(stored.version, 1);
    assert.ok(stored.acks[0].fingerprint.startsWith(id));
    assert.match(stored.acks[0].expires, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(stored.acks[0].lines, "2");
    assert.equal(stored.acks[0].severity, "high");

    const second = await runCli(sb, ["review"], { scenario });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /1 finding, 1 acknowledged/);
    assert.match(second.stdout, /acknowledged \(the bound is inclusive by design\)/);
    const prompt = (await readFakeLog(sb)).at(-1)?.stdin ?? "";
    assert.match(prompt, /Known and accepted findings/);
    assert.match(prompt, /"Off by one in the bound", accepted because "the bound is inclusive/);
    const md = await Deno.readTextFile(join((await lastRun(sb)).dir, "review.md"));
    assert.match(md, /### HIGH \(acknowledged\): Off by one/);

    const list = await runCli(sb, ["acks"]);
    assert.equal(list.code, 0);
    assert.match(list.stdout, new RegExp(`^${id}  \\[high\\] src/app\\.ts:2 Off by one`, "m"));
    assert.match(list.stdout, /acknowledged \(the bound is inclusive by design\) — until \d{4}/);
    const json = JSON.parse((await runCli(sb, ["acks", "--json"])).stdout);
    assert.equal(json[0].active, true);
  });
});

Deno.test("an expired acknowledgement blocks again and acks --prune removes it", async () => {
  await changed(async (sb, scenario) => {
    const first = await runCli(sb, ["review"], { scenario });
    const id = /id ([0-9a-f]{12})/.exec(first.stdout)![1];
    assert.equal((await runCli(sb, ["ack", id, "--reason", "fine"])).code, 0);
    const stored = JSON.parse(await Deno.readTextFile(acksPath(sb)));
    stored.acks[0].expires = "2020-01-01";
    await Deno.writeTextFile(acksPath(sb), JSON.stringify(stored));
    const again = await runCli(sb, ["review"], { scenario });
    assert.equal(again.code, 1, "an expired acknowledgement no longer holds");
    assert.match((await runCli(sb, ["acks"])).stdout, /EXPIRED 2020-01-01/);
    const pruned = await runCli(sb, ["acks", "--prune"]);
    assert.match(pruned.stdout, /Removed 1 expired/);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(acksPath(sb))).acks, []);
  });
});

Deno.test("ack and acks refuse bad input with exit 2 and a clear message", async (t) => {
  await changed(async (sb, scenario) => {
    await runCli(sb, ["review"], { scenario });
    const cases: [string, string[], RegExp][] = [
      ["not a reference", ["ack", "zz", "--reason", "x"], /neither a fingerprint/],
      ["unknown fingerprint", ["ack", "0123456789ab", "--reason", "x"], /No finding with/],
      ["unknown run", ["ack", "20200101T000000Z-abcdef:1", "--reason", "x"], /No finished run/],
      ["no reason", ["ack", "0123456789ab"], /Expected input for flag --reason/],
      ["past expiry", ["ack", "0123456789ab", "--reason", "x", "--expires", "2001-01-01"], /past/],
      ["bad expiry", ["ack", "0123456789ab", "--reason", "x", "--expires", "soon"], /--expires/],
    ];
    for (const [name, args, message] of cases) {
      await t.step(name, async () => {
        const r = await runCli(sb, args);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, message);
      });
    }
    await t.step("an invalid acks file names itself and the problem", async () => {
      await Deno.mkdir(join(sb.repo.root, ".review-gate"), { recursive: true });
      await Deno.writeTextFile(acksPath(sb), JSON.stringify({ version: 1, acks: [{ file: "x" }] }));
      const r = await runCli(sb, ["review"], { scenario });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Invalid \.review-gate\/acks\.json: .*must have required property/);
    });
    await t.step("schema acks prints the published schema", async () => {
      const r = await runCli(sb, ["schema", "acks"]);
      assert.equal(JSON.parse(r.stdout).$id, "https://review-gate.dev/schemas/acks.schema.json");
    });
  });
});

Deno.test("an acknowledged finding reads 'acknowledged (reason)' in every format; SARIF makes it a suppression", async () => {
  await changed(async (sb, scenario) => {
    const first = await runCli(sb, ["review"], { scenario });
    const id = /id ([0-9a-f]{12})/.exec(first.stdout)![1];
    assert.equal((await runCli(sb, ["ack", id, "--reason", "inclusive by design"])).code, 0);
    const out = (name: string) => join(sb.dir, name);
    const r = await runCli(sb, [
      "review",
      ...["--format", "terminal"],
      ...["--format", "markdown", "--output", out("r.md")],
      ...["--format", "json", "--output", out("r.json")],
      ...["--format", "sarif", "--output", out("r.sarif")],
      ...["--format", "rdjson", "--output", out("r.rdjson")],
      ...["--format", "rdjsonl", "--output", out("r.rdjsonl")],
      ...["--format", "github", "--output", out("r.github")],
    ], { scenario });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const said = /acknowledged\**:? \(inclusive by design\)/i;
    assert.match(r.stdout, said);
    assert.match(await Deno.readTextFile(out("r.md")), said);
    assert.match(
      await Deno.readTextFile(out("r.github")),
      /^::notice .*acknowledged \(inclusive by design\)/m,
    );
    const json = JSON.parse(await Deno.readTextFile(out("r.json")));
    assert.equal(json.blocking, false);
    assert.equal(json.acknowledgedFindings, 1);
    assert.equal(json.findingNotes[0].acknowledged.reason, "inclusive by design");

    const { result, line } = rdjsonValidators();
    const rdjson = JSON.parse(await Deno.readTextFile(out("r.rdjson")));
    assertValid(result, rdjson, "rdjson");
    assert.equal(rdjson.diagnostics[0].severity, "INFO");
    assert.match(rdjson.diagnostics[0].message, /^acknowledged \(inclusive by design\)/);
    for (const l of (await Deno.readTextFile(out("r.rdjsonl"))).trim().split("\n")) {
      assertValid(line, JSON.parse(l), "rdjsonl line");
    }

    const sarif = JSON.parse(await Deno.readTextFile(out("r.sarif")));
    assertValid(sarifValidator(), sarif, "SARIF");
    const [run] = sarif.runs;
    assert.equal(run.invocations[0].executionSuccessful, true);
    assert.deepEqual(run.results[0].suppressions, [{
      kind: "external",
      status: "accepted",
      justification: "inclusive by design",
    }]);
    assert.ok(run.results[0].partialFingerprints.primaryLocationLineHash.startsWith(id));
  });
});

Deno.test("an acknowledged finding on a blank line does not cover the same finding on another blank line", async () => {
  const head = "def add(a, b):\n    return a + b\ndef sub(a, b):\n    return a - b\n";
  const calc = head.replace("a + b\n", "a + b\n\n"); // a blank line 3
  const at = (line: number) => ({
    ...FINDING,
    title: "Missing blank line between functions",
    file: "calc.py",
    line_start: line,
    line_end: line,
  });
  await withSandbox({ "calc.py": head }, async (sb) => {
    await sb.repo.write("calc.py", calc);
    const one = await writeScenario(sb, "blank-3", [{
      kind: "valid",
      answer: { ...ANSWER, findings: [at(3)] },
    }]);
    const first = await runCli(sb, ["review"], { scenario: one });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const id = /id ([0-9a-f]{12})/.exec(first.stdout)![1];
    assert.equal((await runCli(sb, ["ack", id, "--reason", "style, accepted"])).code, 0);

    // a later change: a new blank line at 6, and the same finding at 3 and at 6
    await sb.repo.write("calc.py", calc + "\ndef mul(a, b):\n    return a * b\n");
    const both = await writeScenario(sb, "blank-3-and-6", [{
      kind: "valid",
      answer: { ...ANSWER, findings: [at(3), at(6)] },
    }]);
    const second = await runCli(sb, ["review", "--json"], { scenario: both });
    assert.equal(second.code, 1, "the finding at the other blank line blocks");
    const notes = JSON.parse(second.stdout).findingNotes.map((f: { acknowledged?: unknown }) =>
      f.acknowledged !== undefined
    );
    assert.deepEqual(notes, [true, false], "line 3 stays acknowledged, line 6 is not");
  });
});
