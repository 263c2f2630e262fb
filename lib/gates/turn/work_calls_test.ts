import assert from "node:assert/strict";
import type { ExecRequest, ExecResult, Runner } from "../../exec/exec.ts";
import { partOf, verdictKey, WorkCalls } from "./work_calls.ts";
import { QuietTimes } from "./work_quiet.ts";

const parts = [
  { key: verdictKey("a", 2), digest: "a", diff: "diff --git a/x b/x\n+one\n", paths: ["x"] },
  { key: verdictKey("b", 2), digest: "b", diff: "diff --git a/y b/y\n+two\n", paths: ["y"] },
];
const request = (stdin: string, cmd = "/bin/claude"): ExecRequest => ({ cmd, args: ["-p"], stdin });
const ok: ExecResult = {
  code: 0,
  stdout: new Uint8Array(),
  stderr: new Uint8Array(),
  durationMs: 1,
  timedOut: false,
  aborted: false,
  truncated: false,
};

/** A runner whose calls end when their signal aborts (killed) or when `release` is called. */
function heldRunner(): { runner: Runner; release: () => void; started: ExecRequest[] } {
  const started: ExecRequest[] = [];
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  const runner: Runner = async (r) => {
    started.push(r);
    if (r.cmd !== "/bin/claude") return ok;
    const aborted = new Promise<boolean>((resolve) =>
      r.signal?.addEventListener("abort", () => resolve(true), { once: true })
    );
    return (await Promise.race([done.then(() => false), aborted]))
      ? { ...ok, code: 137, aborted: true }
      : ok;
  };
  return { runner, release: () => release(), started };
}

Deno.test("partOf() names the planned part whose diff the prompt carries (its trailing newline cut)", () => {
  assert.equal(
    partOf(request("Review this:\n<<<D\ndiff --git a/y b/y\n+two\nD>>>"), parts),
    "part:b",
  );
  assert.equal(partOf(request("a corrective prompt, no diff"), parts), null);
  assert.equal(verdictKey("a", 1), "whole:a");
});

Deno.test("WorkCalls declines a second call for a part in flight, kills superseded calls, caps the turn", async () => {
  const held = heldRunner();
  const calls = new WorkCalls(3, ["/bin/claude"]);
  const run = calls.runner(held.runner, parts);
  const git = await run(request("x", "git"));
  assert.equal(git, ok, "other programs pass through, uncounted");
  const first = run(request("diff --git a/x b/x\n+one"));
  await Promise.resolve();
  assert.ok(calls.inFlight("part:a"));
  const twice = await run(request("diff --git a/x b/x\n+one"));
  assert.equal(twice.aborted, true, "declined: an interrupted attempt, nothing started");
  assert.equal(held.started.filter((r) => r.cmd === "/bin/claude").length, 1);
  const second = run(request("diff --git a/y b/y\n+two"));
  await Promise.resolve();
  assert.equal(calls.supersede(new Set(["part:b"])), 1, "a's bytes changed: its call is killed");
  assert.equal((await first).aborted, true);
  assert.equal(calls.inFlight("part:a"), false);
  held.release();
  assert.equal((await second).code, 0);
  assert.deepEqual(calls.counts, {
    calls: 2,
    killed: 1,
    spent: { "part:a": 1, "part:b": 1 },
    capped: false,
  });
  calls.supersede(new Set(parts.map((p) => p.key))); // a later plan holds both again
  await run(request("diff --git a/x b/x\n+one"));
  const capped = await run(request("diff --git a/y b/y\n+two"));
  assert.equal(capped.aborted, true);
  assert.equal(calls.counts.capped, true, "the fourth call was past the cap of 3");
  assert.equal(calls.killAll(), 0);
});

Deno.test("WorkCalls holds back a superseded part until it was quiet, and times the calls that finish", async () => {
  const quiet = new QuietTimes(60_000);
  const calls = new WorkCalls(10, ["/bin/claude"], quiet);
  const held = heldRunner();
  const one = [{ key: verdictKey("a", 2), digest: "a", diff: parts[0].diff, paths: ["x"] }];
  quiet.planned(one, Date.now());
  const first = calls.runner(held.runner, one)(request("diff --git a/x b/x\n+one"));
  await Promise.resolve();
  // x's bytes change while its call runs
  const next = [{
    key: verdictKey("a2", 2),
    digest: "a2",
    diff: "diff --git a/x b/x\n+1\n",
    paths: ["x"],
  }];
  quiet.planned(next, Date.now());
  assert.equal(calls.supersede(new Set([next[0].key])), 1);
  assert.equal((await first).aborted, true);
  const waited = await calls.runner(held.runner, next)(request("diff --git a/x b/x\n+1"));
  assert.equal(waited.aborted, true, "declined: its quiet time has not passed");
  assert.match(new TextDecoder().decode(waited.stderr), /quiet for 60 s/);
  assert.deepEqual([...calls.deferred], ["part:a2"]);
  assert.equal(calls.counts.calls, 1, "a declined call is not a call");
  quiet.urgent = true; // the Stop asks
  held.release();
  assert.equal((await calls.runner(held.runner, next)(request("diff --git a/x b/x\n+1"))).code, 0);
  assert.deepEqual([...calls.deferred], [], "asked: no longer deferred");
  assert.equal(quiet.latencyMs() < 60_000, true, "the finished call's time is the latency now");
});

Deno.test("WorkCalls declines a late call of an older plan's part: its bytes changed before it started", async () => {
  const held = heldRunner();
  const calls = new WorkCalls(10, ["/bin/claude"]);
  const whole = [{ ...parts[0], key: verdictKey("a", 1) }];
  // the change grew to two parts before the one-part round got to its call
  assert.equal(calls.supersede(new Set(parts.map((p) => p.key))), 0);
  const late = await calls.runner(held.runner, whole)(request("diff --git a/x b/x\n+one"));
  assert.equal(late.aborted, true);
  assert.match(new TextDecoder().decode(late.stderr), /changed before it started/);
  held.release();
  assert.equal(
    (await calls.runner(held.runner, parts)(request("diff --git a/x b/x\n+one"))).code,
    0,
  );
  assert.deepEqual(calls.counts.spent, { "part:a": 1 });
});

Deno.test("WorkCalls lets a one-part change's call go on once the change grew with its bytes unchanged: it serves the part", async () => {
  const held = heldRunner();
  const calls = new WorkCalls(10, ["/bin/claude"]);
  const whole = [{ ...parts[0], key: verdictKey("a", 1) }];
  calls.supersede(new Set(whole.map((p) => p.key)));
  const first = calls.runner(held.runner, whole)(request("diff --git a/x b/x\n+one"));
  await Promise.resolve();
  // the agent wrote y while the call ran: a's bytes are a part of the new plan
  assert.equal(calls.supersede(new Set(parts.map((p) => p.key))), 0, "not killed");
  assert.ok(calls.inFlight("part:a"), "its call serves part a");
  const twice = await calls.runner(held.runner, parts)(request("diff --git a/x b/x\n+one"));
  assert.equal(twice.aborted, true, "part a is not asked a second time");
  // then a's bytes change: the call of its old bytes is superseded
  assert.equal(calls.supersede(new Set(["part:b", "part:a2"])), 1);
  assert.equal((await first).aborted, true);
  assert.equal(calls.inFlight("part:a"), false);
  held.release();
});
