import assert from "node:assert/strict";
import { transientExec } from "./install_action.ts";
import { join } from "node:path";
import { runProcess } from "../exec/exec.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { fakeBrew } from "../install/test_brew.ts";
import type { CliDeps } from "./deps.ts";
import { act } from "./install_action.ts";

Deno.test("install --git run from a Homebrew keg writes a hook naming the link on PATH", async () => {
  const brew = await fakeBrew("review-gate", ["0.1.0"], "0.1.0");
  const repo = await makeTestRepo({ "a.txt": "x\n" });
  try {
    const out: string[] = [];
    const deps: CliDeps = {
      cwd: repo.root,
      env: { HOME: join(brew.prefix, "home"), PATH: `/usr/bin:${join(brew.prefix, "bin")}` },
      stdout: { isTerminal: false, write: (t) => void out.push(t) },
      stderr: { isTerminal: false, write: (t) => void out.push(t) },
      readStdin: () => Promise.resolve(new Uint8Array()),
      runner: runProcess,
      now: () => new Date(),
      signal: new AbortController().signal,
      self: { execPath: brew.keg("0.1.0") },
    };
    await act(true, { git: true }, deps);
    const hook = await Deno.readTextFile(join(repo.root, ".git", "hooks", "pre-push"));
    assert.ok(hook.includes(`'${join(brew.prefix, "bin", "review-gate")}' hook pre-push`), hook);
    assert.ok(!hook.includes("/Cellar/"), "no keg path survives in the hook");
  } finally {
    await repo.cleanup();
    await brew.cleanup();
  }
});

Deno.test("transientExec() names a Deno inside npx's cache, not an installed one", () => {
  assert.equal(
    transientExec("/home/u/.npm/_npx/7a40be787520bede/node_modules/deno/deno"),
    true,
  );
  assert.equal(transientExec("C:\\Users\\u\\AppData\\npm-cache\\_npx\\1f\\deno.exe"), true);
  assert.equal(transientExec("/usr/local/lib/node_modules/deno/deno"), false);
  assert.equal(transientExec("/opt/homebrew/bin/deno"), false);
  assert.equal(transientExec("/home/u/src/my_npx_tools/deno"), false);
});

Deno.test("uninstall --dry-run says dry run once, not once per target", async () => {
  const repo = await makeTestRepo({ "a.txt": "x\n" });
  try {
    const out: string[] = [];
    const deps: CliDeps = {
      cwd: repo.root,
      env: { HOME: join(repo.root, ".home"), PATH: "/usr/bin:/bin" },
      stdout: { isTerminal: false, write: (t) => void out.push(t) },
      stderr: { isTerminal: false, write: () => {} },
      readStdin: () => Promise.resolve(new Uint8Array()),
      runner: runProcess,
      now: () => new Date(),
      signal: new AbortController().signal,
      self: { execPath: "/usr/local/bin/review-gate" },
    };
    await act(true, { git: true }, deps);
    out.length = 0;
    await act(false, { dryRun: true }, deps);
    const text = out.join("");
    assert.equal(text.match(/dry run/g)?.length, 1, text);
    assert.ok(text.startsWith("(dry run: nothing written)\n"), text);
    assert.match(text, /^git pre-push hook/m);
    assert.match(text, /^Claude settings/m);
    assert.ok(await Deno.stat(join(repo.root, ".git", "hooks", "pre-push")), "nothing removed");
  } finally {
    await repo.cleanup();
  }
});
