/**
 * End to end: review-gate killed with SIGKILL — what a host does to a hook past its timeout, or
 * `kill -9` — while its provider hangs with a child of its own (the fake's `hang` step starts a
 * grandchild `sleep 3600` in its process group). No handler of review-gate runs after a SIGKILL;
 * the provider's watchdog (lib/exec/watchdog.ts) must end the provider and its child within a few
 * seconds. Checked with `ps` (no /proc: macOS has none).
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  type FakeInvocation,
  MAIN,
  processAlive,
  readFakeLog,
  type Sandbox,
  writeScenario,
} from "./_cli.ts";
import { WATCHDOG_NAME } from "../../lib/exec/watchdog.ts";
import { waitFor, withChangedSandbox } from "./_sandbox_scope.ts";
import {
  addTokenLine,
  makeGateSandbox,
  promptPayload,
  runHook,
  stopPayload,
} from "../gates/_gates.ts";

/**
 * Start `main.ts <args>` in the sandbox with `stdin` written and closed; with `ownGroup`, in a
 * session and process group of its own (as a host may start a hook, to kill the group later).
 */
async function startCli(
  sandbox: Sandbox,
  args: string[],
  env: Record<string, string>,
  stdin = "",
  ownGroup = false,
): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-run", MAIN, ...args],
    cwd: sandbox.repo.root,
    env: { ...sandbox.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: ownGroup,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  return child;
}

/** The pids of the watchdogs `ps` shows as children of `parent` (review-gate). */
async function watchdogsOf(parent: number): Promise<number[]> {
  const out = await new Deno.Command("ps", { args: ["-A", "-ww", "-o", "pid=,ppid=,args="] })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === parent && args.includes(WATCHDOG_NAME))
    .map(([pid]) => Number(pid));
}

function killQuietly(pid: number | undefined): void {
  if (!pid) return;
  for (const target of [-pid, pid]) {
    try {
      Deno.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Wait for the hanging provider, SIGKILL review-gate, and assert that the provider, its child and
 * its watchdog are all gone within a few seconds.
 */
async function killAndExpectNoOrphans(
  sandbox: Sandbox,
  child: Deno.ChildProcess,
  target: "pid" | "group" = "pid",
): Promise<void> {
  await waitFor(async () => (await readFakeLog(sandbox)).some((c) => c.grandchildPid), 20_000);
  const call = (await readFakeLog(sandbox)).find((c) => c.grandchildPid) as FakeInvocation;
  try {
    assert.equal(await processAlive(call.pid), true, "the provider hangs");
    assert.equal(await processAlive(call.grandchildPid!), true, "with a child of its own");
    const [watchdog] = await watchdogsOf(child.pid);
    assert.ok(watchdog > 0, "a watchdog watches the provider's group");
    Deno.kill(target === "group" ? -child.pid : child.pid, "SIGKILL");
    const out = await child.output();
    assert.equal(out.signal, "SIGKILL");
    const started = performance.now();
    await waitFor(async () => !(await processAlive(call.pid)), 5_000);
    await waitFor(async () => !(await processAlive(call.grandchildPid!)), 5_000);
    assert.ok(performance.now() - started < 5_000, "gone within a few seconds");
    await waitFor(async () => !(await processAlive(watchdog)), 5_000);
  } finally {
    killQuietly(call.pid);
    killQuietly(call.grandchildPid);
  }
}

for (const provider of ["claude", "codex"] as const) {
  Deno.test(`review --provider ${provider} killed with SIGKILL leaves no provider behind`, async () => {
    await withChangedSandbox(async (sandbox) => {
      const child = await startCli(sandbox, ["review", "--provider", provider], {
        REVIEW_GATE_FAKE_SCENARIO: "hang",
      });
      await killAndExpectNoOrphans(sandbox, child);
    });
  });
}

Deno.test("a council (claude and codex at once) killed with SIGKILL leaves neither provider behind", async () => {
  await withChangedSandbox(async (sandbox) => {
    const child = await startCli(sandbox, ["review", "--providers", "claude,codex"], {
      REVIEW_GATE_FAKE_SCENARIO: "hang",
    });
    await waitFor(
      async () => (await readFakeLog(sandbox)).filter((c) => c.grandchildPid).length === 2,
      20_000,
    );
    const calls = await readFakeLog(sandbox);
    const pids = calls.flatMap((c) => [c.pid, c.grandchildPid!]);
    try {
      assert.equal((await watchdogsOf(child.pid)).length, 2, "one watchdog per provider call");
      child.kill("SIGKILL");
      await child.output();
      for (const pid of pids) await waitFor(async () => !(await processAlive(pid)), 5_000);
    } finally {
      for (const pid of pids) killQuietly(pid);
    }
  });
});

Deno.test("hook claude-stop killed with SIGKILL (a host's timeout), alone or with its whole group, leaves no provider behind", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const session = { sessionId: "sess-orphans", cwd: sb.repo.root };
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.equal(p.code, 0, p.stderr);
    await addTokenLine(sb.repo.root, "ORPHAN_TURN");
    for (const target of ["pid", "group"] as const) {
      await Deno.remove(sb.log).catch(() => {});
      const child = await startCli(
        sb,
        ["hook", "claude-stop"],
        {
          REVIEW_GATE_FAKE_SCENARIO: "hang",
        },
        stopPayload(session),
        target === "group",
      );
      await killAndExpectNoOrphans(sb, child, target);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a provider call that ends normally leaves no watchdog behind", async () => {
  await withChangedSandbox(async (sandbox) => {
    const slow = await writeScenario(sandbox, "slow", [{ kind: "valid", delayMs: 1500 }]);
    const child = await startCli(sandbox, ["review", "--provider", "codex"], {
      REVIEW_GATE_FAKE_SCENARIO: slow,
    });
    let watchdogs: number[] = [];
    await waitFor(async () => (watchdogs = await watchdogsOf(child.pid)).length > 0, 20_000);
    assert.equal(watchdogs.length, 1, "one watchdog for the one provider call");
    const out = await child.output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(await processAlive(watchdogs[0]), false, "told done, it exited");
  });
});
