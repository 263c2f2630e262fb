/**
 * End to end: `review-gate ci` on a request whose every changed file is excluded by rule (a
 * dependency bump touching only `package-lock.json`): it is NOT reviewed (status `not-reviewed`,
 * no model call), every format says so, and the exit code follows `--on-partial` — 0 by default (a
 * lockfile bump does not fail the job), 3 with `--on-partial block`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { makeSandbox, readFakeLog, runCli } from "../e2e/_cli.ts";

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
