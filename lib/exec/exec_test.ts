import assert from "node:assert/strict";
import { killAllChildren, liveChildren } from "./children.ts";
import { CHILD_MARKER, type ExecRequest, OUTPUT_GRACE_MS, runProcess } from "./exec.ts";

const dec = new TextDecoder();

/** `setsid <command…>` as a shell words prefix: perl's, since macOS has no `setsid` command. */
const SETSID = `perl -MPOSIX -e 'POSIX::setsid() or die "setsid: $!"; exec @ARGV or die'`;

/**
 * `ps`'s process group and state of `pid`, or null when there is no such process. Through `ps`, not
 * /proc: reading /proc/<pid>/ takes --allow-all, which `deno task test` does not give.
 */
function psOf(pid: number): { pgid: number; state: string } | null {
  const out = new Deno.Command("ps", { args: ["-o", "pgid=,stat=", "-p", String(pid)] })
    .outputSync();
  const [pgid, state] = dec.decode(out.stdout).trim().split(/\s+/);
  return out.code === 0 && pgid ? { pgid: Number(pgid), state } : null;
}

/** True while `pid` runs (a zombie counts as gone). */
function alive(pid: number): boolean {
  const info = psOf(pid);
  return info !== null && !info.state.startsWith("Z");
}

async function waitGone(pid: number, ms = 2000): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

/** Run `fn` with a temp dir; kill any pid written to `<dir>/pid` afterwards (no leaked sleeps). */
async function withPidFile(fn: (pidFile: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const pidFile = `${dir}/pid`;
  try {
    await fn(pidFile);
  } finally {
    const pid = Number(await Deno.readTextFile(pidFile).catch(() => "0"));
    if (pid > 0) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await Deno.remove(dir, { recursive: true });
  }
}

async function readPid(pidFile: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const text = await Deno.readTextFile(pidFile).catch(() => "");
    if (text.trim()) return Number(text);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`No pid in "${pidFile}"`);
}

Deno.test("runProcess() returns after exit while a setsid daemon still holds stdout", async () => {
  await withPidFile(async (pidFile) => {
    const script =
      `echo answer; ${SETSID} sh -c 'echo $$ > "$1"; exec sleep 10' _ "${pidFile}" & exit 0`;
    const t0 = performance.now();
    const result = await runProcess({ cmd: "sh", args: ["-c", script], timeoutMs: 20_000 });
    const elapsed = performance.now() - t0;
    assert.ok(elapsed < OUTPUT_GRACE_MS + 2000, `took ${elapsed} ms`);
    assert.equal(result.code, 0);
    assert.equal(dec.decode(result.stdout), "answer\n");
    assert.equal(result.timedOut, false);
    assert.equal(result.outputCutAfterExit, true);
  });
});

Deno.test("runProcess() keeps a finished answer when a same-group child outlives the timeout", async () => {
  await withPidFile(async (pidFile) => {
    const script = `echo answer; sh -c 'echo $$ > "$1"; exec sleep 10' _ "${pidFile}" & exit 0`;
    const t0 = performance.now();
    const result = await runProcess({ cmd: "sh", args: ["-c", script], timeoutMs: 2500 });
    const elapsed = performance.now() - t0;
    assert.equal(result.timedOut, false);
    assert.equal(result.code, 0);
    assert.equal(dec.decode(result.stdout), "answer\n");
    assert.equal(result.outputCutAfterExit, true);
    assert.ok(elapsed < 2500, `took ${elapsed} ms`);
    assert.ok(await waitGone(await readPid(pidFile)), "the rest of the group was not killed");
  });
});

Deno.test("runProcess() honours an abort while a setsid daemon holds stdout", async () => {
  await withPidFile(async (pidFile) => {
    const script =
      `echo partial; ${SETSID} sh -c 'echo $$ > "$1"; exec sleep 10' _ "${pidFile}" & exec sleep 10`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 300);
    const t0 = performance.now();
    const result = await runProcess({
      cmd: "sh",
      args: ["-c", script],
      signal: controller.signal,
    });
    clearTimeout(timer);
    const elapsed = performance.now() - t0;
    assert.ok(elapsed < OUTPUT_GRACE_MS + 2000, `took ${elapsed} ms`);
    assert.equal(result.aborted, true);
    assert.equal(result.code, 137);
    assert.equal(dec.decode(result.stdout), "partial\n");
  });
});

Deno.test("runProcess() keeps reading output while the child lives, past the grace period", async () => {
  const seconds = (OUTPUT_GRACE_MS + 300) / 1000;
  const result = await runProcess({
    cmd: "sh",
    args: ["-c", `echo early; sleep ${seconds}; echo late`],
  });
  assert.equal(dec.decode(result.stdout), "early\nlate\n");
  assert.equal(result.outputCutAfterExit, undefined);
  assert.equal(result.code, 0);
});

Deno.test("killAllChildren() kills the group of every live child; liveChildren() tracks them", async () => {
  await withPidFile(async (pidFile) => {
    const running = runProcess({
      cmd: "sh",
      args: ["-c", `sh -c 'echo $$ > "$1"; exec sleep 10' _ "${pidFile}" & exec sleep 10`],
    });
    const grandchild = await readPid(pidFile);
    const [pid] = liveChildren();
    assert.equal(typeof pid, "number");
    assert.equal(killAllChildren(), 1);
    const result = await running;
    assert.equal(result.code, 137);
    assert.ok(await waitGone(grandchild), "the grandchild survived");
    assert.deepEqual(liveChildren(), []);
  });
});

Deno.test("runProcess() gives every child REVIEW_GATE_CHILD=1 over the caller's env", async (t) => {
  const cases: [string, Record<string, string> | undefined][] = [
    ["no env", undefined],
    ["extra env", { OTHER: "x" }],
    ["a caller's 0", { REVIEW_GATE_CHILD: "0" }],
  ];
  for (const [name, env] of cases) {
    await t.step(name, async () => {
      const script = 'printf "%s|%s" "$REVIEW_GATE_CHILD" "$OTHER"';
      const result = await runProcess({ cmd: "sh", args: ["-c", script], env });
      assert.equal(result.code, 0);
      assert.equal(dec.decode(result.stdout), `1|${env?.OTHER ?? ""}`);
    });
  }
  assert.deepEqual(CHILD_MARKER, { REVIEW_GATE_CHILD: "1" });
});

Deno.test("runProcess() with clearEnv gives the child only env and the child marker", async () => {
  Deno.env.set("REVIEW_GATE_TEST_PARENT_SECRET", "x");
  try {
    const result = await runProcess({
      cmd: "/usr/bin/env",
      args: [],
      env: { ONLY: "1" },
      clearEnv: true,
    });
    const names = new TextDecoder().decode(result.stdout).trim().split("\n").map((l) =>
      l.split("=")[0]
    ).sort();
    assert.deepEqual(names, ["ONLY", "REVIEW_GATE_CHILD"]);
  } finally {
    Deno.env.delete("REVIEW_GATE_TEST_PARENT_SECRET");
  }
});

/** The process group of `pid`. */
function groupOf(pid: number): number {
  const info = psOf(pid);
  if (!info) throw new Error(`No process ${pid}`);
  return info.pgid;
}

/**
 * Run `fn` beside a sentinel: a `sleep` in this test process's own group, started outside
 * runProcess. A kill of our group (`-pgid`) would take it (and the test runner) down: it must
 * still run afterwards.
 */
async function withSentinel(fn: () => Promise<void>): Promise<void> {
  const sentinel = new Deno.Command("sleep", { args: ["60"], stdout: "null", stderr: "null" })
    .spawn();
  try {
    assert.equal(groupOf(sentinel.pid), groupOf(Deno.pid), "the sentinel shares our group");
    await fn();
    assert.ok(alive(sentinel.pid), "a kill reached review-gate's own process group");
  } finally {
    sentinel.kill("SIGKILL");
    await sentinel.status;
  }
}

/** Start `script` through runProcess in our group, and its pid once it wrote it to `pidFile`. */
async function startOurs(script: string, pidFile: string, extra: Partial<ExecRequest> = {}) {
  const running = runProcess({
    cmd: "sh",
    args: ["-c", `echo $$ > "${pidFile}.child"; ${script}`],
    processGroup: "ours",
    ...extra,
  });
  const pid = await readPid(`${pidFile}.child`);
  return { running, pid };
}

Deno.test("runProcess() with processGroup ours: the child is in our group, killed alone by pid on timeout", async () => {
  await withSentinel(() =>
    withPidFile(async (pidFile) => {
      const { running, pid } = await startOurs(
        `sh -c 'echo $$ > "$1"; exec sleep 30' _ "${pidFile}" & exec sleep 30`,
        pidFile,
        { timeoutMs: 500 },
      );
      assert.equal(groupOf(pid), groupOf(Deno.pid), "the child runs in our process group");
      const grandchild = await readPid(pidFile);
      const t0 = performance.now();
      const result = await running;
      assert.equal(result.timedOut, true);
      assert.equal(result.code, 137);
      assert.equal(result.signal, "SIGKILL");
      assert.equal(alive(pid), false);
      // its grandchild shares our group: never killed by group, only its pipe is let go
      assert.equal(result.outputCutAfterExit, true);
      assert.ok(performance.now() - t0 < OUTPUT_GRACE_MS + 1500);
      assert.ok(
        alive(grandchild),
        "a same-group grandchild was killed: a group kill hit our group",
      );
    })
  );
});

Deno.test("runProcess() with processGroup ours: an abort kills the child by pid", async () => {
  await withSentinel(() =>
    withPidFile(async (pidFile) => {
      const controller = new AbortController();
      const { running, pid } = await startOurs("exec sleep 30", pidFile, {
        signal: controller.signal,
      });
      assert.equal(groupOf(pid), groupOf(Deno.pid));
      controller.abort();
      const result = await running;
      assert.equal(result.aborted, true);
      assert.equal(result.timedOut, false);
      assert.equal(result.code, 137);
      assert.equal(alive(pid), false);
      assert.equal(result.outputCutAfterExit, undefined);
    })
  );
});

Deno.test("runProcess() with processGroup ours: a grandchild holding stdout is cut after the grace, not killed", async () => {
  await withSentinel(() =>
    withPidFile(async (pidFile) => {
      const t0 = performance.now();
      const result = await runProcess({
        cmd: "sh",
        args: ["-c", `echo answer; sh -c 'echo $$ > "$1"; exec sleep 30' _ "${pidFile}" & exit 0`],
        processGroup: "ours",
        timeoutMs: 20_000,
      });
      const elapsed = performance.now() - t0;
      assert.ok(elapsed >= OUTPUT_GRACE_MS - 50 && elapsed < OUTPUT_GRACE_MS + 2000, `${elapsed}`);
      assert.equal(result.code, 0);
      assert.equal(dec.decode(result.stdout), "answer\n");
      assert.equal(result.outputCutAfterExit, true);
      assert.equal(result.timedOut, false);
      const grandchild = await readPid(pidFile);
      assert.equal(groupOf(grandchild), groupOf(Deno.pid));
      assert.ok(alive(grandchild), "the grandchild is in our group: runProcess kills no group");
    })
  );
});

Deno.test("killAllChildren() kills an own-group child's group and a same-group child by pid", async () => {
  await withSentinel(() =>
    withPidFile(async (pidFile) => {
      const own = runProcess({
        cmd: "sh",
        args: ["-c", `sh -c 'echo $$ > "$1"; exec sleep 30' _ "${pidFile}" & exec sleep 30`],
      });
      const ownGrandchild = await readPid(pidFile);
      const ours = await startOurs("exec sleep 30", `${pidFile}.ours`);
      assert.equal(liveChildren().length, 2);
      assert.notEqual(groupOf(ownGrandchild), groupOf(Deno.pid));
      assert.equal(groupOf(ours.pid), groupOf(Deno.pid));
      assert.equal(killAllChildren(), 2);
      const [ownResult, oursResult] = await Promise.all([own, ours.running]);
      assert.equal(ownResult.code, 137);
      assert.equal(oursResult.code, 137);
      assert.ok(await waitGone(ownGrandchild), "the own group's grandchild survived");
      assert.equal(alive(ours.pid), false);
      assert.deepEqual(liveChildren(), []);
      assert.equal(killAllChildren(), 0, "a returned child is no longer killed");
    })
  );
});

Deno.test("runProcess() with processGroup ours: an interrupt signal that then aborts the request reads as aborted", async (t) => {
  for (const [name, abort] of [["aborted", true], ["never aborted", false]] as const) {
    await t.step(name, async () => {
      await withPidFile(async (pidFile) => {
        const controller = new AbortController();
        const { running, pid } = await startOurs("exec sleep 30", pidFile, {
          signal: controller.signal,
        });
        // what a terminal's Ctrl-C does: the child dies of SIGINT, then main.ts aborts
        Deno.kill(pid, "SIGINT");
        if (abort) setTimeout(() => controller.abort(), 50);
        const result = await running;
        assert.equal(result.signal, "SIGINT");
        assert.equal(result.code, 130);
        assert.equal(result.aborted, abort);
      });
    });
  }
});

Deno.test("runProcess() keeps at most maxOutputBytes of each pipe and drains the rest", async (t) => {
  // 300 KB on each pipe: several reads; the child must exit 0 (never cut off by a closed pipe)
  const script = "head -c 300000 /dev/zero | tr '\\0' a; head -c 300000 /dev/zero | tr '\\0' b >&2";
  for (const [limit, truncated] of [[1000, true], [300_000, false], [0, true]] as const) {
    await t.step(`limit ${limit}`, async () => {
      const result = await runProcess({ cmd: "sh", args: ["-c", script], maxOutputBytes: limit });
      assert.equal(result.code, 0);
      assert.equal(result.truncated, truncated);
      assert.deepEqual(result.stdout, new Uint8Array(limit).fill(0x61));
      assert.deepEqual(result.stderr, new Uint8Array(limit).fill(0x62));
    });
  }
});
