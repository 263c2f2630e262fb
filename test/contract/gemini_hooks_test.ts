/**
 * Our Gemini CLI gate inside a real Gemini CLI session: `main.ts install --gemini` writes our
 * hooks after the user's own in `~/.gemini/settings.json` of a throwaway home whose
 * `trustedFolders.json` trusts the repository (Gemini CLI runs no hook in an untrusted folder);
 * `doctor` says Gemini CLI will run them. The pinned real `gemini -p` (headless) runs against the
 * loopback Gemini API mock: the model writes a buggy file and ends its turn; our AfterAgent hook
 * reviews the turn with the fake provider as reviewer and blocks; Gemini CLI hands our reason to
 * the model as its next message, the model fixes the file, the second review approves and the run
 * ends. A second prompt that edits nothing makes no model call of ours. `uninstall --gemini` gives
 * the user's settings back byte for byte. Then Gemini CLI reviewed by Gemini CLI: probe hooks in
 * the user's and the project's settings run for the session only, never in the review child.
 * Facts: lib/gates/gemini/door.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findCli, geminiEnv, git, haveCli, makeRepo, makeSandbox, warn } from "./env.ts";
import { APPROVE, DENO_DIR, exists, MAIN, runMain, runMainResult } from "./harness.ts";
import {
  HALF_FINDING,
  HALF_FIXED,
  HALF_SCENARIO,
  halfBuggy,
  runGeminiSession,
} from "./half_session.ts";
import {
  contentsText,
  declaredTools,
  type GeminiTurn,
  jsonAnswer,
  type MockGemini,
  startMockGemini,
} from "../../fixtures/mock_model/gemini.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the Gemini CLI hook case)`);

const write = (repo: string, content: string): GeminiTurn => ({
  kind: "calls",
  calls: [{ name: "write_file", args: { file_path: join(repo, "src", "half.ts"), content } }],
});

/** The user's own settings before install: API-key auth, a hook of theirs, comments, formatting. */
const USER_SETTINGS = `{
  // the user's own settings
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "general": { "enableAutoUpdate": false },
  "hooks": {
    "AfterAgent": [
      { "hooks": [{ "type": "command", "command": "true", "name": "users-own-after-agent" }] }
    ]
  }
}
`;

/** Trust `repo` as the user would when the TUI asks (Gemini CLI's folder trust is on by default). */
async function trustRepo(home: string, repo: string): Promise<void> {
  await Deno.mkdir(join(home, ".gemini"), { recursive: true });
  await Deno.writeTextFile(
    join(home, ".gemini", "trustedFolders.json"),
    JSON.stringify({ [await Deno.realPath(repo)]: "TRUST_FOLDER" }, null, 2),
  );
}

/** The environment of a session: the mock's, without the developer's review-gate switches. */
function sessionEnv(
  sb: { home: string; dir: string },
  url: string,
  extra: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries({
      ...Deno.env.toObject(),
      ...geminiEnv(sb as never, url),
      DENO_DIR,
      NO_COLOR: "1",
      ...extra,
    }).filter(([k]) =>
      k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD" && k !== "GEMINI_CLI_HOME" &&
      k !== "GEMINI_CLI_TRUST_WORKSPACE"
    ),
  );
}

Deno.test({
  name:
    "gemini -p with our hooks installed: AfterAgent blocks, Gemini CLI continues with our reason, the model fixes the file; uninstall restores the user's settings",
  ignore: !haveMain || !haveCli("gemini"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockGemini | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const settingsPath = join(sb.home, ".gemini", "settings.json");
      await trustRepo(sb.home, repo);
      await Deno.writeTextFile(settingsPath, USER_SETTINGS);
      mock = startMockGemini([
        write(repo, halfBuggy("GEMINI-HOOK-BUG")),
        { kind: "message", text: "Added half() in src/half.ts." },
        write(repo, HALF_FIXED),
        { kind: "message", text: "Fixed half() to divide by two." },
        { kind: "message", text: "half() divides by two." },
      ]);
      const scenario = join(sb.dir, "scenario.json");
      await Deno.writeTextFile(scenario, JSON.stringify(HALF_SCENARIO));
      const env = sessionEnv(sb, mock.url, {
        REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
        REVIEW_GATE_FAKE_DENO: Deno.execPath(),
        REVIEW_GATE_FAKE_SCENARIO: scenario,
        REVIEW_GATE_FAKE_LOG: join(sb.dir, "fake.jsonl"),
      });
      const installed = await runMain(repo, ["install", "--gemini"], env);
      assert.match(installed, /runs these hooks from its next start, headless "gemini -p"/);
      const doctor = (await runMainResult(repo, ["doctor"], env)).stdout;
      assert.match(
        doctor,
        /ok {3}gemini hooks \(user\): installed in .*settings\.json.*"gemini -p"/,
      );
      const { parse } = await import("jsonc-parser");
      const settings = parse(await Deno.readTextFile(settingsPath));
      assert.equal(settings.hooks.AfterAgent[0].hooks[0].name, "users-own-after-agent");
      assert.equal(settings.hooks.AfterAgent[1].hooks[0].timeout, 300_000, "milliseconds");

      const started = performance.now();
      const run = await runGeminiSession(repo, env, 50_000);
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      warn(`contract: gemini session with two reviews took ${seconds} s`);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(mock.pending(), 1, "the model's scripted turns were used up to the last");
      const turns = mock.turns();
      assert.equal(turns.length, 4);
      // After the first AfterAgent, Gemini CLI sent our reason back as the next user message.
      const afterBlock = contentsText(turns[2].body);
      assert.match(afterBlock, /review-gate found 1 blocking finding/);
      assert.match(afterBlock, /\[high\] src\/half\.ts:2 half\(\) multiplies instead of dividing/);
      assert.doesNotMatch(contentsText(turns[1].body), /review-gate found/);
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

      // a prompt that edits nothing: the AfterAgent hook runs, makes no model call of ours
      const idle = await runGeminiSession(repo, env, 30_000, "What does half() do?");
      assert.equal(idle.code, 0, idle.stderr);
      assert.equal(mock.pending(), 0);
      assert.equal((await Deno.readTextFile(log)).trim().split("\n").length, 2);

      await runMain(repo, ["uninstall", "--gemini"], env);
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

/** True for a request a review child sent (it declares the read tools only, never write_file). */
function isReview(body: Record<string, unknown> | null): boolean {
  return !declaredTools(body).includes("write_file");
}

Deno.test({
  name:
    "gemini gated by gemini: probe hooks in the user's and the project's settings run for the session only, never in a review child",
  ignore: !haveMain || !haveCli("gemini"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockGemini | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const probes = join(sb.dir, "probes.log");
      const probeHooks = (scope: string) => ({
        hooks: Object.fromEntries(
          ["BeforeAgent", "AfterAgent"].map((event) => [event, [{
            hooks: [{ type: "command", command: probe(`${scope}:${event}`, probes) }],
          }]]),
        ),
      });
      await trustRepo(sb.home, repo);
      await Deno.writeTextFile(
        join(sb.home, ".gemini", "settings.json"),
        JSON.stringify(
          { security: { auth: { selectedType: "gemini-api-key" } }, ...probeHooks("user") },
          null,
          2,
        ) + "\n",
      );
      await Deno.mkdir(join(repo, ".gemini"));
      await Deno.writeTextFile(
        join(repo, ".gemini", "settings.json"),
        JSON.stringify({ hooksConfig: { enabled: true }, ...probeHooks("project") }, null, 2) +
          "\n",
      );
      await Deno.writeTextFile(join(repo, ".review-gate.json"), '{"provider": "gemini"}\n');
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "team hooks, gemini reviews");
      mock = startMockGemini([
        write(repo, halfBuggy("GEMINI-SELF-BUG")),
        { kind: "message", text: "Added half()." },
        jsonAnswer(HALF_FINDING),
        write(repo, HALF_FIXED),
        { kind: "message", text: "Fixed half()." },
        jsonAnswer(APPROVE),
      ]);
      const env = sessionEnv(sb, mock.url, { REVIEW_GATE_GEMINI_BIN: findCli("gemini")! });
      await runMain(repo, ["install", "--gemini"], env);
      const run = await runGeminiSession(repo, env, 60_000);
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
      assert.match(contentsText(turns[3].body), /review-gate found 1 blocking finding/);
      assert.equal(await Deno.readTextFile(join(repo, "src", "half.ts")), HALF_FIXED);
      const lines = (await Deno.readTextFile(probes)).trim().split("\n").sort();
      const session = lines[0].split(" ")[1];
      assert.ok(session, lines.join("\n"));
      // per scope: the user's prompt and the block's reason handed back, and two ends of turn
      const counts = (label: string) => lines.filter((l) => l.startsWith(`${label} `)).length;
      for (const scope of ["user", "project"]) {
        assert.equal(counts(`${scope}:AfterAgent`), 2, lines.join("\n"));
        assert.equal(counts(`${scope}:BeforeAgent`), 2, lines.join("\n"));
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
