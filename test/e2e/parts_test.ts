/**
 * End-to-end: reviews larger than one prompt, in several model calls — `--plan-only`, one session
 * per part with the whole change's file list, the merged verdict and coverage, per-part verdict
 * reuse, and a part that could not run — in throwaway repositories with the fake provider.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lastRun, makeSandbox, readFakeLog, runCli, type Sandbox } from "./_cli.ts";
import { promptOf } from "./_assert.ts";

/** 12 files of 40 lines in 3 directories, and budgets that fit about 3 files per prompt. */
async function bigChange(): Promise<Sandbox> {
  const sandbox = await makeSandbox({ "k.txt": "k\n" });
  for (let f = 0; f < 12; f++) {
    const body = Array.from({ length: 40 }, (_, i) => `const v${i} = "${"x".repeat(50)}";`);
    await sandbox.repo.write(`d${f % 3}/f${String(f).padStart(2, "0")}.ts`, body.join("\n") + "\n");
  }
  await Deno.writeTextFile(
    join(sandbox.repo.root, ".git", "info", "exclude"),
    ".review-gate.json\n",
  );
  await sandbox.repo.write(
    ".review-gate.json",
    JSON.stringify({ budgets: { file_bytes: 4096, total_bytes: 8192 } }),
  );
  return sandbox;
}

Deno.test("review --plan-only prints the parts without a model call", async () => {
  const sandbox = await bigChange();
  try {
    const text = await runCli(sandbox, ["review", "--plan-only", "--max-calls", "8"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^Review plan for working tree — NOT reviewed: this is a plan only; no model was called\n\d+ model calls; coverage would be complete \(would review [\d,]+ of [\d,]+ changed lines/,
    );
    assert.doesNotMatch(text.stdout, /\breviewed \d/, "a plan never says it reviewed lines");
    assert.match(
      text.stdout,
      /\n {2}part 1: \d+ files \(d0\/f00\.ts and \d+ more\), [\d,]+ changed lines, [\d.]+ KB, ~[\d,]+ tokens/,
    );
    const json = JSON.parse((await runCli(sandbox, ["review", "--plan-only", "--json"])).stdout);
    assert.equal(json.reviewed, false);
    assert.match(json.note, /^NOT reviewed: this is a plan only; no model was called/);
    assert.ok(json.calls >= 3 && json.calls <= 8, `${json.calls} calls`);
    assert.equal(json.parts.flatMap((p: { files: string[] }) => p.files).length, 12);
    assert.equal(json.coverage.status, "complete");
    const one = JSON.parse(
      (await runCli(sandbox, ["review", "--plan-only", "--json", "--max-calls", "1"])).stdout,
    );
    assert.equal(one.calls, 1);
    assert.equal(one.coverage.status, "partial");
    assert.match(
      (await runCli(sandbox, ["review", "--plan-only", "--max-calls", "1"])).stdout,
      /\nWould not be reviewed:\n {2}"?d\d\/f\d+\.ts"?: whole file/,
    );
    // every format says it is a plan; a format that would read as a clean review is refused
    const md = await runCli(sandbox, [
      "review",
      "--plan-only",
      "--format",
      "markdown",
      "--format",
      "json",
      "--output",
      "out/plan.json",
    ]);
    assert.equal(md.code, 0, md.stderr);
    assert.match(
      md.stdout,
      /^# Review plan: NOT reviewed\n[^]*\n> NOT reviewed: this is a plan only/,
    );
    const written = JSON.parse(
      await Deno.readTextFile(join(sandbox.repo.root, "out", "plan.json")),
    );
    assert.equal(written.reviewed, false);
    for (const format of ["sarif", "rdjson", "github"]) {
      const refused = await runCli(sandbox, [
        "review",
        "--plan-only",
        "--format",
        format,
        "--output",
        `out/plan.${format}`,
      ]);
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(
        refused.stderr,
        new RegExp(`--plan-only prints a plan, not a review: the ${format} format`),
      );
      await assert.rejects(Deno.stat(join(sandbox.repo.root, "out", `plan.${format}`)));
    }
    assert.equal((await readFakeLog(sandbox)).length, 0, "no model call");
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review in parts: one session per part, merged verdict, per-part reuse", async () => {
  const sandbox = await bigChange();
  try {
    const first = await runCli(sandbox, ["review", "--json", "--jobs", "2"], { scenario: "valid" });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const json = JSON.parse(first.stdout);
    assert.equal(json.status, "approved");
    assert.equal(json.coverage.status, "complete");
    const planned = json.coverage.chunks.planned;
    assert.ok(planned >= 3, `${planned} parts`);
    assert.deepEqual(json.coverage.chunks, { planned, reviewed: planned, failed: 0 });
    const log = await readFakeLog(sandbox);
    assert.equal(log.length, planned, "one call per part");
    assert.equal(new Set(log.map((c) => c.sessionId)).size, planned, "one session per part");
    const prompts = log.map(promptOf);
    for (let k = 1; k <= planned; k++) {
      assert.equal(prompts.filter((p) => p.includes(`part ${k} of ${planned}:`)).length, 1);
    }
    for (const prompt of prompts) assert.match(prompt, /- "d2\/f11\.ts" \(added\)/, "file list");
    const run = await lastRun(sandbox);
    assert.equal(run.run.parts?.length, planned);
    assert.ok(run.run.attempts.every((a) => typeof a.part === "number"));
    assert.match(run.reviewMd ?? "", /in \d+ of \d+ parts/);

    const again = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(again.code, 0);
    assert.equal((await readFakeLog(sandbox)).length, planned, "the whole verdict is cached");

    // the last file in path order: the chunks before it keep their boundaries and their verdicts
    await sandbox.repo.write("d2/f11.ts", "export const changed = 1;\n");
    const edited = await runCli(sandbox, ["review"], { scenario: "valid" });
    assert.equal(edited.code, 0, edited.stdout);
    const calls = (await readFakeLog(sandbox)).length - planned;
    assert.ok(calls >= 1 && calls < planned, `only changed parts are asked again (${calls})`);
    const reused = `${planned - calls} of ${planned} parts from the cache`;
    assert.match(
      edited.stdout,
      new RegExp(`^review-gate: approved — .*\\(claude [^,]*, [\\d.]+ s, ${reused}\\)$`, "m"),
    );
    const parts = await lastRun(sandbox);
    assert.equal(parts.run.status, "approved");
    assert.match(parts.reviewMd ?? "", new RegExp(`\\n- Parts: ${reused}\\n`));
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review in parts: a file early in the change grows, only its part is asked again", async () => {
  const sandbox = await bigChange();
  try {
    const first = JSON.parse(
      (await runCli(sandbox, ["review", "--json"], { scenario: "valid" })).stdout,
    );
    const planned = first.coverage.chunks.planned;
    assert.ok(planned >= 3, `${planned} parts`);
    const before = await readFakeLog(sandbox);
    assert.equal(before.length, planned);
    // the first file in path order gains a few lines: every part after it keeps its boundaries
    const body = Array.from({ length: 46 }, (_, i) => `const v${i} = "${"x".repeat(50)}";`);
    await sandbox.repo.write("d0/f00.ts", body.join("\n") + "\n");
    const edited = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    assert.equal(edited.code, 0, edited.stdout + edited.stderr);
    const json = JSON.parse(edited.stdout);
    assert.equal(json.coverage.status, "complete");
    assert.equal(json.coverage.chunks.planned, planned);
    const asked = (await readFakeLog(sandbox)).slice(before.length).map(promptOf);
    assert.equal(asked.length, 1, "only the part holding d0/f00.ts is asked again");
    assert.match(asked[0], /part 1 of \d+:/);
    assert.match(asked[0], /^\+const v45 = /m);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review in parts fails with a part that could not run, naming it", async () => {
  const sandbox = await bigChange();
  try {
    const result = await runCli(sandbox, ["review", "--json", "--jobs", "1", "--no-cache"], {
      scenario: "valid,error",
    });
    assert.equal(result.code, 3, result.stdout);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "provider-error");
    assert.match(json.message, /^part 2 of \d+: /);
    assert.equal(json.answer, null);
  } finally {
    await sandbox.cleanup();
  }
});
