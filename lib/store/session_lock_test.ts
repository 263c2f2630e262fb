import assert from "node:assert/strict";
import { lockSession } from "./session_lock.ts";

Deno.test("lockSession() gives up after waitMs while another holder keeps the lock", async () => {
  const state = await Deno.makeTempDir({ prefix: "rg-lock-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const f = await Deno.open(Deno.args[0], { create: true, write: true });
       await f.lock(true); console.log("locked"); await new Promise((r) => setTimeout(r, 1500));`,
      `${state}/sessions/held.lock`,
    ],
    stdout: "piped",
  });
  try {
    await Deno.mkdir(`${state}/sessions`);
    const proc = child.spawn();
    const reader = proc.stdout.getReader();
    await reader.read(); // "locked"
    reader.releaseLock();
    const started = performance.now();
    assert.equal(await lockSession(state, { sessionId: "held", waitMs: 200 }), null);
    assert.ok(performance.now() - started < 1000, "returned at the wait bound");
    await proc.stdout.cancel();
    await proc.status;
    const release = await lockSession(state, { sessionId: "held", waitMs: 2000 });
    assert.equal(typeof release, "function", "free once the holder exited");
    release!();
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("lockSession() stops waiting at once when the signal aborts", async () => {
  const state = await Deno.makeTempDir({ prefix: "rg-lock-" });
  try {
    const release = await lockSession(state, { sessionId: "s", waitMs: 1000 });
    assert.ok(release);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    // a second lock in the same process waits (flock per open file description)
    const got = await lockSession(state, {
      sessionId: "s",
      waitMs: 5000,
      signal: controller.signal,
    });
    assert.equal(got, null);
    assert.ok(performance.now() - started < 2000, "the abort did not end the wait");
    release();
    // the abandoned wait gets the lock, then closes it: a later lock is free
    const again = await lockSession(state, { sessionId: "s", waitMs: 2000 });
    assert.equal(typeof again, "function");
    again!();
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});
