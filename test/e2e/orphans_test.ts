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

/** Start `main.ts <args>` in the sandbox with `stdin` written and closed. */
async function startCli(
  sandbox: Sandbox,
  args: string[],
  env: Record<string, string>,
  stdin = "",
): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-run", MAIN, ...args],
    cwd: sandbox.repo.root,
    env: { ...sandbox.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
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
async function killAndExpectNoOrphans(sandbox: Sandbox, child: Deno.ChildProcess): Promise<void> {
  await waitFor(async () => (await readFakeLog(sandbox)).some((c) => c.grandchildPid), 20_000);
  const call = (await readFakeLog(sandbox)).find((c) => c.grandchildPid) as FakeInvocation;
  try {
    assert.equal(await processAlive(call.pid), true, "the provider hangs");
    assert.equal(await processAlive(call.grandchildPid!), true, "with a child of its own");
    const [watchdog] = await watchdogsOf(child.pid);
    assert.ok(watchdog > 0, "a watchdog watches the provider's group");
    child.kill("SIGKILL");
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

Deno.test("hook claude-stop killed with SIGKILL (a host's timeout) leaves no provider behind", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const session = { sessionId: "sess-orphans", cwd: sb.repo.root };
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.equal(p.code, 0, p.stderr);
    await addTokenLine(sb.repo.root, "ORPHAN_TURN");
    const child = await startCli(sb, ["hook", "claude-stop"], {
      REVIEW_GATE_FAKE_SCENARIO: "hang",
    }, stopPayload(session));
    await killAndExpectNoOrphans(sb, child);
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
