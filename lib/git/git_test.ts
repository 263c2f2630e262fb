import assert from "node:assert/strict";
import { GitError } from "../base/errors.ts";
import { type ExecRequest, type ExecResult, runProcess } from "../exec/exec.ts";
import { git, gitText, HARDENING_ARGS, runGit, stoppedByGroupSignal } from "./git.ts";

const enc = new TextEncoder();

function fakeResult(code: number, stdout = "", stderr = ""): ExecResult {
  return {
    code,
    stdout: enc.encode(stdout),
    stderr: enc.encode(stderr),
    durationMs: 1,
    timedOut: false,
    aborted: false,
    truncated: false,
  };
}

Deno.test("runGit() passes fixed options and env, merging caller env", async () => {
  const seen: ExecRequest[] = [];
  const runner = (request: ExecRequest) => {
    seen.push(request);
    return Promise.resolve(fakeResult(0, "ok\n"));
  };
  await runGit(runner, "/repo", ["status"], { env: { GIT_INDEX_FILE: "/tmp/i" }, stdin: "x" });
  assert.equal(seen[0].cmd, "git");
  assert.equal(seen[0].cwd, "/repo");
  assert.deepEqual(seen[0].args, [
    "--no-pager",
    "-c",
    "core.quotepath=off",
    "-c",
    "color.ui=false",
    "-c",
    "advice.graftFileDeprecated=false",
    ...HARDENING_ARGS,
    "-c",
    "core.hooksPath=/dev/null",
    "status",
  ]);
  assert.ok(HARDENING_ARGS.includes("core.fsmonitor=false"));
  // config cannot make `add -A` trust stale stat data (an edit that restored size and mtime)
  assert.ok(HARDENING_ARGS.includes("core.checkStat=default"));
  assert.ok(HARDENING_ARGS.includes("core.trustctime=true"));
  assert.equal(seen[0].env?.GIT_CONFIG_GLOBAL, undefined, "local mode keeps the user's config");
  assert.equal(seen[0].env?.GIT_OPTIONAL_LOCKS, "0");
  assert.equal(seen[0].env?.LC_ALL, "C");
  assert.equal(seen[0].env?.GIT_INDEX_FILE, "/tmp/i");
  assert.equal(seen[0].stdin, "x");
});

Deno.test("the Stop script's git wrapper passes every hardening override review-gate's git passes", async () => {
  const script = await Deno.readTextFile(new URL("../../hooks/turn-stop.sh", import.meta.url));
  const wrapper = script.slice(
    script.indexOf("\ng() {"),
    script.indexOf("\n}\n", script.indexOf("\ng() {")),
  );
  const passed = [...wrapper.matchAll(/ -c (\S+)/g)].map((m) => m[1]);
  for (let i = 1; i < HARDENING_ARGS.length; i += 2) {
    assert.ok(passed.includes(HARDENING_ARGS[i]), `g() passes -c ${HARDENING_ARGS[i]}`);
  }
  assert.ok(passed.includes("core.hooksPath=/dev/null"));
});

Deno.test("git() throws GitError with args and stderr tail on failure", async () => {
  const runner = () => Promise.resolve(fakeResult(128, "", "warning: a\nfatal: bad thing\n"));
  await assert.rejects(git(runner, "/repo", ["diff", "x"]), (error: unknown) => {
    assert.ok(error instanceof GitError);
    assert.equal(error.exitCode, 2);
    assert.deepEqual(error.args, ["diff", "x"]);
    assert.match(error.stderr, /fatal: bad thing/);
    assert.match(error.message, /"git diff x" failed with exit code 128: fatal: bad thing/);
    return true;
  });
});

Deno.test("git() accepts okCodes and gitText() strips the final newline", async () => {
  const runner = () => Promise.resolve(fakeResult(1, "text\n"));
  assert.deepEqual(await git(runner, "/r", ["diff"], { okCodes: [1] }), enc.encode("text\n"));
  await assert.rejects(gitText(runner, "/r", ["diff"]), GitError);
  assert.equal(await gitText(() => Promise.resolve(fakeResult(0, "a\nb\n")), "/r", []), "a\nb");
});

Deno.test("runGit() keeps git's graft-file hint out of stderr (error messages quote it)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a" };
    const committer = { ...env, GIT_COMMITTER_EMAIL: "a@b" };
    await runGit(runProcess, dir, ["init", "-q"]);
    await runGit(runProcess, dir, ["commit", "-q", "--allow-empty", "-m", "i"], { env: committer });
    const result = await runGit(runProcess, dir, ["log", "-1", "--format=%s"]);
    assert.equal(result.code, 0);
    assert.equal(new TextDecoder().decode(result.stderr), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runGit() turns a missing directory into GitError", async () => {
  await assert.rejects(runGit(runProcess, "/definitely/not/here", ["status"]), GitError);
});

Deno.test("runGit() runs git in our process group and runs a call stopped by a signal to that group once more", async (t) => {
  const interrupted = (extra: Partial<ExecResult> = {}): ExecResult => ({
    ...fakeResult(130),
    signal: "SIGINT",
    ...extra,
  });
  const cases: [string, ExecResult, boolean, number][] = [
    ["SIGINT, not aborted: run again", interrupted(), false, 2],
    ["SIGTERM: run again", interrupted({ signal: "SIGTERM", code: 143 }), false, 2],
    ["SIGHUP: run again", interrupted({ signal: "SIGHUP", code: 129 }), false, 2],
    ["read as aborted: not again", interrupted({ aborted: true }), false, 1],
    ["timed out: not again", interrupted({ timedOut: true }), false, 1],
    ["SIGKILL: not again", interrupted({ signal: "SIGKILL", code: 137 }), false, 1],
    ["exit 129 (usage), no signal: not again", fakeResult(129), false, 1],
    ["streamed output already handed over: not again", interrupted(), true, 1],
  ];
  for (const [name, first, streams, calls] of cases) {
    await t.step(name, async () => {
      const seen: ExecRequest[] = [];
      const runner = (request: ExecRequest) => {
        seen.push(request);
        if (seen.length > 1) return Promise.resolve(fakeResult(0, "second\n"));
        if (streams) request.onStdout?.(enc.encode("part"));
        return Promise.resolve(first);
      };
      const chunks: string[] = [];
      const result = await runGit(runner, "/repo", ["status"], {
        stdin: "in",
        ...(streams
          ? { onStdout: (c: Uint8Array) => chunks.push(new TextDecoder().decode(c)) }
          : {}),
      });
      assert.equal(seen.length, calls);
      assert.ok(seen.every((r) => r.processGroup === "ours"));
      assert.ok(seen.every((r) => r.stdin === "in"));
      if (calls === 2) assert.equal(new TextDecoder().decode(result.stdout), "second\n");
      else assert.equal(result, first);
      if (streams) {
        assert.deepEqual(chunks, ["part"], "nothing handed over twice");
        assert.equal(stoppedByGroupSignal(result), true, "the caller is told");
      }
    });
  }
});
