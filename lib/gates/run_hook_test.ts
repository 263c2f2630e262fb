import assert from "node:assert/strict";
import { runHook } from "./run_hook.ts";
import { prePushFailed } from "./pre_push/hook.ts";
import { turnHookFailed } from "./turn/failure.ts";
import type { CliDeps } from "../cli/deps.ts";

const ESCAPES = "\u001b]0;T\u0007\u001b[2J\u202e";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

function deps(env: Record<string, string>): CliDeps & { touched: string[] } {
  const touched: string[] = [];
  return {
    touched,
    cwd: "/",
    env,
    stdout: { isTerminal: false, write: (t) => void touched.push(`stdout ${t}`) },
    stderr: { isTerminal: false, write: (t) => void touched.push(`stderr ${t}`) },
    readStdin: () => {
      touched.push("stdin");
      return Promise.resolve(new Uint8Array());
    },
    runner: () => {
      touched.push("runner");
      return Promise.reject(new Error("no subprocess expected"));
    },
    now: () => new Date(),
    signal: new AbortController().signal,
    self: { execPath: Deno.execPath() },
  };
}

Deno.test("the hooks' failure texts neutralise control and bidi characters of the error message", () => {
  const error = new Error(`provider said ${ESCAPES}`);
  const stop = turnHookFailed("stop", error);
  const message = String(JSON.parse(stop.stdout).systemMessage);
  assert.match(message, /provider said \\u\{1b\}\]0;T\\u\{7\}\\u\{1b\}\[2J\\u\{202e\}/);
  for (
    const out of [
      stop,
      prePushFailed(error),
      turnHookFailed("prompt", error),
    ]
  ) {
    assert.doesNotMatch(out.stderr, RAW_CONTROL);
    assert.doesNotMatch(out.stdout, RAW_CONTROL);
  }
  assert.doesNotMatch(message, RAW_CONTROL);
});

Deno.test("runHook() returns 0 at once, before git, for every spelling of REVIEW_GATE off; a gate reads stdin for its skip record", async () => {
  const home = await Deno.makeTempDir();
  try {
    for (const value of ["0", "false", "OFF", " no ", "False"]) {
      for (const name of ["pre-push", "claude-stop", "claude-prompt"]) {
        const d = deps({ REVIEW_GATE: value, HOME: home });
        assert.equal(await runHook(name, ["origin", "url"], d), 0);
        const read = name === "claude-prompt" ? [] : ["stdin"];
        // a skipped push says so (a Stop's skip is said by the agent's own hook output rules)
        const said = name === "pre-push"
          ? [
            "stderr review-gate: REVIEW_GATE is off: this push was NOT reviewed; the skip is recorded (review-gate stats)\n",
          ]
          : [];
        assert.deepEqual(
          d.touched,
          [...read, ...said],
          `${name} with REVIEW_GATE=${JSON.stringify(value)}`,
        );
      }
    }
    const lines = (await Deno.readTextFile(`${home}/.local/state/review-gate/skips.jsonl`))
      .trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.gate, l.value, l.via]),
      ["0", "false", "OFF", " no ", "False"].flatMap((v) => [
        ["pre-push", v, "review-gate"],
        ["claude-stop", v, "review-gate"],
      ]),
    );
    // REVIEW_GATE_CHILD=1 can be set by hand: a gate it skips says so and is recorded
    const child = deps({ REVIEW_GATE: "0", REVIEW_GATE_CHILD: "1", HOME: home });
    assert.equal(await runHook("pre-push", ["origin", "url"], child), 0);
    assert.equal(child.touched.length, 2, String(child.touched));
    assert.match(child.touched[0], /^stderr review-gate: REVIEW_GATE_CHILD=1 is set/);
    assert.equal(child.touched[1], "stdin");
    const last = JSON.parse(
      (await Deno.readTextFile(`${home}/.local/state/review-gate/skips.jsonl`)).trim().split("\n")
        .at(-1)!,
    );
    assert.deepEqual([last.gate, last.reason, last.value], ["pre-push", "child", "1"]);
    const prompt = deps({ REVIEW_GATE_CHILD: "1", HOME: home });
    assert.equal(await runHook("claude-prompt", [], prompt), 0);
    assert.deepEqual(prompt.touched, [], "a prompt hook skips no review");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
