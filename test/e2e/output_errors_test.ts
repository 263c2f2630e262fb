/**
 * End to end: failures of review-gate's own surroundings get a clean message and exit 3, never
 * "internal error": `stats` with a state directory that is not a folder, and output that cannot be
 * written (`review > /dev/full`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAIN, makeSandbox, runCli } from "./_cli.ts";

Deno.test("stats with an unusable state directory says it cannot read it (exit 3)", async () => {
  const sb = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  try {
    const state = join(sb.repo.root, ".git", "review-gate");
    await Deno.remove(state, { recursive: true }).catch(() => {});
    await Deno.writeTextFile(state, "not a folder\n");
    const r = await runCli(sb, ["stats"]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Cannot read the state directory ".*review-gate": Not a directory/);
    assert.doesNotMatch(r.stderr, /internal error/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("review whose output cannot be written (> /dev/full) says so (exit 3)", async () => {
  const sb = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  try {
    await Deno.writeTextFile(join(sb.repo.root, "a.ts"), "export const a = 2;\n");
    // `sh -c 'exec "$@" > /dev/full' sh deno run … review`: stdout is the full device
    const deno = [Deno.execPath(), "run", "--allow-read", "--allow-write", "--allow-env"];
    const out = await new Deno.Command("sh", {
      args: ["-c", 'exec "$@" > /dev/full', "sh", ...deno, "--allow-run", MAIN, "review"],
      cwd: sb.repo.root,
      env: { ...sb.env, REVIEW_GATE_FAKE_SCENARIO: "valid" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 3, stderr);
    assert.match(stderr, /Cannot write the output to stdout: No space left on device/);
    assert.doesNotMatch(stderr, /internal error/);
  } finally {
    await sb.cleanup();
  }
});
