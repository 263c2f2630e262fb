/**
 * End-to-end: `review-gate init` writes a commented `.review-gate.json` at the repository's root
 * (from any directory in it), asking nothing off a terminal; the file loads as review-gate reads
 * it (the next review uses its provider); an existing file is left alone (exit 2) unless
 * `--force`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox, runCli } from "./_cli.ts";

Deno.test("init writes a commented config the next review loads, and never overwrites without --force", async () => {
  const sandbox = await makeSandbox({ "src/a.txt": "one\n" });
  try {
    const path = join(sandbox.repo.root, ".review-gate.json");
    const wrote = await runCli(sandbox, ["init", "--provider", "codex"], {
      cwd: join(sandbox.repo.root, "src"),
    });
    assert.equal(wrote.code, 0, wrote.stdout + wrote.stderr);
    assert.match(wrote.stdout, /Wrote .*\.review-gate\.json/);
    const text = await Deno.readTextFile(path);
    assert.match(text, /^\/\/ review-gate configuration/);
    assert.match(text, /"\$schema": "https:\/\/review-gate\.dev\/schemas\/config\.schema\.json"/);
    assert.match(text, /"provider": "codex"/);

    // the next review reads it: codex is asked
    await sandbox.repo.write("src/a.txt", "two\n");
    const review = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    assert.equal(review.code, 0, review.stdout + review.stderr);
    assert.equal(JSON.parse(review.stdout).provider, "codex");
    const doctor = await runCli(sandbox, ["doctor"]);
    assert.doesNotMatch(doctor.stdout + doctor.stderr, /Invalid config/);

    // an existing file is never replaced without --force
    await Deno.writeTextFile(path, '{ "provider": "vibe" }\n');
    const refused = await runCli(sandbox, ["init"]);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      /already exists: edit it, or replace it with "review-gate init --force"/,
    );
    assert.equal(await Deno.readTextFile(path), '{ "provider": "vibe" }\n');
    const forced = await runCli(sandbox, ["init", "--force"]);
    assert.equal(forced.code, 0, forced.stdout + forced.stderr);
    assert.match(forced.stdout, /Replaced/);
    assert.match(await Deno.readTextFile(path), /"provider": "auto"/);
  } finally {
    await sandbox.cleanup();
  }
});
