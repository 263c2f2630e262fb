/**
 * End to end: `review-gate ci` on a request whose every changed file is excluded by rule (a
 * dependency bump touching only `package-lock.json`): it is NOT reviewed (status `not-reviewed`,
 * no model call), every format says so, and the exit code follows `--on-partial` — 0 by default (a
 * lockfile bump does not fail the job), 3 with `--on-partial block`; likewise a request that
 * changes only a binary file.
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeSandbox, readFakeLog, runCli } from "../e2e/_cli.ts";
import { join } from "node:path";

const LOCK = '{"name":"x","lockfileVersion":3,"packages":{"":{}}}\n';

Deno.test("ci: a request whose every file is excluded is NOT reviewed; --on-partial block fails it", async () => {
  const sb = await makeSandbox({
    "src/app.ts": "export const a = 1;\n",
    "package-lock.json": LOCK,
  });
  try {
    await sb.repo.git("switch", "-q", "-c", "bump");
    await sb.repo.write("package-lock.json", LOCK.replace('"x"', '"y"'));
    await sb.repo.git("commit", "-q", "-am", "bump");
    const env = { CI: "true" };
    const r = await runCli(sb, ["ci", "--base", "main", "--format", "json"], {
      scenario: "valid",
      env,
    });
    assert.equal(r.code, 0, r.stderr);
    const envelope = JSON.parse(r.stdout);
    assert.equal(envelope.status, "not-reviewed");
    assert.equal(
      envelope.message,
      "every changed file is excluded by rule: package-lock.json (default: npm lockfile)",
    );
    const text = await runCli(sb, ["ci", "--base", "main", "--format", "terminal"], {
      scenario: "valid",
      env,
    });
    assert.match(
      text.stdout,
      /NOT reviewed — every changed file is excluded by rule: package-lock\.json/,
    );
    const strict = await runCli(sb, ["ci", "--base", "main", "--on-partial", "block"], {
      scenario: "valid",
      env,
    });
    assert.equal(strict.code, 3, strict.stderr);
    assert.equal((await readFakeLog(sb)).length, 0, "no model call");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("ci: a binary-only request is NOT reviewed; --on-partial block exits 3 and no model is asked", async () => {
  const sb = await makeSandbox({
    "src/app.ts": "export const a = 1;\n",
    "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
  });
  try {
    await sb.repo.git("switch", "-q", "-c", "logo");
    await Deno.writeFile(join(sb.repo.root, "logo.png"), new Uint8Array([0x89, 0x50, 0, 9, 8, 7]));
    await sb.repo.git("commit", "-q", "-am", "new logo");
    const env = { CI: "true" };
    const plain = await runCli(sb, ["ci", "--base", "main", "--format", "json"], {
      scenario: "valid",
      env,
    });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(JSON.parse(plain.stdout).status, "not-reviewed");
    const strict = await runCli(
      sb,
      ["ci", "--base", "main", "--on-partial", "block", "--format", "json"],
      { scenario: "valid", env },
    );
    assert.equal(strict.code, 3, strict.stderr);
    assert.equal(JSON.parse(strict.stdout).status, "not-reviewed");
    assert.equal((await readFakeLog(sb)).length, 0, "no model call");
  } finally {
    await sb.cleanup();
  }
});
