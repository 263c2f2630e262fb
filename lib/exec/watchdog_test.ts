import assert from "node:assert/strict";
import { startWatchdog, WATCHDOG_SCRIPT } from "./watchdog.ts";

const dec = new TextDecoder();

/** True while `pid` runs, as `ps` says (a zombie counts as gone; no /proc: macOS has none). */
function alive(pid: number): boolean {
  const out = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).outputSync();
  const state = dec.decode(out.stdout).trim();
  return out.code === 0 && state !== "" && !state.startsWith("Z");
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

/**
 * A process group like a provider's: a leader `sh` (in its own session) and a child of its own;
 * with `ignoreTerm` both ignore SIGTERM. Resolves once the child's pid is known.
 */
async function providerGroup(ignoreTerm = false) {
  const trap = ignoreTerm ? "trap '' TERM; " : "";
  const leader = new Deno.Command("/bin/sh", {
    args: ["-c", `${trap}sleep 60 & echo $!; wait`],
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const reader = leader.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const child = Number(dec.decode(value).trim());
  const end = async () => {
    for (const target of [-leader.pid, child]) {
      try {
        Deno.kill(target, "SIGKILL");
      } catch {
        // gone
      }
    }
    await leader.status;
    await leader.stdout.cancel();
  };
  return { leader: leader.pid, child, status: leader.status, end };
}

/** The watchdog's script over `pgid`, run as review-gate runs it, with stdin under the test's hand. */
function scriptOver(pgid: number, graceSeconds: number) {
  return new Deno.Command("/bin/sh", {
    args: ["-c", WATCHDOG_SCRIPT, "review-gate-watchdog", String(pgid), String(graceSeconds)],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
}

Deno.test("startWatchdog(): released, it exits and leaves the group alone", async () => {
  const group = await providerGroup();
  try {
    const watchdog = startWatchdog(group.leader, 1);
    assert.ok(watchdog.pid! > 0);
    assert.ok(alive(watchdog.pid!), "it watches");
    await watchdog.release();
    await watchdog.release(); // twice is fine
    assert.equal(alive(watchdog.pid!), false, "it exited");
    assert.ok(alive(group.leader) && alive(group.child), "the group runs on");
  } finally {
    await group.end();
  }
});

Deno.test("the watchdog's script: EOF without done (review-gate gone) TERMs the whole group", async () => {
  const group = await providerGroup();
  try {
    const watchdog = scriptOver(group.leader, 1);
    await watchdog.stdin.close(); // what the kernel does when review-gate dies
    assert.ok(await waitGone(group.child, 3000), "the group's child is gone");
    assert.ok(await waitGone(group.leader, 3000), "the group's leader is gone");
    assert.equal((await group.status).signal, "SIGTERM");
    await watchdog.status;
  } finally {
    await group.end();
  }
});

Deno.test("the watchdog's script: a group that ignores SIGTERM is SIGKILLed after the grace", async () => {
  const group = await providerGroup(true);
  try {
    const started = performance.now();
    const watchdog = scriptOver(group.leader, 1);
    await watchdog.stdin.close();
    assert.ok(await waitGone(group.leader, 4000), "the leader is gone");
    assert.ok(await waitGone(group.child, 1000), "its child is gone");
    assert.ok(performance.now() - started >= 900, "not before the grace");
    assert.equal((await group.status).signal, "SIGKILL");
    await watchdog.status;
  } finally {
    await group.end();
  }
});

Deno.test("the watchdog's script: any other word than done is no release", async () => {
  const group = await providerGroup();
  try {
    const watchdog = scriptOver(group.leader, 1);
    const writer = watchdog.stdin.getWriter();
    await writer.write(new TextEncoder().encode("don\n"));
    await writer.close();
    assert.ok(await waitGone(group.leader, 3000), "the group is ended");
    await watchdog.status;
  } finally {
    await group.end();
  }
});
