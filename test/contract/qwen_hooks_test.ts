/**
 * Our Qwen Code gate inside a real Qwen Code session: `main.ts install --qwen` writes our hooks
 * after the user's own in `~/.qwen/settings.json` of a throwaway home; `doctor` says Qwen Code will
 * run them. The pinned real `qwen -p` (headless) runs against the loopback Chat Completions mock:
 * the model writes a buggy file and ends its turn; our Stop hook reviews the turn with the fake
 * provider as reviewer and blocks; Qwen Code hands our reason to the model as its next message,
 * the model fixes the file, the second review approves and the run ends. A second prompt that
 * edits nothing makes no model call of ours. `uninstall --qwen` gives the user's settings back byte
 * for byte. Facts: lib/gates/qwen/door.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findCli, git, haveCli, makeRepo, makeSandbox, qwenEnv, warn } from "./env.ts";
import { APPROVE, DENO_DIR, exists, MAIN, runMain, runMainResult } from "./harness.ts";
import {
  HALF_FINDING,
  HALF_FIXED,
  HALF_SCENARIO,
  halfBuggy,
  runQwenSession,
} from "./half_session.ts";
import {
  type ChatTurn,
  type MockChat,
  startMockChat,
  structuredOutput,
} from "../../fixtures/mock_model/chat.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the Qwen Code hook case)`);

const write = (repo: string, content: string): ChatTurn => ({
  kind: "calls",
  calls: [{ name: "write_file", args: { file_path: join(repo, "src", "half.ts"), content } }],
});

/** The user's own settings before install: a hook of theirs, comments, their formatting. */
const USER_SETTINGS = `{
  // the user's own settings
  "$version": 4,
  "general": { "disableAutoUpdate": true },
  "hooks": {
    "Stop": [
      { "hooks": [{ "type": "command", "command": "true", "name": "users-own-stop" }] }
    ]
  }
}
`;

/** The texts of every message of a request, joined. */
function requestText(body: Record<string, unknown> | null): string {
  return JSON.stringify(body?.messages ?? []);
}

Deno.test({
  name:
    "qwen -p with our hooks installed: the Stop gate blocks, Qwen Code continues with our reason, the model fixes the file; uninstall restores the user's settings",
  ignore: !haveMain || !haveCli("qwen"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockChat | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const settingsPath = join(sb.home, ".qwen", "settings.json");
      await Deno.mkdir(join(sb.home, ".qwen"), { recursive: true });
      await Deno.writeTextFile(settingsPath, USER_SETTINGS);
      mock = startMockChat([
        write(repo, halfBuggy("QWEN-HOOK-BUG")),
        { kind: "message", text: "Added half() in src/half.ts." },
        write(repo, HALF_FIXED),
        { kind: "message", text: "Fixed half() to divide by two." },
        { kind: "message", text: "half() divides by two." },
      ]);
      const scenario = join(sb.dir, "scenario.json");
      await Deno.writeTextFile(scenario, JSON.stringify(HALF_SCENARIO));
      const env = Object.fromEntries(
        Object.entries({
          ...Deno.env.toObject(),
          ...qwenEnv(sb, mock.url),
          DENO_DIR,
          NO_COLOR: "1",
          REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
          REVIEW_GATE_FAKE_DENO: Deno.execPath(),
          REVIEW_GATE_FAKE_SCENARIO: scenario,
          REVIEW_GATE_FAKE_LOG: join(sb.dir, "fake.jsonl"),
        }).filter(([k]) => k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD" && k !== "QWEN_HOME"),
      );
      const installed = await runMain(repo, ["install", "--qwen"], env);
      assert.match(installed, /Qwen Code runs these hooks from its next start/);
      const doctor = (await runMainResult(repo, ["doctor"], env)).stdout;
      assert.match(doctor, /ok {3}qwen hooks \(user\): installed in .*settings\.json.*"qwen -p"/);
      const settings = JSON.parse(
        (await Deno.readTextFile(settingsPath)).replace(/^\s*\/\/.*$/m, ""),
      );
      assert.equal(settings.hooks.Stop[0].hooks[0].name, "users-own-stop", "ours go after theirs");
      assert.equal(settings.hooks.Stop[1].hooks[0].timeout, 300_000, "milliseconds");

      const started = performance.now();
      const run = await runQwenSession(repo, env, 150_000);
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      warn(`contract: qwen session with two reviews took ${seconds} s`);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(mock.pending(), 1, "the model's scripted turns were used up to the last");
      const turns = mock.turns();
      assert.equal(turns.length, 4);
      // After the first Stop, Qwen Code sent our reason back as the user's next message.
      const afterBlock = requestText(turns[2].body);
      assert.match(afterBlock, /review-gate found 1 blocking finding/);
      assert.match(afterBlock, /\[high\] src\/half\.ts:2 half\(\) multiplies instead of dividing/);
      assert.doesNotMatch(requestText(turns[1].body), /review-gate found/);
      assert.equal(await Deno.readTextFile(join(repo, "src", "half.ts")), HALF_FIXED);

      const runs = join(repo, ".git", "review-gate", "runs");
      const statuses: string[] = [];
      for await (const entry of Deno.readDir(runs)) {
        statuses.push(
          JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json"))).status,
        );
      }
      assert.deepEqual(statuses.sort(), ["approved", "needs-attention"]);
      const log = join(sb.dir, "fake.jsonl");
      const calls = (await Deno.readTextFile(log)).trim().split("\n");
      assert.equal(calls.length, 2, "one review per stop, none from a nested hook");
      for (const call of calls) assert.equal(JSON.parse(call).env.REVIEW_GATE_CHILD, "1");

      // a prompt that edits nothing: the Stop hook runs, makes no model call of ours
      const idle = await runQwenSession(repo, env, 60_000, "What does half() do?");
      assert.equal(idle.code, 0, idle.stderr);
      assert.equal(mock.pending(), 0);
      assert.equal((await Deno.readTextFile(log)).trim().split("\n").length, 2);

      await runMain(repo, ["uninstall", "--qwen"], env);
      assert.equal(await Deno.readTextFile(settingsPath), USER_SETTINGS, "byte for byte");
      assert.equal(await exists(settingsPath + ".review-gate.bak"), false);
    } finally {
      await mock?.close();
      await sb.cleanup();
    }
  },
});

/** A hook command that logs `<label> <session id> child=<REVIEW_GATE_CHILD>` to `log`. */
const probe = (label: string, log: string) =>
  `s=$(cat | sed -n 's/.*"session_id":"\\([^"]*\\)".*/\\1/p'); echo "${label} $s child=\${REVIEW_GATE_CHILD:-}" >> '${log}'`;

/** True for a request a review child sent (it offers the synthetic structured_output tool). */
function isReview(body: Record<string, unknown> | null): boolean {
  return JSON.stringify(body?.tools ?? []).includes('"structured_output"');
}

Deno.test({
  name:
    "qwen gated by qwen: probe hooks in the user's and the project's settings run for the session only, never in a review child",
  ignore: !haveMain || !haveCli("qwen"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockChat | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const probes = join(sb.dir, "probes.log");
      const probeHooks = (scope: string) => ({
        hooks: Object.fromEntries(
          ["UserPromptSubmit", "Stop"].map((event) => [event, [{
            hooks: [{ type: "command", command: probe(`${scope}:${event}`, probes) }],
          }]]),
        ),
      });
      await Deno.mkdir(join(sb.home, ".qwen"), { recursive: true });
      await Deno.writeTextFile(
        join(sb.home, ".qwen", "settings.json"),
        JSON.stringify({ $version: 4, ...probeHooks("user") }, null, 2) + "\n",
      );
      await Deno.mkdir(join(repo, ".qwen"));
      await Deno.writeTextFile(
        join(repo, ".qwen", "settings.json"),
        JSON.stringify({ $version: 4, ...probeHooks("project") }, null, 2) + "\n",
      );
      await Deno.writeTextFile(join(repo, ".review-gate.json"), '{"provider": "qwen"}\n');
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "team hooks, qwen reviews");
      mock = startMockChat([
        write(repo, halfBuggy("QWEN-SELF-BUG")),
        { kind: "message", text: "Added half()." },
        structuredOutput(HALF_FINDING),
        write(repo, HALF_FIXED),
        { kind: "message", text: "Fixed half()." },
        structuredOutput(APPROVE),
      ]);
      const env = Object.fromEntries(
        Object.entries({
          ...Deno.env.toObject(),
          ...qwenEnv(sb, mock.url),
          DENO_DIR,
          NO_COLOR: "1",
          REVIEW_GATE_QWEN_BIN: findCli("qwen")!,
        }).filter(([k]) => k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD" && k !== "QWEN_HOME"),
      );
      await runMain(repo, ["install", "--qwen"], env);
      const run = await runQwenSession(repo, env, 240_000);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(mock.pending(), 0, "every scripted turn was used");
      const turns = mock.turns();
      assert.deepEqual(turns.map((t) => isReview(t.body)), [
        false,
        false,
        true,
        false,
        false,
        true,
      ]);
      assert.match(requestText(turns[3].body), /review-gate found 1 blocking finding/);
      assert.equal(await Deno.readTextFile(join(repo, "src", "half.ts")), HALF_FIXED);
      const lines = (await Deno.readTextFile(probes)).trim().split("\n").sort();
      const session = lines[0].split(" ")[1];
      assert.ok(session, lines.join("\n"));
      // the user's prompt and the requests after the tool calls and the block; two stops: per scope
      const counts = (label: string) => lines.filter((l) => l.startsWith(`${label} `)).length;
      for (const scope of ["user", "project"]) {
        assert.equal(counts(`${scope}:Stop`), 2, lines.join("\n"));
        assert.ok(counts(`${scope}:UserPromptSubmit`) >= 2, lines.join("\n"));
      }
      for (const line of lines) {
        assert.equal(line.split(" ").slice(1).join(" "), `${session} child=`);
      }
    } finally {
      await mock?.close();
      await sb.cleanup();
    }
  },
});
