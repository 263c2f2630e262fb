/**
 * End to end: the Stop gate's deadline bounds all of its work from the first byte. A step that
 * runs long — the stop's own snapshot of the worktree, the review's copy of the tree — is slowed by
 * a `git` on PATH that sleeps before running the real one; the stop still answers before the hook's
 * timeout ("NOT reviewed: too large to review in N s", `on_partial` applied) instead of being
 * killed by the host without a word.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  forgetTurns,
  type GateSandbox,
  makeGateSandbox,
  promptPayload,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";

/**
 * The gate's `timeout_seconds` in these tests (the least allowed): its internal deadline is then
 * 5 s, and the answer is due 5 s after it.
 */
const TIMEOUT = 20;

/**
 * Put a `git` first on PATH that sleeps 30 s before running the real git whenever one of its
 * arguments is `$SLOW_GIT_ARG`; returns the env for a run with that argument slowed.
 */
async function slowGit(sb: GateSandbox): Promise<(arg: string) => Record<string, string>> {
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout,
  ).trim();
  const bin = join(sb.dir, "slow-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh\nfor a in "$@"; do\n  if [ -n "$SLOW_GIT_ARG" ] && [ "$a" = "$SLOW_GIT_ARG" ]; then sleep 30; break; fi\ndone\nexec "${real}" "$@"\n`,
  );
  await Deno.chmod(join(bin, "git"), 0o755);
  const path = `${bin}:${sb.env.PATH}`;
  return (arg) => ({ PATH: path, SLOW_GIT_ARG: arg, ...scenario("valid") });
}

async function timedStop(sb: GateSandbox, sessionId: string, env: Record<string, string>) {
  const session = { sessionId, cwd: sb.repo.root };
  const p = await runHook(sb, "claude-prompt", promptPayload(session), {
    env: { PATH: env.PATH },
  });
  assert.equal(p.code, 0, p.stderr);
  await addTokenLine(sb.repo.root, sessionId.toUpperCase().replaceAll("-", "_"));
  const started = Date.now();
  const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
  const seconds = (Date.now() - started) / 1000;
  assert.equal(s.code, 0, s.stderr);
  assert.ok(
    seconds < TIMEOUT - 5,
    `answered after ${seconds} s; the hook's timeout is ${TIMEOUT} s`,
  );
  return stopDecision(s.stdout);
}

Deno.test("the Stop answers before the hook's timeout when its own snapshot runs long", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const slow = await slowGit(sb);
    await t.step("default on_partial: allowed, NOT reviewed: too large", async () => {
      await writeRepoConfig(sb, { gates: { claude_stop: { timeout_seconds: TIMEOUT } } });
      const decision = await timedStop(sb, "slow-add", slow("add"));
      assert.equal(decision?.decision, undefined);
      assert.match(
        String(decision?.systemMessage),
        new RegExp(`NOT reviewed: too large to review in ${TIMEOUT} s`),
      );
      assert.match(String(decision?.systemMessage), /gates\.claude_stop\.timeout_seconds/);
    });
    await t.step("on_partial block: blocked, NOT reviewed: too large", async () => {
      await forgetTurns(sb);
      await writeRepoConfig(sb, {
        gates: { claude_stop: { timeout_seconds: TIMEOUT, on_partial: "block" } },
      });
      const decision = await timedStop(sb, "slow-add-block", slow("add"));
      assert.equal(decision?.decision, "block");
      assert.match(String(decision?.reason), /too large to review in 20 s/);
      assert.match(String(decision?.reason), /on_partial: block/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the Stop answers before the hook's timeout when the review's tree copy runs long", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const slow = await slowGit(sb);
    await t.step("default on_partial: allowed, NOT reviewed: too large", async () => {
      await writeRepoConfig(sb, { gates: { claude_stop: { timeout_seconds: TIMEOUT } } });
      const decision = await timedStop(sb, "slow-copy", slow("ls-tree"));
      assert.equal(decision?.decision, undefined);
      assert.match(
        String(decision?.systemMessage),
        new RegExp(`NOT reviewed: too large to review in ${TIMEOUT} s`),
      );
    });
    await t.step("on_partial block: blocked (on_error stays allow)", async () => {
      await writeRepoConfig(sb, {
        gates: { claude_stop: { timeout_seconds: TIMEOUT, on_partial: "block" } },
      });
      const decision = await timedStop(sb, "slow-copy-block", slow("ls-tree"));
      assert.equal(decision?.decision, "block");
      assert.match(String(decision?.reason), /too large to review in 20 s/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("the Stop answers in time when finding the repository itself runs long", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const slow = await slowGit(sb);
    await writeRepoConfig(sb, { gates: { claude_stop: { timeout_seconds: TIMEOUT } } });
    const decision = await timedStop(sb, "slow-open", slow("rev-parse"));
    assert.equal(decision?.decision, undefined);
    assert.match(String(decision?.systemMessage), /NOT reviewed: .*took longer than 10 s/);
  } finally {
    await sb.cleanup();
  }
});
