/**
 * End to end: reviewing while the agent works (docs/design.md "Review while working"). Throwaway
 * repositories, the real CLI, the fake provider with a fixed answer delay, and Claude Code's
 * `PostToolUse` payloads: the tool hook starts one detached worker per session that reviews the
 * parts of the turn's change in the background; the Stop reuses the verdicts of parts whose exact
 * bytes were reviewed, waits for parts still under review, and asks the rest itself. Covered: the
 * reuse itself, supersede (an edit while its part's call runs kills that call, and the part waits
 * for its edits to be quiet before it is asked again — never at the Stop), cancel (`cancel`
 * of the worker's job; a session whose record is gone ending its worker), crash (a killed worker is a part not
 * reviewed, asked by the Stop), deadline (a background call that hangs never holds the Stop past
 * its deadline), a revert before the Stop (its finding is not charged), and a bug introduced in the
 * final edit (reviewed and blocks).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  codexPromptPayload,
  codexStopPayload,
  forgetTurns,
  type GateSandbox,
  makeGateSandbox,
  promptPayload,
  readFakeLog,
  runCli,
  runHook,
  stopDecision,
  stopPayload,
  writeRepoConfig,
} from "./_gates.ts";
import { processInfo } from "../../lib/exec/process_info.ts";
import { runProcess } from "../../lib/exec/exec.ts";
import { editPart, partText, waitForWork, workConfig, workStatus, workTallies } from "./_work.ts";

/** A finding at line 1 of part file `n` for a prompt that holds `BUG_<n>`. */
function bugScenario(sb: GateSandbox, parts: number[], delayMs: number): Promise<string> {
  const finding = (n: number) => ({
    severity: "high",
    category: "bug",
    scope: "introduced",
    title: `BUG_${n} breaks callers`,
    body: "The marked value is wrong.",
    file: `src/p${n}.ts`,
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "Use the old value.",
  });
  const path = join(sb.dir, "bugs.json");
  const scenario = {
    steps: [{ kind: "valid", delayMs }],
    match: parts.map((n) => ({
      contains: `"BUG_${n}"`,
      steps: [{
        kind: "valid",
        delayMs,
        answer: {
          verdict: "needs-attention",
          summary: "A marked bug.",
          findings: [finding(n)],
          next_steps: ["Fix it."],
        },
      }],
    })),
  };
  return Deno.writeTextFile(path, JSON.stringify(scenario)).then(() => path);
}

async function openTurn(sb: GateSandbox, sessionId: string, env: Record<string, string>) {
  const session = { sessionId, cwd: sb.repo.root };
  const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
  assert.equal(p.code, 0, p.stderr);
  return session;
}

async function stop(sb: GateSandbox, session: { sessionId: string; cwd: string }, env = {}) {
  const started = Date.now();
  const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
  assert.equal(s.code, 0, s.stderr);
  return { decision: stopDecision(s.stdout), ms: Date.now() - started, stderr: s.stderr };
}

/** How many files the state dir's `work/` folder holds (pokes, statuses, tallies). */
async function workFiles(sb: GateSandbox): Promise<number> {
  let n = 0;
  try {
    for await (const _ of Deno.readDir(join(sb.repo.root, ".git", "review-gate", "work"))) n++;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return n;
}

/** Provider calls the fake saw whose prompt holds `text`. */
async function callsWith(sb: GateSandbox, text: string): Promise<number> {
  return (await readFakeLog(sb)).filter((c) => (c.stdin ?? "").includes(text)).length;
}

Deno.test("parts reviewed in the background are reused at the Stop: no call, a fast answer", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig());
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "1500" };
    const session = await openTurn(sb, "reuse", env);
    for (let n = 1; n <= 3; n++) {
      const ms = await editPart(sb, session, n, "ok", env);
      assert.ok(ms < 5_000, `the tool hook took ${ms} ms`);
    }
    const status = await waitForWork(sb, "reuse", (s) => s.settled !== undefined);
    assert.equal(status?.answered.length, 3, JSON.stringify(status));
    const before = (await readFakeLog(sb)).length;
    const { decision, ms } = await stop(sb, session, env);
    assert.equal(decision, null, "allowed silently");
    assert.equal((await readFakeLog(sb)).length, before, "the Stop asked no model");
    assert.ok(ms < 1_500, `the Stop took ${ms} ms; one call takes 1500 ms`);
    const [tally] = await workTallies(sb);
    assert.deepEqual(
      [tally.backgroundCalls, tally.reused, tally.wasted, tally.stopCalls, tally.parts],
      [3, 3, 0, 0, 3],
    );
    const ended = await waitForWork(sb, "reuse", (s) => s.ended !== undefined, 5_000);
    assert.equal(ended?.ended, "the Stop answered");
    const stats = await runCli(sb, ["stats", "--by", "gate"]);
    assert.match(stats.stdout, /^claude-work +1 +1 /m, "the background run is ledgered as such");
    assert.match(stats.stdout, /reviewed while working: 1 turn\(s\)/);
    assert.match(stats.stdout, /reused verdicts +3 of 3 part\(s\)/);
    assert.match(stats.stdout, /wasted calls +0 /);
    const json = JSON.parse((await runCli(sb, ["stats", "--json"])).stdout);
    assert.deepEqual([json.work.backgroundCalls, json.work.reused], [3, 3]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("an edit while its part is reviewed kills that call (supersede); the Stop waits for the new one", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    // a change of one part is asked at once (no hold: it is this test's only part)
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 0 }));
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "4000" };
    const session = await openTurn(sb, "supersede", env);
    await editPart(sb, session, 1, "first", env);
    await waitForWork(sb, "supersede", (s) => s.calls === 1);
    await editPart(sb, session, 1, "second", env);
    const killed = await waitForWork(sb, "supersede", (s) => s.killed === 1, 10_000);
    assert.equal(killed?.killed, 1, JSON.stringify(killed));
    const { decision, ms } = await stop(sb, session, env);
    assert.equal(decision, null);
    // one call takes 4 s: the superseded part's new bytes are asked once, never twice
    assert.ok(ms < 7_000, `the Stop waited ${ms} ms: more than one call`);
    assert.equal(await callsWith(sb, '"second"'), 1, "the new bytes were asked once");
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.backgroundCalls, tally.reused, tally.wasted], [2, 1, 1]);
  } finally {
    await sb.cleanup();
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a part whose call was superseded is not asked again until its edits were quiet for one call's time", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    // no call finishes before the back-off: the configured 4 s stand for one call's time
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 4 }));
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "2000" };
    const session = await openTurn(sb, "backoff", env);
    await editPart(sb, session, 1, "first", env);
    await waitForWork(sb, "backoff", (s) => s.calls === 1);
    await editPart(sb, session, 1, "second", env);
    const killed = await waitForWork(sb, "backoff", (s) => s.killed === 1, 10_000);
    assert.equal(killed?.killed, 1, JSON.stringify(killed));
    await sleep(1_500);
    await editPart(sb, session, 1, "third", env);
    const edited = Date.now();
    await sleep(2_000);
    assert.equal((await workStatus(sb, "backoff"))?.calls, 1, "not asked while its edits go on");
    const asked = await waitForWork(sb, "backoff", (s) => s.calls === 2, 20_000);
    assert.equal(asked?.calls, 2, JSON.stringify(asked));
    const quiet = Date.now() - edited;
    assert.ok(quiet >= 3_500, `asked ${quiet} ms after the last edit: before 4 s of quiet`);
    await waitForWork(sb, "backoff", (s) => s.settled !== undefined && s.calls === 2);
    const before = (await readFakeLog(sb)).length;
    const { decision } = await stop(sb, session, env);
    assert.equal(decision, null);
    assert.equal(
      (await readFakeLog(sb)).length,
      before,
      "the Stop reused the quiet bytes' verdict",
    );
    assert.equal(await callsWith(sb, '"second"'), 0, "bytes changed again before their time");
    assert.equal(await callsWith(sb, '"third"'), 1);
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.backgroundCalls, tally.reused, tally.wasted], [2, 1, 1]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a part re-edited after its call finished is asked at once: only a superseded call holds it back", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    // the finished call's 6 s become the turn's latency: a held part would wait that long
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 60 }));
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "6000" };
    const session = await openTurn(sb, "re-edit", env);
    // two parts: a part of several is asked at once (a change of one part waits for quiet)
    await editPart(sb, session, 2, "ok", env);
    await editPart(sb, session, 1, "first", env);
    const answered = await waitForWork(sb, "re-edit", (s) => s.answered.length === 2);
    assert.equal(answered?.answered.length, 2, JSON.stringify(answered));
    await editPart(sb, session, 1, "second", env);
    const edited = Date.now();
    const asked = await waitForWork(sb, "re-edit", (s) => s.calls === 3, 10_000);
    assert.equal(asked?.calls, 3);
    const ms = Date.now() - edited;
    assert.ok(ms < 4_500, `asked ${ms} ms after the edit: held back`);
    const { decision } = await stop(sb, session, env);
    assert.equal(decision, null);
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.backgroundCalls, tally.reused, tally.wasted], [3, 2, 1]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a bug in the final edit of a held-back part is asked when the Stop asks, and blocks", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    // its quiet time would be a minute: the Stop never waits for a call that did not start
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 60 }));
    const env = { REVIEW_GATE_FAKE_SCENARIO: await bugScenario(sb, [1], 1500) };
    const session = await openTurn(sb, "held-bug", env);
    await editPart(sb, session, 2, "ok", env);
    await editPart(sb, session, 1, "ok", env);
    await waitForWork(sb, "held-bug", (s) => s.calls === 2);
    await editPart(sb, session, 1, "BUG_1", env);
    await waitForWork(sb, "held-bug", (s) => s.killed === 1, 10_000);
    const { decision, ms } = await stop(sb, session, env);
    assert.equal(decision?.decision, "block", JSON.stringify(decision));
    assert.match(String(decision?.reason), /BUG_1 breaks callers/);
    assert.ok(ms < 20_000, `the Stop took ${ms} ms`);
    assert.equal(await callsWith(sb, '"BUG_1"'), 1, "the final bytes were asked once");
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.backgroundCalls, tally.reused, tally.stopCalls], [3, 2, 0]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a bug introduced in the final edit, after its part's review started, is reviewed and blocks", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig());
    const env = { REVIEW_GATE_FAKE_SCENARIO: await bugScenario(sb, [2], 1500) };
    const session = await openTurn(sb, "final-bug", env);
    await editPart(sb, session, 1, "ok", env);
    await editPart(sb, session, 2, "ok", env);
    await waitForWork(sb, "final-bug", (s) => s.calls === 2);
    await editPart(sb, session, 2, "BUG_2", env); // at once, then the Stop
    const { decision } = await stop(sb, session, env);
    assert.equal(decision?.decision, "block", JSON.stringify(decision));
    assert.match(String(decision?.reason), /BUG_2 breaks callers/);
    assert.equal(await callsWith(sb, '"BUG_2"'), 1, "the final bytes were asked once");
    assert.equal(await callsWith(sb, "first1"), 1, "the unchanged part was asked once");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a buggy edit reverted before the Stop is not charged to the turn", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig());
    const env = { REVIEW_GATE_FAKE_SCENARIO: await bugScenario(sb, [1], 300) };
    const session = await openTurn(sb, "revert", env);
    await editPart(sb, session, 1, "BUG_1", env);
    await editPart(sb, session, 2, "ok", env);
    await editPart(sb, session, 3, "ok", env);
    const found = await waitForWork(sb, "revert", (s) => s.settled !== undefined);
    assert.equal(found?.answered.length, 3, "the buggy bytes were reviewed in the background");
    await Deno.remove(join(sb.repo.root, "src/p1.ts")); // reverted: the file is gone again
    const { decision } = await stop(sb, session, env);
    assert.equal(decision, null, `allowed: ${JSON.stringify(decision)}`);
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.reused, tally.wasted, tally.parts], [2, 1, 2]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a worker killed mid-call leaves its part not reviewed: the Stop asks it itself", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 0 })); // one part, at once
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "3000" };
    const session = await openTurn(sb, "crash", env);
    await editPart(sb, session, 1, "ok", env);
    const running = await waitForWork(sb, "crash", (s) => s.calls === 1);
    // the call counted is under way once the fake logged it (its start takes a moment)
    for (let i = 0; i < 100 && await callsWith(sb, "first1") === 0; i++) await sleep(50);
    Deno.kill(running!.process.pid, "SIGKILL");
    const { decision } = await stop(sb, session, env);
    assert.equal(decision, null);
    assert.equal(await callsWith(sb, "first1"), 2, "the Stop asked the part again");
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.reused, tally.wasted, tally.stopCalls], [0, 1, 1]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a background call that hangs never holds the Stop past its deadline", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const TIMEOUT = 20; // internal deadline 5 s
    await writeRepoConfig(sb, workConfig({ timeout_seconds: TIMEOUT, background_call_seconds: 0 }));
    const env = { REVIEW_GATE_FAKE_SCENARIO: "hang" };
    const session = await openTurn(sb, "deadline", env);
    await editPart(sb, session, 1, "ok", env);
    await waitForWork(sb, "deadline", (s) => s.calls === 1);
    const { decision, ms } = await stop(sb, session, env);
    assert.ok(ms < (TIMEOUT - 5) * 1000, `answered after ${ms} ms`);
    assert.equal(decision?.decision, undefined, "on_error allow: not a block");
    assert.match(String(decision?.systemMessage), /NOT reviewed|ran out of time/);
    const ended = await waitForWork(sb, "deadline", (s) => s.ended !== undefined, 5_000);
    assert.equal(ended?.ended, "the Stop answered", "the hung background call was stopped");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a worker status the agent forged, naming a live process of its own, does not hold the Stop", async () => {
  const sb = await makeGateSandbox({ remote: false });
  const sleeper = new Deno.Command("sleep", { args: ["120"], stdout: "null", stderr: "null" })
    .spawn();
  try {
    const TIMEOUT = 40; // the Stop's internal deadline: 25 s
    await writeRepoConfig(sb, workConfig({ timeout_seconds: TIMEOUT }));
    const env = { REVIEW_GATE_FAKE_SCENARIO: await bugScenario(sb, [1], 2_000) };
    const session = await openTurn(sb, "forged", env);
    await Deno.mkdir(join(sb.repo.root, "src"), { recursive: true });
    await Deno.writeTextFile(join(sb.repo.root, "src/p1.ts"), partText(1, "BUG_1"));
    // what the running agent can write: the poke for this turn and a status naming its `sleep`
    const state = join(sb.repo.root, ".git", "review-gate");
    const record = JSON.parse(await Deno.readTextFile(join(state, "sessions", "forged.json")));
    const turn = record.value.turnStartedAt;
    const info = await processInfo(runProcess, sleeper.pid);
    assert.ok(info && turn);
    await Deno.mkdir(join(state, "work"), { recursive: true });
    await Deno.writeTextFile(
      join(state, "work", "forged.poke.json"),
      JSON.stringify({ version: 1, turn, changedAt: Date.now() }),
    );
    await Deno.writeTextFile(
      join(state, "work", "forged.status.json"),
      JSON.stringify({
        version: 1,
        turn,
        process: { pid: sleeper.pid, startedAt: info.startedAt },
        jobId: "x",
        updatedAt: Date.now(),
        calls: 0,
        killed: 0,
        spent: {},
        answered: [],
      }),
    );
    const { decision, ms } = await stop(sb, session, env);
    assert.equal(decision?.decision, "block", JSON.stringify(decision));
    assert.match(String(decision?.reason), /BUG_1 breaks callers/);
    assert.ok(ms < 15_000, `the Stop waited on the forged worker: ${ms} ms`);
  } finally {
    sleeper.kill();
    await sleeper.status;
    await sb.cleanup();
  }
});

/** A scenario: every call answers at once (approved), but a call whose prompt holds part 2 hangs. */
async function hangPart2Scenario(sb: GateSandbox): Promise<string> {
  const path = join(sb.dir, "hang-part-2.json");
  const scenario = {
    steps: [{ kind: "valid" }],
    match: [{ contains: "first2", steps: [{ kind: "hang" }] }],
  };
  await Deno.writeTextFile(path, JSON.stringify(scenario));
  return path;
}

Deno.test("a part answered in the background and one hanging past the deadline: partially reviewed, naming the part, by on_partial", async (t) => {
  for (const onPartial of ["allow", "block"] as const) {
    await t.step(`on_partial: ${onPartial}`, async () => {
      const sb = await makeGateSandbox({ remote: false });
      try {
        const TIMEOUT = 20; // internal deadline 5 s
        await writeRepoConfig(
          sb,
          workConfig({
            timeout_seconds: TIMEOUT,
            on_partial: onPartial,
            background_call_seconds: 0,
          }),
        );
        const env = { REVIEW_GATE_FAKE_SCENARIO: await hangPart2Scenario(sb) };
        const session = await openTurn(sb, `partial-${onPartial}`, env);
        // part 1 alone first: its round ends and its verdict is cached (a round's verdicts are
        // cached once all its calls ended: lib/review/parts.ts), then part 2's own round hangs
        await editPart(sb, session, 1, "ok", env);
        const answered = await waitForWork(sb, session.sessionId, (s) => s.answered.length === 1);
        assert.equal(answered?.answered.length, 1, JSON.stringify(answered));
        await editPart(sb, session, 2, "ok", env);
        const running = await waitForWork(sb, session.sessionId, (s) => s.calls === 2);
        assert.equal(running?.calls, 2, JSON.stringify(running));
        for (let i = 0; i < 100 && await callsWith(sb, "first2") === 0; i++) await sleep(50);
        const { decision, ms } = await stop(sb, session, env);
        assert.ok(ms < (TIMEOUT - 5) * 1000, `answered after ${ms} ms`);
        const words = String(decision?.reason ?? decision?.systemMessage);
        // allow: "approved (partially reviewed)"; block: "reviewed only part of this turn's changes"
        assert.match(words, /partially reviewed|reviewed only part/i, words);
        assert.match(words, /src\/p2\.ts/, "names the part not reviewed");
        assert.doesNotMatch(
          words,
          /src\/p1\.ts/,
          "the part answered in the background was reviewed",
        );
        assert.equal(await callsWith(sb, "first1"), 1, "part 1's background verdict was reused");
        if (onPartial === "block") {
          assert.equal(decision?.decision, "block", JSON.stringify(decision));
        } else {
          assert.equal(decision?.decision, undefined, "on_partial allow: let through");
          assert.match(String(decision?.systemMessage), /partially reviewed/i);
        }
        const ended = await waitForWork(sb, session.sessionId, (s) => s.ended !== undefined, 5_000);
        assert.equal(ended?.ended, "the Stop answered", "the hung background call was stopped");
      } finally {
        await sb.cleanup();
      }
    });
  }
});

Deno.test("cancel stops the worker and its call; a session whose record is gone ends its worker", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig({ background_call_seconds: 0 })); // one part, at once
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "10000" };
    const session = await openTurn(sb, "cancel", env);
    await editPart(sb, session, 1, "ok", env);
    const running = await waitForWork(sb, "cancel", (s) => s.calls === 1);
    const c = await runCli(sb, ["cancel", running!.jobId], { env });
    assert.equal(c.code, 0, c.stderr);
    const ended = await waitForWork(sb, "cancel", (s) => s.ended !== undefined, 10_000);
    assert.equal(ended?.ended, "stopped by a signal");
    const [call] = await readFakeLog(sb);
    assert.throws(() => Deno.kill(call.pid, "SIGCONT"), "the provider call is gone");

    await editPart(sb, session, 2, "ok", env); // a new worker for the same turn
    await waitForWork(sb, "cancel", (s) => s.calls > 0 && s.ended === undefined);
    await forgetTurns(sb); // the session's record is gone (an ended session, a disabled gate)
    const over = await waitForWork(sb, "cancel", (s) => s.ended !== undefined, 5_000);
    assert.equal(over?.ended, "the session's turn is over");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("with review_while_working off the tool hook does nothing", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    // on by default: a user who sets it false gets no background call, even with the hook installed
    await writeRepoConfig(sb, { gates: { claude_stop: { review_while_working: false } } });
    const session = await openTurn(sb, "off", {});
    await Deno.writeTextFile(join(sb.repo.root, "x.ts"), partText(1));
    await editPart(sb, session, 1);
    assert.equal(await workStatus(sb, "off"), null);
    assert.equal(await workFiles(sb), 0, "no poke, no status");
    assert.equal((await readFakeLog(sb)).length, 0);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("review_while_working is on by default: the tool hook starts the session's worker", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "200" };
    const session = await openTurn(sb, "default-on", env);
    await editPart(sb, session, 1, "ok", env);
    const status = await waitForWork(sb, "default-on", (s) => s.turn !== undefined, 10_000);
    assert.ok(status, "a worker runs for the turn");
    const { decision } = await stop(sb, session, env);
    assert.equal(decision, null);
    const ended = await waitForWork(sb, "default-on", (s) => s.ended !== undefined, 10_000);
    assert.equal(ended?.ended, "the Stop answered");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a Stop whose turn ran no tool hook, or changed nothing, writes no background-work file", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, workConfig());
    // a turn whose edits no tool hook saw (the hook not installed, the user's own edit): reviewed
    // at the Stop as always, and no worker is asked for anything
    const edited = await openTurn(sb, "no-tool-hook", {});
    await Deno.mkdir(join(sb.repo.root, "src"), { recursive: true });
    await Deno.writeTextFile(join(sb.repo.root, "src/p1.ts"), partText(1));
    assert.equal((await stop(sb, edited)).decision, null);
    assert.equal(await callsWith(sb, "first1"), 1, "the Stop reviewed the change itself");
    // a turn that changed nothing
    const quiet = await openTurn(sb, "nothing-changed", {});
    assert.equal((await stop(sb, quiet)).decision, null);
    assert.equal(await workFiles(sb), 0, "the Stops wrote no poke");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Codex's PostToolUse (codex-work) reviews in the background; codex-stop reuses it", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, {
      budgets: { total_bytes: 4096 },
      // one part, asked at once
      gates: { codex_stop: { review_while_working: true, background_call_seconds: 0 } },
    });
    const env = { REVIEW_GATE_FAKE_DELAY_MS: "500" };
    const o = { sessionId: "codex-work", turnId: "turn-1", cwd: sb.repo.root };
    const p = await runCli(sb, ["hook", "codex-prompt"], { stdin: codexPromptPayload(o), env });
    assert.equal(p.code, 0, p.stderr);
    await Deno.mkdir(join(sb.repo.root, "src"), { recursive: true });
    await Deno.writeTextFile(join(sb.repo.root, "src/p1.ts"), partText(1));
    // the fields codex-cli 0.171.0's post-tool-use.command.input schema requires (docs/providers.md)
    const tool = JSON.stringify({
      session_id: o.sessionId,
      turn_id: o.turnId,
      transcript_path: null,
      cwd: o.cwd,
      hook_event_name: "PostToolUse",
      model: "gpt-mock",
      permission_mode: "bypassPermissions",
      tool_name: "apply_patch",
      tool_input: { input: "*** Begin Patch" },
      tool_response: "Success.",
      tool_use_id: "call_1",
    });
    const w = await runCli(sb, ["hook", "codex-work"], { stdin: tool, env });
    assert.equal(w.code, 0, w.stderr);
    assert.equal(w.stdout, "", "Codex would take stdout as the hook's answer");
    await waitForWork(sb, "codex-work", (s) => s.settled !== undefined);
    const before = (await readFakeLog(sb)).length;
    const s = await runCli(sb, ["hook", "codex-stop"], { stdin: codexStopPayload(o), env });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(stopDecision(s.stdout), null);
    assert.equal((await readFakeLog(sb)).length, before, "codex-stop asked no model");
    const [tally] = await workTallies(sb);
    assert.deepEqual([tally.gate, tally.reused, tally.stopCalls], ["codex-stop", 1, 0]);
  } finally {
    await sb.cleanup();
  }
});
