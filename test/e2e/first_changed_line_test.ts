/**
 * End-to-end: the bundled `first_changed_line.json` scenario of the fake provider (README.md "Try
 * it") blocks any change a user gives it, at the first line the change adds — and follows the diff
 * when it moves, where a hand-written answer for exact lines would go stale.
 *
 * @module
 */
import assert from "node:assert/strict";
import { FIXTURES, makeSandbox, runCli } from "./_cli.ts";

const SCENARIO = `${FIXTURES}/fake/scenarios/first_changed_line.json`;

Deno.test("the first-changed-line scenario blocks at the first added line, wherever the diff moves", async () => {
  const sandbox = await makeSandbox({
    "README.md": "# demo\n",
    "src/app.ts": "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
  });
  try {
    await sandbox.repo.write(
      "src/app.ts",
      "export const a = 1;\nexport const b = 20;\nexport const c = 3;\n",
    );
    const first = await runCli(sandbox, ["review", "--no-cache"], { scenario: SCENARIO });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.match(first.stdout, /needs attention/);
    assert.match(first.stdout, /\[HIGH\][^\n]*\n?[^\n]*src\/app\.ts:2\b/);

    // the change moves: two new lines on top of another file come first in the diff (README.md < src/)
    await sandbox.repo.write("README.md", "# demo\n\nIntro.\n");
    const moved = await runCli(sandbox, ["review", "--no-cache"], { scenario: SCENARIO });
    assert.equal(moved.code, 1, moved.stdout + moved.stderr);
    assert.match(moved.stdout, /README\.md:2\b/);

    // a change that adds no line is approved
    await sandbox.repo.write("README.md", "# demo\n");
    await sandbox.repo.write("src/app.ts", "export const a = 1;\nexport const c = 3;\n");
    const removed = await runCli(sandbox, ["review", "--no-cache"], { scenario: SCENARIO });
    assert.equal(removed.code, 0, removed.stdout + removed.stderr);
    assert.match(removed.stdout, /approved/);
  } finally {
    await sandbox.cleanup();
  }
});
