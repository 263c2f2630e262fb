/**
 * End-to-end: trying to break a review in parts — a single hunk larger than one prompt, a
 * rename-only change, a part whose provider hangs, a part whose answer is refused twice — in
 * throwaway repositories with the fake provider. Each must end honestly: reviewed completely, or
 * failed naming the part, never approved for what no model saw. (Two providers disagreeing:
 * test/e2e/council_test.ts; 10,000 tiny files: lib/git/collect_test.ts.)
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lastRun, makeSandbox, processAlive, readFakeLog, runCli, type Sandbox } from "./_cli.ts";
import { promptOf } from "./_assert.ts";

/** Budgets of about 8 KB a prompt, kept out of the change itself. */
async function smallBudgets(sandbox: Sandbox): Promise<void> {
  await Deno.writeTextFile(
    join(sandbox.repo.root, ".git", "info", "exclude"),
    ".review-gate.json\n",
  );
  await sandbox.repo.write(
    ".review-gate.json",
    JSON.stringify({ budgets: { file_bytes: 4096, total_bytes: 8192 } }),
  );
}

/** 9 files of 40 lines in 3 directories: about 3 parts under {@linkcode smallBudgets}. */
async function threeParts(): Promise<Sandbox> {
  const sandbox = await makeSandbox({ "k.txt": "k\n" });
  for (let f = 0; f < 9; f++) {
    const body = Array.from({ length: 40 }, (_, i) => `const v${i} = "${"x".repeat(50)}";`);
    await sandbox.repo.write(`d${f % 3}/f${f}.ts`, body.join("\n") + "\n");
  }
  await smallBudgets(sandbox);
  return sandbox;
}

Deno.test("a single hunk larger than a prompt is reviewed completely, cut at line boundaries", async () => {
  const sandbox = await makeSandbox({ "k.txt": "k\n" });
  try {
    await smallBudgets(sandbox);
    // one new file: one hunk of 600 lines, ~24 KB, three times a prompt
    const lines = Array.from({ length: 600 }, (_, i) => `export const value${i} = ${i} * 2;`);
    await sandbox.repo.write("big.ts", lines.join("\n") + "\n");
    const result = await runCli(sandbox, ["review", "--json", "--max-calls", "16"], {
      scenario: "valid",
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.coverage.status, "complete");
    assert.equal(json.coverage.reviewedLines, 600);
    const planned = json.coverage.chunks.planned;
    assert.ok(planned >= 3, `${planned} parts`);
    const prompts = (await readFakeLog(sandbox)).map(promptOf);
    assert.equal(prompts.length, planned);
    // every line reaches exactly one part, whole (parts after the first repeat a little context)
    for (const i of [0, 299, 599]) {
      const line = new RegExp(`^\\+export const value${i} = ${i} \\* 2;$`, "m");
      assert.equal(prompts.filter((p) => line.test(p)).length, 1, `line ${i + 1}`);
    }
    for (const prompt of prompts) assert.match(prompt, /^@@ -0,0 \+\d+,\d+ @@/m);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a rename-only change is shown as a rename and reviewed, coverage complete", async () => {
  const body = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const sandbox = await makeSandbox({ "old/name.txt": body, "k.txt": "k\n" });
  try {
    await Deno.mkdir(join(sandbox.repo.root, "new"));
    await sandbox.repo.git("mv", "old/name.txt", "new/name.txt");
    const result = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "approved");
    assert.equal(json.coverage.status, "complete");
    assert.deepEqual(json.coverage.omitted, []);
    const [call] = await readFakeLog(sandbox);
    const prompt = promptOf(call);
    assert.match(prompt, /^rename from old\/name\.txt$/m);
    assert.match(prompt, /^rename to new\/name\.txt$/m);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a part whose provider hangs ends the review as timeout naming the part, nothing left running", async () => {
  const sandbox = await threeParts();
  try {
    const started = performance.now();
    const result = await runCli(
      sandbox,
      ["review", "--json", "--jobs", "1", "--no-cache", "--timeout", "3"],
      { scenario: "valid,hang" },
    );
    assert.ok(performance.now() - started < 30_000, "ends soon after the timeout");
    assert.equal(result.code, 3, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "timeout");
    assert.match(json.message, /^part 2 of \d+: /);
    assert.equal(json.answer, null, "no verdict for a change partly seen");
    assert.match(json.unreviewed[0], /^NOT reviewed: timeout/);
    const log = await readFakeLog(sandbox);
    const hung = log.find((c) => c.step === "hang")!;
    assert.equal(await processAlive(hung.grandchildPid!), false, "the grandchild is gone");
    assert.equal(await processAlive(hung.pid), false, "the provider is gone");
    const run = await lastRun(sandbox);
    assert.equal(run.run.parts?.[0].status, "ok");
    assert.equal(run.run.parts?.[1].status, "timeout");
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a part whose answer is refused twice fails the review as invalid-answer, naming it", async () => {
  const sandbox = await threeParts();
  try {
    // attempts are counted across calls: part 1 answers, part 2's answer and its resume are refused
    const result = await runCli(sandbox, ["review", "--json", "--jobs", "1", "--no-cache"], {
      scenario: "valid,schema-invalid,schema-invalid,valid",
    });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "invalid-answer");
    assert.match(json.message, /^part 2 of \d+: /);
    assert.ok(json.refusal.length > 0, "the last refusal is kept");
    assert.equal(json.answer, null);
    const log = await readFakeLog(sandbox);
    const part2 = log.filter((c) => c.attempt === 2 || c.attempt === 3);
    assert.equal(part2.length, 2);
    assert.equal(part2[1].sessionId, part2[0].sessionId, "one corrective resume, same session");
    const run = await lastRun(sandbox);
    assert.deepEqual(run.run.parts?.map((p) => p.status).slice(0, 2), ["ok", "invalid-answer"]);
  } finally {
    await sandbox.cleanup();
  }
});
