import assert from "node:assert/strict";
import { runProcess } from "./exec.ts";
import { descendantsOf, isRunning, parseLstart, processInfo } from "./process_info.ts";

Deno.test("parseLstart() reads ps's C-locale start time as UTC", () => {
  assert.equal(parseLstart("Mon Nov  3 08:05:09 2026"), "2026-11-03T08:05:09.000Z");
  assert.equal(parseLstart("Tue Dec 31 23:59:59 2024\n"), "2024-12-31T23:59:59.000Z");
  assert.equal(parseLstart("Mon Foo  3 08:05:09 2026"), null);
  assert.equal(parseLstart("yesterday"), null);
});

Deno.test({
  name: "processInfo() and isRunning() know a live process by pid and start time, then its end",
  sanitizeResources: true,
  sanitizeOps: true,
  fn: async () => {
    const child = new Deno.Command("sleep", { args: ["30"], stdout: "null", stderr: "null" })
      .spawn();
    try {
      const info = await processInfo(runProcess, child.pid);
      assert.ok(info, "ps finds the child");
      assert.equal(info.zombie, false);
      const started = Date.parse(info.startedAt);
      assert.ok(Math.abs(started - Date.now()) < 60_000, info.startedAt);
      assert.equal(await isRunning(runProcess, info), true);
      const earlier = new Date(started - 1000).toISOString();
      assert.equal(await isRunning(runProcess, { pid: child.pid, startedAt: earlier }), false);
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
    assert.equal(await processInfo(runProcess, child.pid), null);
    assert.equal(await processInfo(runProcess, -5), null);
  },
});

Deno.test({
  name: "descendantsOf() lists a process's children and grandchildren",
  sanitizeResources: true,
  sanitizeOps: true,
  fn: async () => {
    const child = new Deno.Command("sh", {
      args: ["-c", "sh -c 'sleep 30; :' & sleep 30 & wait"],
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
    try {
      let found: { pid: number }[] = [];
      for (let i = 0; i < 50 && found.length < 3; i++) {
        found = await descendantsOf(runProcess, child.pid);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(found.length, 3, `found ${found.map((p) => p.pid).join(", ")}`);
      assert.ok(!found.some((p) => p.pid === child.pid));
    } finally {
      Deno.kill(-child.pid, "SIGKILL");
      await child.status;
    }
  },
});
