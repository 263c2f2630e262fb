/**
 * End-to-end: hostile answers and a hostile environment end with a stored, final run and a clear
 * message, never an internal error — an answer nested 10,000 levels deep, a records lock another
 * process never releases, an empty nested repository in the worktree.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lastRun, makeSandbox, readFakeLog, runCli, spawnCli, writeScenario } from "./_cli.ts";

Deno.test("review --json refuses a codex answer nested 10,000 levels deep and stores the run", async () => {
  const sandbox = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("a.ts", "export const a = 2;\n");
    const text = "[".repeat(10_000) + "]".repeat(10_000);
    const scenario = await writeScenario(sandbox, "deep", [{ kind: "prose", text }]);
    const result = await runCli(sandbox, ["review", "--json", "--provider", "codex"], {
      scenario,
    });
    assert.equal(result.code, 3, result.stderr);
    assert.doesNotMatch(result.stderr, /internal error/);
    const json = JSON.parse(result.stdout);
    assert.equal(json.status, "invalid-answer");
    assert.match(JSON.stringify(json.refusal), /nested 10000 levels deep \(at most 64\)/);
    assert.equal((await readFakeLog(sandbox)).length, 2, "one corrective resume");
    const run = await lastRun(sandbox);
    assert.equal(run.run.status, "invalid-answer");
    assert.ok(run.files.includes("transcript/attempt-2.stdout"), run.files.join(", "));
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review does not hang while another process holds the records lock", async () => {
  const sandbox = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  const state = join(sandbox.repo.root, ".git", "review-gate");
  await Deno.mkdir(state, { recursive: true });
  // another process takes the lock as review-gate does (Deno's FsFile.lock; flock(1) is Linux's)
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "const f = await Deno.open(Deno.args[0], { read: true, write: true, create: true });" +
      ' await f.lock(true); console.log("locked"); await new Promise((r) => setTimeout(r, 60000));',
      join(state, "records.jsonl"),
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    assert.equal((await reader.read()).value?.trim(), "locked");
    await sandbox.repo.write("a.ts", "export const a = 2;\n");
    const t0 = performance.now();
    const result = await runCli(sandbox, ["review", "--json", "--no-cache"]);
    assert.ok(performance.now() - t0 < 15_000, "review waited for the lock without bound");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).status, "approved");
    const run = await lastRun(sandbox);
    assert.equal(run.run.status, "approved");
    // the line was skipped, not written around the lock
    assert.equal(await Deno.readTextFile(join(state, "records.jsonl")), "");
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
    await reader.cancel();
    await sandbox.cleanup();
  }
});

Deno.test("review leaves an empty nested repository out of the change and says so", async () => {
  const sandbox = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  try {
    await sandbox.repo.write("a.ts", "export const a = 2;\n");
    await sandbox.repo.git("init", "-q", "vendor");
    const result = await runCli(sandbox, ["review", "--no-cache"], { scenario: "valid" });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^review-gate: approved/);
    assert.match(
      result.stdout,
      /Not part of this change \(left out\): vendor \(nested repository\)/,
    );
    assert.doesNotMatch(result.stdout + result.stderr, /internal error|partial/);
    assert.equal((await readFakeLog(sandbox)).length, 1);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a committed config or acks file that is a symlink to /dev/zero is refused at once, never read without end", async () => {
  const sandbox = await makeSandbox({ "a.ts": "export const a = 1;\n" });
  const run = async (args: string[], stdin?: string) => {
    const child = spawnCli(sandbox, args, stdin === undefined ? {} : { stdin });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      const out = await child.output();
      return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    await Deno.symlink("/dev/zero", join(sandbox.repo.root, ".review-gate.json"));
    await sandbox.repo.write("a.ts", "export const a = 2;\n");
    const review = await run(["review", "--no-cache"]);
    assert.equal(review.code, 2, review.stderr);
    assert.match(review.stderr, /\.review-gate\.json" is not a regular file/);
    await Deno.remove(join(sandbox.repo.root, ".review-gate.json"));
    await Deno.mkdir(join(sandbox.repo.root, ".review-gate"));
    await Deno.symlink("/dev/zero", join(sandbox.repo.root, ".review-gate", "acks.json"));
    const acks = await run(["review", "--no-cache"]);
    assert.notEqual(acks.code, 0, "not killed by the guard timer, not approved");
    assert.match(acks.stderr, /acks\.json" is not a regular file/);
  } finally {
    await sandbox.cleanup();
  }
});
