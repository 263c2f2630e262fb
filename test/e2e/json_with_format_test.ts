/**
 * End-to-end: `--json` beside `--format` is never silently dropped — refused with a usage error
 * (exit 2, docs/design.md "Statuses and exit codes") when both would print on stdout, honoured
 * beside `--format X --output FILE`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox, runCli } from "./_cli.ts";

Deno.test("--json with a --format on stdout is a usage error; with --output both are written", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    for (
      const args of [
        ["review", "--json", "--format", "sarif"],
        ["review", "--plan-only", "--json", "--format", "markdown"],
      ]
    ) {
      const refused = await runCli(sandbox, args);
      assert.equal(refused.code, 2, args.join(" ") + "\n" + refused.stdout + refused.stderr);
      // --json asked for JSON: the usage error comes as the JSON error envelope
      const envelope = JSON.parse(refused.stdout);
      assert.equal(envelope.exitCode, 2);
      assert.match(envelope.message, /--json prints the review as JSON on stdout/);
    }
    const both = await runCli(sandbox, [
      "review",
      "--json",
      "--format",
      "sarif",
      "--output",
      "out/r.sarif",
    ]);
    assert.equal(both.code, 0, both.stdout + both.stderr);
    assert.equal(JSON.parse(both.stdout).status, "approved");
    const sarif = JSON.parse(await Deno.readTextFile(join(sandbox.repo.root, "out/r.sarif")));
    assert.equal(sarif.version, "2.1.0");
  } finally {
    await sandbox.cleanup();
  }
});
