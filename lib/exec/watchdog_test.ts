import assert from "node:assert/strict";
import { runProcess, SpawnError } from "./exec.ts";
import { RELEASE_WAIT_MS, startWatchdog, WATCHDOG_NAME, WATCHDOG_SCRIPT } from "./watchdog.ts";

const dec = new TextDecoder();

/** How many watchdogs are children of this test process, as `ps` says. */
function watchdogCount(): number {
  const out = new Deno.Command("ps", { args: ["-A", "-ww", "-o", "ppid=,stat=,args="] })
    .outputSync();
  return dec.decode(out.stdout).split("\n").map((line) => line.trim().split(/\s+/))
    .filter(([ppid, stat, ...args]) =>
      Number(ppid) === Deno.pid && !stat?.startsWith("Z") && args.includes(WATCHDOG_NAME)
    ).length;
}

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

/**
 * The watchdog's script as review-gate runs it, told `pgid` (unless null), with the rest of its
 * stdin under the test's hand.
 */
async function scriptOver(pgid: number | null, graceSeconds: number) {
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", WATCHDOG_SCRIPT, WATCHDOG_NAME, String(graceSeconds)],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  if (pgid !== null) await writer.write(new TextEncoder().encode(`${pgid}\n`));
  return { child, writer, say: (text: string) => writer.write(new TextEncoder().encode(text)) };
}

Deno.test("startWatchdog(): released, it exits and leaves the group alone", async () => {
  const group = await providerGroup();
  try {
    const watchdog = startWatchdog(1);
    assert.ok(watchdog.pid! > 0);
    watchdog.watch(group.leader);
    assert.ok(alive(watchdog.pid!), "it watches");
    await watchdog.release();
    await watchdog.release(); // twice is fine
    assert.equal(alive(watchdog.pid!), false, "it exited");
    assert.ok(alive(group.leader) && alive(group.child), "the group runs on");
  } finally {
    await group.end();
  }
});

Deno.test("startWatchdog(): released before it watched anything (the child never started), it just exits", async () => {
  const watchdog = startWatchdog(1);
  const started = performance.now();
  await watchdog.release();
  assert.ok(performance.now() - started < RELEASE_WAIT_MS, "it exited on its own");
  assert.equal(alive(watchdog.pid!), false);
});

Deno.test("startWatchdog(): a stopped watchdog does not hold up the release", async () => {
  const watchdog = startWatchdog(1);
  try {
    Deno.kill(watchdog.pid!, "SIGSTOP");
    const started = performance.now();
    await watchdog.release();
    const took = performance.now() - started;
    assert.ok(took >= RELEASE_WAIT_MS - 50 && took < RELEASE_WAIT_MS + 1500, `took ${took} ms`);
    assert.equal(alive(watchdog.pid!), false, "it was killed");
  } finally {
    try {
      Deno.kill(watchdog.pid!, "SIGKILL");
    } catch {
      // gone
    }
  }
});

Deno.test("the watchdog's script: EOF without done (review-gate gone) TERMs the whole group", async () => {
  const group = await providerGroup();
  try {
    const watchdog = await scriptOver(group.leader, 1);
    await watchdog.writer.close(); // what the kernel does when review-gate dies
    assert.ok(await waitGone(group.child, 3000), "the group's child is gone");
    assert.ok(await waitGone(group.leader, 3000), "the group's leader is gone");
    assert.equal((await group.status).signal, "SIGTERM");
    await watchdog.child.status;
  } finally {
    await group.end();
  }
});

Deno.test("the watchdog's script: a group that ignores SIGTERM is SIGKILLed after the grace", async () => {
  const group = await providerGroup(true);
  try {
    const started = performance.now();
    const watchdog = await scriptOver(group.leader, 1);
    await watchdog.writer.close();
    assert.ok(await waitGone(group.leader, 4000), "the leader is gone");
    assert.ok(await waitGone(group.child, 1000), "its child is gone");
    assert.ok(performance.now() - started >= 900, "not before the grace");
    assert.equal((await group.status).signal, "SIGKILL");
    await watchdog.child.status;
  } finally {
    await group.end();
  }
});

Deno.test("the watchdog's script: any other word than done is no release", async () => {
  const group = await providerGroup();
  try {
    const watchdog = await scriptOver(group.leader, 1);
    await watchdog.say("don\n");
    await watchdog.writer.close();
    assert.ok(await waitGone(group.leader, 3000), "the group is ended");
    await watchdog.child.status;
  } finally {
    await group.end();
  }
});

Deno.test("the watchdog's script: with no group to watch (EOF or a word that is not a pid) it exits at once", async (t) => {
  // (not "1": were the guard broken, `kill -- -1` would signal every process of the user)
  const words: Array<[string, string | null]> = [
    ["EOF", null],
    ["done", "done\n"],
    ["-1", "-1\n"],
    ["0", "0\n"],
    ["0 1", "0 1\n"],
  ];
  for (const [name, first] of words) {
    await t.step(name, async () => {
      const watchdog = await scriptOver(null, 5);
      if (first !== null) await watchdog.say(first);
      await watchdog.writer.close();
      const started = performance.now();
      const status = await watchdog.child.status;
      assert.equal(status.code, 0);
      assert.ok(performance.now() - started < 2000, "no grace sleep: it signalled nothing");
    });
  }
});

Deno.test("runProcess(): a program that cannot start is a SpawnError, and its watchdog is gone", async () => {
  const before = watchdogCount();
  await assert.rejects(
    runProcess({ cmd: "/nonexistent/review-gate-provider", args: [] }),
    SpawnError,
  );
  assert.equal(watchdogCount(), before, "the watchdog started for it has exited");
});

Deno.test('runProcess(): an "own" child is watched while it runs, a git-like "ours" child is not', async () => {
  const before = watchdogCount();
  const own = runProcess({ cmd: "sleep", args: ["1"] });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(watchdogCount(), before + 1, "one watchdog for the own-group child");
  await own;
  assert.equal(watchdogCount(), before, "released with the call");
  const ours = runProcess({ cmd: "sleep", args: ["1"], processGroup: "ours" });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(watchdogCount(), before, "none for an ours-group child");
  await ours;
});
