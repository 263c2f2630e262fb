import assert from "node:assert/strict";
import { killAllChildren, liveChildren } from "./children.ts";
import { CHILD_MARKER, OUTPUT_GRACE_MS, runProcess } from "./exec.ts";

const dec = new TextDecoder();

/** True while `pid` runs (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(Deno.readTextFileSync(`/proc/${pid}/status`));
  } catch {
    return false;
  }
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
      `echo answer; setsid sh -c 'echo $$ > "$1"; exec sleep 10' _ "${pidFile}" & exit 0`;
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
      `echo partial; setsid sh -c 'echo $$ > "$1"; exec sleep 10' _ "${pidFile}" & exec sleep 10`;
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
