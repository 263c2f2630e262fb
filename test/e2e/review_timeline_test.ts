/**
 * When a review's git calls start, read from its `REVIEW_GATE_TRACE=1` timeline (lib/base/trace.ts;
 * lib/git/git.ts traces every git call): the repository's `git rev-parse` starts before the CLI has
 * loaded (main.ts), the working tree's `git add` before the review's own code has (lib/cli/
 * review_ahead.ts) — for `--plan-only` too — and a cache hit makes only the git calls that prove the change is the one
 * reviewed (docs/design.md "Performance notes": nothing waits on what can run beside it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./_cli.ts";

/** The labels of one traced `review`, in order. */
async function timeline(sandbox: Sandbox, args: string[]): Promise<string[]> {
  const out = await runCli(sandbox, ["review", ...args], {
    scenario: "valid",
    env: { REVIEW_GATE_TRACE: "1" },
  });
  assert.equal(out.code, 0, out.stderr);
  return out.stderr.split("\n").flatMap((line) => {
    const m = line.match(/^review-gate trace +[0-9.]+ ms (.*)$/);
    return m ? [m[1]] : [];
  });
}

/** The index of the first label that starts with `prefix`; fails when there is none. */
function at(labels: string[], prefix: string): number {
  const i = labels.findIndex((l) => l.startsWith(prefix));
  assert.ok(i >= 0, `no "${prefix}" in the timeline:\n${labels.join("\n")}`);
  return i;
}

Deno.test("a review's first git calls start before the code that uses them has loaded", async () => {
  const sandbox = await makeSandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    await Deno.writeTextFile(join(sandbox.repo.root, "src/app.ts"), "export const a = 2;\n");
    for (const args of [["--no-cache"], [], ["--plan-only"]]) {
      const labels = await timeline(sandbox, args);
      assert.ok(
        at(labels, "git rev-parse started") < at(labels, "app.ts loaded"),
        labels.join("\n"),
      );
      assert.ok(
        at(labels, "git add started") < at(labels, "review: review_action.ts loaded"),
        labels.join("\n"),
      );
      assert.equal(labels.filter((l) => l.startsWith("git rev-parse started")).length, 1);
    }
    const hit = (await timeline(sandbox, [])).filter((l) =>
      / started$/.test(l) && l.startsWith("git ")
    );
    assert.deepEqual(
      hit.map((l) => l.split(" ")[1]).sort(),
      ["add", "check-attr", "diff-tree", "rev-parse", "write-tree"],
      "a cache hit's git calls",
    );
  } finally {
    await sandbox.cleanup();
  }
});
