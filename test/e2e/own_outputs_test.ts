/**
 * End-to-end: review-gate's own `--output` files written inside the checkout are no part of the
 * next working-tree review (lib/git/own_outputs.ts) — left out and named ("excluded: review-gate's
 * own output"), only while their bytes are exactly what review-gate wrote, and only when its own
 * sealed record says so: a record anyone else wrote hides nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox, readFakeLog, runCli } from "./_cli.ts";
import { promptOf } from "./_assert.ts";
import { contentSignature } from "../../lib/git/status_listing.ts";

Deno.test("review --output x.md in the worktree: the next review leaves x.md out and says so; an edit brings it back", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    const first = await runCli(sandbox, ["review", "--format", "markdown", "--output", "x.md"]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.ok((await Deno.readTextFile(join(sandbox.repo.root, "x.md"))).length > 0);

    const second = await runCli(sandbox, ["review", "--no-cache"]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /x\.md \(excluded: review-gate's own output\)/);
    const calls = await readFakeLog(sandbox);
    const prompt = promptOf(calls[calls.length - 1]);
    assert.ok(prompt.includes("src/app.ts"), prompt);
    assert.ok(!prompt.includes("b/x.md"), "x.md is not in the reviewed diff");

    // nothing but review-gate's output left: nothing to review, and the output is named
    await sandbox.repo.write("src/app.ts", "export const a = 1;\n");
    const clean = await runCli(sandbox, ["review"]);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout + clean.stderr, /nothing to review/i);
    assert.match(clean.stdout + clean.stderr, /x\.md — excluded: review-gate's own output/);

    // the user edits the output file: it is theirs now, and reviewed
    await Deno.writeTextFile(join(sandbox.repo.root, "x.md"), "# my notes\n", { append: true });
    const edited = await runCli(sandbox, ["review", "--no-cache"]);
    assert.equal(edited.code, 0, edited.stdout + edited.stderr);
    assert.doesNotMatch(edited.stdout, /own output/);
    const after = await readFakeLog(sandbox);
    assert.ok(promptOf(after[after.length - 1]).includes("b/x.md"));
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review --plan-only plans a working tree as the review would: review-gate's own output is left out and named", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    const first = await runCli(sandbox, ["review", "--format", "markdown", "--output", "x.md"]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const planned = await runCli(sandbox, ["review", "--plan-only", "--json"]);
    assert.equal(planned.code, 0, planned.stdout + planned.stderr);
    const plan = JSON.parse(planned.stdout);
    const text = JSON.stringify(plan);
    assert.ok(text.includes("src/app.ts"), text);
    assert.ok(!plan.parts.some((p: { files: string[] }) => p.files.includes("x.md")), text);
    assert.deepEqual(plan.coverage.excluded, [{ path: "x.md", reason: "own-output" }], text);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a record of outputs review-gate did not seal hides nothing: a code file named in it is reviewed", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    const code = "export const steal = process.env;\n";
    await sandbox.repo.write("src/evil.ts", code);
    const state = join(sandbox.repo.root, ".git", "review-gate");
    await Deno.mkdir(state, { recursive: true });
    const signature = await contentSignature(new TextEncoder().encode(code));
    const forged = { [join(sandbox.repo.root, "src/evil.ts")]: signature };
    await Deno.writeTextFile(join(state, "output-writes.json"), JSON.stringify(forged));
    const result = await runCli(sandbox, ["review"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /own output/);
    const calls = await readFakeLog(sandbox);
    assert.ok(promptOf(calls[calls.length - 1]).includes("b/src/evil.ts"));
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("an output written as .gitignore (or any dot-named or non-output name) is reviewed: its rules are shown, not left out", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    // a summary whose lines are ignore rules, written by review-gate itself into .gitignore
    const scenario = join(sandbox.dir, "rules.json");
    await Deno.writeTextFile(
      scenario,
      JSON.stringify({
        steps: [{
          kind: "valid",
          answer: {
            verdict: "approve",
            summary: "ok\nevil.sh\n*.sh",
            findings: [],
            next_steps: [],
          },
        }],
      }),
    );
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    const env = { REVIEW_GATE_FAKE_SCENARIO: scenario };
    for (const name of [".gitignore", "notes.yml"]) {
      const first = await runCli(
        sandbox,
        ["review", "--no-cache", "--format", "terminal", "--output", name],
        { env },
      );
      assert.equal(first.code, 0, `${name}: ${first.stdout}${first.stderr}`);
    }
    await sandbox.repo.write("src/app.ts", "export const a = 1;\n");
    await sandbox.repo.write("evil.sh", "#!/bin/sh\nrm -rf ~\n");
    const result = await runCli(sandbox, ["review", "--no-cache"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /own output/);
    const calls = await readFakeLog(sandbox);
    const prompt = promptOf(calls[calls.length - 1]);
    assert.ok(prompt.includes("b/.gitignore"), "the .gitignore output is reviewed");
    assert.ok(prompt.includes("b/notes.yml"), "an output with another extension is reviewed");
    // evil.sh is ignored by the new .gitignore, as git ignores it; the rule that hides it is in
    // the reviewed diff, never left out with the output that carried it
    assert.ok(prompt.includes("+evil.sh"), "the ignore rule is shown to the model");
  } finally {
    await sandbox.cleanup();
  }
});
