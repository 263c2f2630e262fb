/**
 * End to end: the pre-push hook's own answers (`hooks/pre-push-fast.sh` inside the installed stub)
 * driven through real `git push` to a bare remote. The stub's review-gate command is a wrapper that
 * counts its starts, so each step proves whether the hook answered alone: a deletion and a re-push
 * whose verdicts came from the cache last time never start review-gate; a new commit, a rebased
 * push, a config that changes the verdict, a `REVIEW_GATE_*` variable and a moved remote-tracking
 * ref all do, and review-gate decides (reviews, or blocks on the cached finding).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { renderPrePushStub } from "../../lib/install/git/stub.ts";
import { commitToken, gitOk, providerCalls, remoteRef, writeRepoConfig } from "./_gates.ts";
import { CACHED, pushSandbox as setup, resetFeature } from "./_push.ts";

Deno.test("pre-push hook: a deletion and a re-push of cached verdicts never start review-gate", async () => {
  const { sb, started, push } = await setup();
  try {
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(sb, "FEATURE");
    await resetFeature(sb);
    const first = await push(["feature"]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual([await started(), await providerCalls(sb)], [1, 1]);
    const deleted = await push(["--delete", "feature"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(await remoteRef(sb, "refs/heads/feature"), null);
    assert.equal(await started(), 1, "a deletion is answered by the hook");
    await resetFeature(sb);
    const second = await push(["feature"]);
    assert.match(second.stderr, CACHED);
    assert.equal(await started(), 2, "the first re-push asks review-gate, which leaves a stamp");
    await resetFeature(sb);
    const third = await push(["feature"]);
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stderr, CACHED);
    assert.equal(second.stderr, third.stderr, "the hook replays review-gate's own answer");
    assert.ok(await remoteRef(sb, "refs/heads/feature"));
    assert.deepEqual([await started(), await providerCalls(sb)], [2, 1]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push hook: a new branch resting on remote-tracking refs is never replayed", async () => {
  const { sb, started, push } = await setup();
  try {
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(sb, "FEATURE");
    for (const expected of [1, 2, 3]) {
      const r = await push(["feature"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await started(), expected, "review-gate asks the remote what it has each time");
      await push(["--delete", "feature"]);
    }
    assert.equal(await providerCalls(sb), 1, "the verdict itself is cached");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push hook: what could change the verdict always reaches review-gate", async (t) => {
  const { sb, root, started, push } = await setup();
  /** Push `feature` (after putting it back at main's tip on the remote); review-gate must have started. */
  const repush = async (env: Record<string, string> = {}) => {
    await resetFeature(sb);
    const before = await started();
    const r = await push(["feature"], env);
    assert.equal(await started(), before + 1, r.stderr);
    return r;
  };
  try {
    await gitOk(sb, ["checkout", "-q", "-b", "feature"]);
    await commitToken(sb, "FEATURE");
    await resetFeature(sb);
    await push(["feature"]);
    await repush(); // leaves the stamp
    await t.step("a new commit on the branch", async () => {
      await commitToken(sb, "SECOND");
      const calls = await providerCalls(sb);
      const r = await repush();
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await providerCalls(sb), calls + 1, "the new range is reviewed");
      await repush(); // stamp for the new tip
    });
    await t.step("a rebased push (same change on a new base)", async () => {
      await gitOk(sb, ["checkout", "-q", "main"]);
      await Deno.writeTextFile(join(root, "other.ts"), "export const o = 1;\n");
      await gitOk(sb, ["add", "other.ts"]);
      await gitOk(sb, ["commit", "-q", "-m", "other"]);
      await gitOk(sb, ["push", "-q", "--no-verify", "origin", "main"]);
      await gitOk(sb, ["checkout", "-q", "feature"]);
      await gitOk(sb, ["rebase", "-q", "main"]);
      // review-gate starts (repush checks it); the same diff on a new base is in its cache
      const r = await repush();
      assert.equal(r.code, 0, r.stderr);
      await repush();
    });
    await t.step("the repository's config makes the cached finding block", async () => {
      await writeRepoConfig(sb, { fail_on: "low" });
      const r = await repush();
      assert.equal(r.code, 1, "the push is blocked");
      assert.match(r.stderr, /Constant name is vague/);
      await writeRepoConfig(sb, null);
    });
    await t.step("a REVIEW_GATE_* variable makes the cached finding block", async () => {
      const r = await repush({ REVIEW_GATE_FAIL_ON: "low" });
      assert.equal(r.code, 1, "the push is blocked");
    });
    await t.step("a moved remote-tracking ref", async () => {
      await gitOk(sb, ["update-ref", "refs/remotes/origin/elsewhere", "HEAD~1"]);
      const r = await repush();
      assert.equal(r.code, 0, r.stderr);
    });
  } finally {
    await sb.cleanup();
  }
});

/**
 * Run the installed stub's own functions (its fast path, review-gate never reached) on `input` as
 * git's ref lines: prints whether the push deletes only, and the lines as read.
 */
async function classify(
  input: string,
  cwd: string,
): Promise<{ deletesOnly: boolean; lines: string }> {
  const stub = renderPrePushStub("false").replace(/\nreview_gate_push "\$@"\n$/, "\n");
  const script = `${stub}\nif review_gate_deletes_only; then echo D; else echo K; fi\n` +
    `printf '%s' "$lines"`;
  const out = await new Deno.Command("sh", {
    args: ["-c", script],
    cwd,
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const { stdout } = await out.output();
  const text = new TextDecoder().decode(stdout);
  return { deletesOnly: text.startsWith("D\n"), lines: text.slice(2) };
}

Deno.test("pre-push hook: only a push whose every ref line deletes is answered as a deletion", async (t) => {
  const zeros = "0".repeat(40);
  const id = "a1".repeat(20);
  const del = (ref: string, remote = id) => `(delete) ${zeros} ${ref} ${remote}\n`;
  const cases: [string, string, boolean][] = [
    ["one deletion", del("refs/heads/x"), true],
    ["two deletions", del("refs/heads/x") + del("refs/heads/y"), true],
    ["a deletion with CRLF", del("refs/heads/x").replace("\n", "\r\n"), true],
    ["sha-256 ids", `(delete) ${"0".repeat(64)} refs/heads/x ${"b2".repeat(32)}\n`, true],
    ["blank lines around a deletion", `\n${del("refs/heads/x")}\n\n`, true],
    ["tabs between the fields", del("refs/heads/x").replaceAll(" ", "\t"), true],
    ["no ref line at all", "", false],
    ["only blank lines", "\n\n", false],
    [
      "a deletion and an update",
      del("refs/heads/x") + `refs/heads/y ${id} refs/heads/y ${zeros}\n`,
      false,
    ],
    ["an update", `refs/heads/y ${id} refs/heads/y ${zeros}\n`, false],
    ["a local id that is not all zeros", `(delete) ${"0".repeat(39)}1 refs/heads/x ${id}\n`, false],
    ["a 39-digit local id", `(delete) ${"0".repeat(39)} refs/heads/x ${id}\n`, false],
    ["a remote id that is not hex", del("refs/heads/x", "g".repeat(40)), false],
    ["an upper-case remote id", del("refs/heads/x", "A".repeat(40)), false],
    ["a remote id of 41 digits", del("refs/heads/x", "a".repeat(41)), false],
    ["five fields", `(delete) ${zeros} refs/heads/x ${id} extra\n`, false],
    ["three fields", `(delete) ${zeros} ${id}\n`, false],
    // the cwd holds two files: a glob that expanded would make five fields
    ["a glob as the remote ref stays one field", `(delete) ${zeros} * ${id}\n`, true],
  ];
  const cwd = await Deno.makeTempDir();
  await Deno.writeTextFile(join(cwd, "a"), "");
  await Deno.writeTextFile(join(cwd, "b"), "");
  for (const [name, input, want] of cases) {
    await t.step(name, async () => {
      const got = await classify(input, cwd);
      assert.equal(got.deletesOnly, want);
      assert.equal(got.lines, input.replace(/\n+$/, ""), "lines are read as $(cat) reads them");
    });
  }
  await Deno.remove(cwd, { recursive: true });
});
