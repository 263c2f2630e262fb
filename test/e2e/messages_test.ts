/**
 * End-to-end: the command line's first-hour messages (issue 25 item 8) — one `review-gate:`
 * prefix, suggestions only for a close value, a `chmod +x` hint for a provider binary without the
 * execute bit, `gate disable`'s help showing the gate as required, and the README's `review`
 * synopsis naming every flag `review --help` lists.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeSandbox, runCli } from "./_cli.ts";
import { PROVIDER_NAMES } from "../../lib/providers/registry.ts";

Deno.test("messages: one prefix, close suggestions only, a chmod hint, a required gate name", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    const ci = await runCli(sandbox, ["ci"]);
    assert.equal(ci.code, 2, ci.stderr);
    assert.match(ci.stderr, /^review-gate: ci found no pull or merge request/m);
    assert.doesNotMatch(ci.stderr + ci.stdout, /review-gate: review-gate /);

    const far = await runCli(sandbox, ["review", "--provider", "gpt"]);
    assert.equal(far.code, 2);
    assert.ok(
      far.stderr.includes(`Expected "gpt" to be one of (${PROVIDER_NAMES.join("|")})`),
      far.stderr,
    );
    assert.doesNotMatch(far.stderr, /did you mean/, "no provider name is like gpt");
    const near = await runCli(sandbox, ["review", "--provider", "claud"]);
    assert.match(near.stderr, /did you mean "claude"\?/);

    const gate = await runCli(sandbox, ["gate", "disable", "pre-pus"]);
    assert.equal(gate.code, 2);
    assert.match(gate.stderr, /Unknown gate "pre-pus" \(did you mean "pre-push"\?\): choose/);
    const nameless = await runCli(sandbox, ["gate", "disable"]);
    assert.equal(nameless.code, 2);
    assert.match(
      nameless.stderr,
      /Name the gate: choose pre-push, claude-stop, codex-stop, copilot-stop, qwen-stop, gemini-stop or all/,
    );
    const help = await runCli(sandbox, ["gate", "disable", "--help"]);
    assert.match(help.stdout, /review-gate gate disable \[--user\] <gate>\n/);

    const bin = join(sandbox.dir, "claude");
    await Deno.writeTextFile(bin, "#!/bin/sh\nexit 0\n");
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    const review = await runCli(sandbox, ["review"], { env: { REVIEW_GATE_CLAUDE_BIN: bin } });
    assert.equal(review.code, 3, review.stdout + review.stderr);
    assert.ok(
      review.stdout.includes(`"${bin}" is not executable: run chmod +x "${bin}"`),
      review.stdout,
    );
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("the README's review synopsis names every flag review --help lists", async () => {
  const sandbox = await makeSandbox({ "a.txt": "a\n" });
  try {
    const help = await runCli(sandbox, ["review", "--help"]);
    const usage = help.stdout.split("\n").find((l) => l.trim().startsWith("review-gate review ["))!;
    const flags = [...usage.matchAll(/\[(--[a-z-]+)/g)].map((m) => m[1]);
    assert.ok(flags.includes("--providers") && flags.length > 10, usage);
    const readme = await Deno.readTextFile(
      fileURLToPath(new URL("../../README.md", import.meta.url)),
    );
    const start = readme.indexOf("```\nreview-gate review [");
    const synopsis = readme.slice(start, readme.indexOf("```", start + 3));
    const missing = flags.filter((f) => !new RegExp(`${f}(?![a-z-])`).test(synopsis));
    assert.deepEqual(missing, [], "flags review --help lists that the README synopsis omits");
  } finally {
    await sandbox.cleanup();
  }
});
