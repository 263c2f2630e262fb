import assert from "node:assert/strict";
import {
  isGateHook,
  pushSkip,
  recordSwitchedOff,
  stopSkip,
  withoutUserInfo,
} from "./skip_record.ts";

const NOW = new Date("2026-12-03T09:12:00.000Z");
const A = "a".repeat(40);
const Z = "0".repeat(40);

Deno.test("isGateHook() holds the gates only: prompt, work and guard hooks review nothing", () => {
  assert.deepEqual(
    ["pre-push", "claude-stop", "codex-stop", "claude-prompt", "claude-work", "claude-guard"].map(
      isGateHook,
    ),
    [true, true, true, false, false, false],
  );
  // every agent's Stop gate: a skip of any of them lets a turn through unreviewed
  for (const gate of ["copilot-stop", "qwen-stop", "gemini-stop"]) {
    assert.equal(isGateHook(gate), true, gate);
  }
  assert.equal(isGateHook("gemini-prompt"), false);
  assert.equal(isGateHook("gemini-work"), false);
});

Deno.test("withoutUserInfo() drops a URL's user and password, nothing else", () => {
  assert.equal(
    withoutUserInfo("https://me:s3cret@host.example/a/b.git"),
    "https://host.example/a/b.git",
  );
  assert.equal(withoutUserInfo("https://tok@en@host/x"), "https://host/x");
  assert.equal(withoutUserInfo("ssh://git@host/x@y"), "ssh://host/x@y");
  assert.equal(withoutUserInfo("git@github.com:o/r.git"), "git@github.com:o/r.git");
  assert.equal(withoutUserInfo("origin"), "origin");
});

Deno.test("pushSkip() names the refs, the remote, the directory and who pushed", () => {
  const lines = Array.from({ length: 22 }, (_, i) => `refs/heads/b${i} ${A} refs/heads/b${i} ${Z}`);
  const env = { USER: "", LOGNAME: "alice", GIT_DIR: "/r/.git/worktrees/w", CLAUDECODE: "1" };
  assert.deepEqual(
    pushSkip({ env, cwd: "/w", now: NOW }, {
      lines: `${lines.join("\r\n")}\n\n`,
      remote: "https://u:p@h/r",
    }, { reason: "env", value: "0" }),
    {
      at: "2026-12-03T09:12:00.000Z",
      gate: "pre-push",
      reason: "env",
      value: "0",
      dir: "/w",
      gitDir: "/r/.git/worktrees/w",
      user: "alice",
      agent: "CLAUDECODE",
      remote: "https://h/r",
      refs: lines.slice(0, 20),
      moreRefs: 2,
    },
  );
});

Deno.test("stopSkip() takes the session and cwd from the payload, when it can read them", () => {
  const payload = JSON.stringify({ session_id: "s-1", cwd: "/r/src", hook_event_name: "Stop" });
  const source = { env: { USER: "bob" }, cwd: "/hook", now: NOW };
  const why = { reason: "disabled" as const, where: "config" };
  assert.deepEqual(
    stopSkip(source, { gate: "codex-stop", stdinText: payload, repo: "/r/.git" }, why),
    {
      at: "2026-12-03T09:12:00.000Z",
      gate: "codex-stop",
      reason: "disabled",
      where: "config",
      dir: "/r/src",
      repo: "/r/.git",
      session: "s-1",
      changed: null,
      user: "bob",
    },
  );
  const unread = stopSkip(source, { gate: "claude-stop", stdinText: "not json" }, why);
  assert.equal(unread.dir, "/hook");
  assert.equal(unread.session, undefined);
});

Deno.test("recordSwitchedOff() of a push says in one stderr line that it was NOT reviewed, as the scripts do", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const said: string[] = [];
    const lines = `refs/heads/a ${A} refs/heads/a ${Z}\n`;
    const deps = {
      env: { XDG_STATE_HOME: dir, REVIEW_GATE: "off" },
      cwd: dir,
      now: NOW,
      readStdin: () => Promise.resolve(new TextEncoder().encode(lines)),
      stderr: { write: (t: string) => void said.push(t) },
    };
    await recordSwitchedOff("pre-push", ["origin"], deps);
    assert.deepEqual(said, [
      "review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip is recorded (review-gate stats)\n",
    ]);
    // a Stop says nothing here: its answer is the agent's, not a terminal's
    said.length = 0;
    await recordSwitchedOff("claude-stop", [], {
      ...deps,
      readStdin: () => Promise.resolve(new Uint8Array()),
    });
    assert.deepEqual(said, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
