import assert from "node:assert/strict";
import type { ExecRequest, ExecResult, Runner } from "../../exec/exec.ts";
import { partOf, verdictKey, WorkCalls } from "./work_calls.ts";

const parts = [
  { key: verdictKey("a", 2), digest: "a", diff: "diff --git a/x b/x\n+one\n" },
  { key: verdictKey("b", 2), digest: "b", diff: "diff --git a/y b/y\n+two\n" },
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
  await run(request("diff --git a/x b/x\n+one"));
  const capped = await run(request("diff --git a/y b/y\n+two"));
  assert.equal(capped.aborted, true);
  assert.equal(calls.counts.capped, true, "the fourth call was past the cap of 3");
  assert.equal(calls.killAll(), 0);
});
