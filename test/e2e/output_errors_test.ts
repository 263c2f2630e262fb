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

Deno.test("review of a commit whose blob git cannot read says the repository is unreadable (exit 3, not 2)", async () => {
  const sb = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  try {
    await sb.repo.write("b.ts", "export const b = 'only here';\n");
    await sb.repo.git("add", "b.ts");
    await sb.repo.git("commit", "-q", "-m", "b");
    const blob = (await sb.repo.git("rev-parse", "HEAD:b.ts")).trim();
    // git would read an unchanged worktree file instead of the blob: remove both
    await Deno.remove(join(sb.repo.root, "b.ts"));
    await Deno.remove(join(sb.repo.root, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    for (
      const args of [["review", "--commit", "HEAD", "--plan-only"], ["review", "--commit", "HEAD"]]
    ) {
      const r = await runCli(sb, args, { env: { REVIEW_GATE_FAKE_SCENARIO: "valid" } });
      assert.equal(r.code, 3, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`unable to read ${blob}`));
      assert.match(r.stderr, /git fsck/);
      assert.doesNotMatch(r.stderr, /internal error/);
    }
  } finally {
    await sb.cleanup();
  }
});
