/**
 * End to end: a CI run that saw only part of the request never reads as a plain pass. With a
 * binary file left out, `ci --on-partial block` exits 1 and says why, every headline says
 * "partially reviewed", the coverage sentence names the binary file, and the ledger counts the
 * block.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "../e2e/_cli.ts";
import { makeCiSandbox } from "./_ci.ts";

Deno.test("ci --on-partial block on a request with a binary file left out: exit 1, says why, headlines say partially reviewed", async () => {
  const sb = await makeCiSandbox("full", {
    request: { "logo.bin": "\u0089PNG\u0000\u0001\u0002" },
  });
  try {
    const ci = (args: string[]) =>
      runCli(sb, ["ci", "--base", "origin/main", ...args], {
        cwd: sb.workspace,
        scenario: "valid",
        env: { CI: "true" },
      });
    const r = await ci(["--on-partial", "block", "--format", "terminal"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^review-gate: approved \(partially reviewed\) — 0 findings/m);
    assert.match(
      r.stdout,
      /reviewed 2 of 2 changed lines \(.*\); not shown at all: 1 binary file \("logo\.bin"\)/,
    );
    assert.match(
      r.stderr,
      /review-gate ci: failing \(exit 1\) because --on-partial is "block" and the change was only partially reviewed/,
    );
    const md = await ci(["--on-partial", "block", "--format", "markdown"]);
    assert.equal(md.code, 1, md.stderr);
    assert.match(md.stdout, /^# Review: approved \(partially reviewed\)$/m);
    assert.match(
      md.stdout,
      /^- Coverage: partial — .*not shown at all: 1 binary file \("logo\.bin"\)/m,
    );
    const stats = await runCli(sb, ["stats", "--json"], { cwd: sb.workspace });
    assert.equal(stats.code, 0, stats.stderr);
    assert.equal(JSON.parse(stats.stdout).total.blocks, 2, "both blocked runs count as blocks");
    const allowed = await ci(["--format", "terminal"]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.doesNotMatch(allowed.stderr, /failing/);
  } finally {
    await sb.cleanup();
  }
});
