/**
 * End to end: while an agent turn is open in the repository, the user config written since the
 * turn's start cannot loosen a push (lib/gates/pre_push/user_config.ts). Real `git push` into a
 * local bare remote through the installed hook, with the fake provider; the turn is opened by the
 * Claude Code prompt hook (its sealed session record) and closed by its Stop hook. A mid-turn user
 * config that disables the gate, excludes `src/**`, says `on_error: "allow"` or is invalid does not
 * apply and is named; a stricter one does; an edit made before the turn started, one made after its
 * Stop answered, or one the turn's prompt asked for applies — every loosened setting named: a
 * prompt naming `fail_on` does not accept the gate disabled beside it; a forged record or a deleted
 * one (its anchor remains) does not loosen either.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  FAKE_BIN,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  remoteRef,
  runCli,
  runGit,
  runHook,
  scenario,
  signInClaude,
  stopPayload,
  writeUserConfig,
} from "./_gates.ts";

const SESSION = "sess-pushcfg";
const HELD =
  /user config changed during an open agent turn: the push uses the config from the turn's start/;

/** A sandbox with the pre-push hook installed and a bug committed on main (not yet pushed). */
async function withBug(): Promise<GateSandbox> {
  const sb = await makeGateSandbox();
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  await addTokenLine(sb.repo.root, "TURNBUG");
  await gitOk(sb, ["commit", "-q", "-am", "bug"]);
  return sb;
}

/** Open an agent turn (the prompt hook records its sealed start). */
async function openTurn(sb: GateSandbox, prompt?: string): Promise<void> {
  const r = await runHook(
    sb,
    "claude-prompt",
    promptPayload({
      sessionId: SESSION,
      cwd: sb.repo.root,
      prompt,
    }),
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "", "the turn's start is recorded");
}

async function pushBlocking(sb: GateSandbox, extra: Record<string, string> = {}) {
  return await runGit(sb, ["push", "origin", "main"], {
    env: { ...scenario(await blockingScenario(sb)), ...extra },
  });
}

/**
 * A `PATH` that finds the user's reviewer (a wrapper of the fake named `claude`, signed in): with a turn whose
 * start is unknown the push holds every `REVIEW_GATE_*_BIN` back (lib/gates/pre_push/reviewer_env.ts).
 */
async function fakeOnPath(sb: GateSandbox): Promise<Record<string, string>> {
  await signInClaude(sb); // provider "auto" takes a claude on PATH that is signed in
  const dir = join(sb.dir, "user-bin");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "claude");
  await Deno.writeTextFile(path, `#!/bin/sh\nexec '${join(FAKE_BIN, "claude")}' "$@"\n`);
  await Deno.chmod(path, 0o755);
  return { PATH: `${dir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` };
}

function assertBlocked(r: { code: number; stderr: string }): void {
  assert.notEqual(r.code, 0, r.stderr);
  assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
}

const MID_TURN: [string, unknown, RegExp][] = [
  ["disables the gate", { gates: { pre_push: { enabled: false } } }, /gates\.pre_push\.enabled/],
  ['excludes "src/**"', { exclude: ["src/**"] }, /not applied: [^\n]*exclude/],
  ["raises fail_on to critical", { fail_on: "critical" }, /not applied: [^\n]*fail_on/],
];

for (const [name, config, named] of MID_TURN) {
  Deno.test(`pre-push: a user config that ${name} during an open agent turn does not loosen the push`, async () => {
    const sb = await withBug();
    try {
      await openTurn(sb);
      await writeUserConfig(sb, config);
      const r = await pushBlocking(sb);
      assertBlocked(r);
      assert.match(r.stderr, HELD);
      assert.match(r.stderr, named);
      assert.equal(await providerCalls(sb), 1, "the change reached the model");
      // the agent's environment markers play no part: the sealed record is what counts
      const again = await runGit(sb, ["push", "origin", "main"], {
        env: { ...scenario(await blockingScenario(sb)), CLAUDECODE: "" },
      });
      assertBlocked(again);
    } finally {
      await sb.cleanup();
    }
  });
}

Deno.test("pre-push: on_error changed to allow during an open agent turn still blocks a review that could not run", async () => {
  const sb = await withBug();
  try {
    await writeUserConfig(sb, { gates: { pre_push: { on_error: "block" } } });
    await openTurn(sb);
    await writeUserConfig(sb, { gates: { pre_push: { on_error: "allow" } } });
    const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("error") });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /NOT reviewed/);
    assert.match(r.stderr, HELD);
    assert.match(r.stderr, /gates\.pre_push\.on_error/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: an invalid user config written during an open agent turn leaves the turn's start in force", async () => {
  const sb = await withBug();
  try {
    await openTurn(sb);
    await writeUserConfig(sb, { fail_on: "nonsense" });
    const r = await pushBlocking(sb);
    assertBlocked(r);
    assert.match(r.stderr, HELD);
    assert.match(r.stderr, /not applied: \(invalid: /);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a stricter user config written during an open agent turn applies", async () => {
  const sb = await withBug();
  try {
    await writeUserConfig(sb, { fail_on: "critical" });
    await openTurn(sb);
    await writeUserConfig(sb, { fail_on: "high" });
    const r = await pushBlocking(sb);
    assertBlocked(r);
    assert.match(r.stderr, HELD);
    assert.doesNotMatch(r.stderr, /not applied/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a user config edit made before the turn started applies", async () => {
  const sb = await withBug();
  try {
    await writeUserConfig(sb, { exclude: ["src/**"] });
    await openTurn(sb);
    const r = await pushBlocking(sb);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, HELD);
    assert.equal(await providerCalls(sb), 0, "every file is excluded by the user's rule");
    assert.notEqual(await remoteRef(sb, "refs/heads/main"), null);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a user config edit made after the turn's Stop answered applies", async () => {
  const sb = await withBug();
  try {
    await openTurn(sb);
    const stop = await runHook(
      sb,
      "claude-stop",
      stopPayload({
        sessionId: SESSION,
        cwd: sb.repo.root,
      }),
    );
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stdout.trim(), "", "the Stop allowed: nothing changed in the turn");
    await writeUserConfig(sb, { exclude: ["src/**"] });
    const r = await pushBlocking(sb);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, HELD);
    assert.equal(await providerCalls(sb), 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a user config change the turn's prompt asked for applies", async () => {
  const sb = await withBug();
  try {
    await openTurn(sb, "Add src/** to the exclude list of my review-gate config, then push.");
    await writeUserConfig(sb, { exclude: ["src/**"] });
    const r = await pushBlocking(sb);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, HELD);
    assert.equal(await providerCalls(sb), 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a prompt naming fail_on does not accept the gate disabled in the same user config", async () => {
  const sb = await withBug();
  try {
    await openTurn(sb, "Set fail_on to critical in my review-gate config.");
    await writeUserConfig(sb, { fail_on: "critical", gates: { pre_push: { enabled: false } } });
    const r = await pushBlocking(sb);
    assertBlocked(r);
    assert.match(r.stderr, HELD);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a forged turn record does not loosen the push", async () => {
  const sb = await withBug();
  try {
    const sessions = join(sb.repo.root, ".git", "review-gate", "sessions");
    await Deno.mkdir(sessions, { recursive: true });
    await Deno.writeTextFile(join(sessions, "forged.json"), '{"consecutiveBlocks":0}\n');
    await writeUserConfig(sb, { exclude: ["src/**"] });
    const r = await pushBlocking(sb, await fakeOnPath(sb));
    assert.match(
      r.stderr,
      /without the reviewer variables set in its environment \([^)]*REVIEW_GATE_CLAUDE_BIN/,
    );
    assertBlocked(r);
    assert.match(r.stderr, /an agent turn may be open in this repository whose start is unknown/);
    assert.match(r.stderr, /sessions\/forged\.json does not verify/);
    assert.match(r.stderr, /not applied: [^\n]*exclude/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a turn record deleted during the turn does not loosen the push", async () => {
  const sb = await withBug();
  try {
    await openTurn(sb);
    await writeUserConfig(sb, { gates: { pre_push: { enabled: false } } });
    const sessions = join(sb.repo.root, ".git", "review-gate", "sessions");
    await Deno.remove(join(sessions, `${SESSION}.json`));
    const r = await pushBlocking(sb, await fakeOnPath(sb));
    assert.match(
      r.stderr,
      /without the reviewer variables set in its environment \([^)]*REVIEW_GATE_CLAUDE_BIN/,
    );
    assertBlocked(r);
    assert.match(r.stderr, /whose start is unknown/);
    assert.match(r.stderr, new RegExp(`anchors/${SESSION}\\.json\\) has no turn record here`));
  } finally {
    await sb.cleanup();
  }
});
