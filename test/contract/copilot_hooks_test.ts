/**
 * Our gate inside a real GitHub Copilot CLI session: `main.ts install --copilot` writes
 * `$COPILOT_HOME/hooks/review-gate.json` in a throwaway home and `doctor` says Copilot will run it;
 * the pinned real `copilot -p` runs in BYOK offline mode against the loopback Chat Completions
 * mock: the model writes a buggy file and ends its turn; our Stop hook reviews the turn with the
 * fake provider as reviewer and blocks; Copilot hands our reason to the model as a new user
 * message (and fires the prompt hook on it, which must not start a new turn), the model fixes the
 * file, the second review approves and the session ends; a second prompt that edits nothing makes
 * no review. Uninstall leaves the user's own hooks file byte for byte. Then Copilot reviewed by
 * Copilot: probe hooks in the user's and the (trusted) repository's hooks folders fire for a
 * `copilot -p` session, and never while `review --provider copilot` runs its review child.
 * Facts: lib/gates/copilot/door.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copilotEnv, findCli, git, haveCli, makeRepo, makeSandbox, warn } from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain, runMainResult } from "./harness.ts";
import { HALF_FINDING, HALF_FIXED, HALF_SCENARIO, halfBuggy } from "./half_session.ts";
import { type ChatTurn, type MockChat, startMockChat } from "../../fixtures/mock_model/chat.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the Copilot hook case)`);

/** One headless `copilot -p` session in `repo` (tools allowed, nothing else loaded). */
async function runCopilot(
  repo: string,
  env: Record<string, string>,
  prompt = "Add a half() helper in src/half.ts.",
): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(findCli("copilot")!, {
    args: [
      "-p",
      prompt,
      "--output-format",
      "json",
      "--allow-all-tools",
      "--no-auto-update",
      "--disable-builtin-mcps",
    ],
    cwd: repo,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test({
  name:
    "copilot -p with our hooks installed: the Stop gate blocks, Copilot continues with our reason, the model fixes the file; uninstall restores the user's files",
  ignore: !haveMain || !haveCli("copilot"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockChat | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const half = join(repo, "src", "half.ts");
      mock = startMockChat([
        {
          kind: "calls",
          calls: [{
            name: "create",
            args: { path: half, file_text: halfBuggy("COPILOT-HOOK-BUG") },
          }],
        },
        { kind: "message", text: "Added half() in src/half.ts." },
        {
          kind: "calls",
          calls: [{
            name: "edit",
            args: { path: half, old_str: "n * 2; // COPILOT-HOOK-BUG", new_str: "n / 2;" },
          }],
        },
        { kind: "message", text: "Fixed half() to divide by two." },
      ]);
      const copilotHome = join(sb.dir, "copilot-home");
      await Deno.mkdir(join(copilotHome, "hooks"), { recursive: true });
      // the user's own hooks file and settings: uninstall must leave them byte for byte
      const mine =
        '{ "version": 1, "hooks": { "sessionStart": [ { "type": "command", "bash": "true" } ] } }\n';
      await Deno.writeTextFile(join(copilotHome, "hooks", "mine.json"), mine);
      const scenario = join(sb.dir, "scenario.json");
      await Deno.writeTextFile(scenario, JSON.stringify(HALF_SCENARIO));
      const env = Object.fromEntries(
        Object.entries({
          ...Deno.env.toObject(),
          ...copilotEnv(sb, mock.url),
          COPILOT_HOME: copilotHome,
          DENO_DIR,
          NO_COLOR: "1",
          REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
          REVIEW_GATE_FAKE_DENO: Deno.execPath(),
          REVIEW_GATE_FAKE_SCENARIO: scenario,
          REVIEW_GATE_FAKE_LOG: join(sb.dir, "fake.jsonl"),
        }).filter(([k]) => k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD"),
      );
      await runMain(repo, ["install", "--copilot"], env);
      const doctor = (await runMainResult(repo, ["doctor"], env)).stdout;
      assert.match(
        doctor,
        /ok {3}copilot hooks \(user\): installed; Copilot runs the user's hooks/,
      );

      const started = performance.now();
      const out = await runCopilot(repo, env);
      warn(`contract: copilot session took ${Math.round(performance.now() - started)} ms`);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(mock.pending(), 0, "the model's scripted turns were not all used");
      const turns = mock.turns();
      assert.equal(turns.length, 4);
      const afterBlock = JSON.stringify(turns[2].body?.messages ?? []);
      assert.match(afterBlock, /review-gate found 1 blocking finding/);
      assert.match(afterBlock, /\[high\] src\/half\.ts:2 half\(\) multiplies instead of dividing/);
      assert.doesNotMatch(JSON.stringify(turns[1].body?.messages ?? []), /review-gate found/);
      assert.equal(await Deno.readTextFile(half), HALF_FIXED);

      const runs = join(repo, ".git", "review-gate", "runs");
      const statuses: string[] = [];
      for await (const entry of Deno.readDir(runs)) {
        statuses.push(
          JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json"))).status,
        );
      }
      assert.deepEqual(statuses.sort(), ["approved", "needs-attention"]);
      const calls = (await Deno.readTextFile(join(sb.dir, "fake.jsonl"))).trim().split("\n");
      assert.equal(calls.length, 2, "one review per stop, none for the handed-back reason");
      for (const call of calls) assert.equal(JSON.parse(call).env.REVIEW_GATE_CHILD, "1");

      // a prompt that edits nothing: the Stop hook runs, makes no model call of ours
      mock.push({ kind: "message", text: "half() divides by two." });
      const idle = await runCopilot(repo, env, "What does half() do?");
      assert.equal(idle.code, 0, idle.stderr);
      assert.equal(mock.pending(), 0);
      assert.equal(mock.turns().length, 5, "the session's one model call, no review");
      assert.equal(
        (await Deno.readTextFile(join(sb.dir, "fake.jsonl"))).trim().split("\n").length,
        2,
      );

      await runMain(repo, ["uninstall", "--copilot"], env);
      assert.equal(await exists(join(copilotHome, "hooks", "review-gate.json")), false);
      assert.equal(await Deno.readTextFile(join(copilotHome, "hooks", "mine.json")), mine);
    } finally {
      await mock?.close();
      await sb.cleanup();
    }
  },
});

/** A hook command that logs `<label> <session id> child=<REVIEW_GATE_CHILD>` to `log`. */
const probe = (label: string, log: string) =>
  `s=$(cat | tr -d '\\n' | sed -n 's/.*"session_id": *"\\([^"]*\\)".*/\\1/p'); echo "${label} $s child=\${REVIEW_GATE_CHILD:-}" >> '${log}'`;

/** A Copilot hooks file running {@linkcode probe} on the prompt and the stop. */
const probeHooks = (scope: string, log: string) =>
  JSON.stringify({
    version: 1,
    hooks: Object.fromEntries(
      ["UserPromptSubmit", "Stop"].map((event) => [event, [{
        hooks: [{ type: "command", command: probe(`${scope}:${event}`, log) }],
      }]]),
    ),
  }) + "\n";

/** The reviewer's answer as Copilot's model writes it: the JSON as the message text. */
const answer = (value: unknown): ChatTurn => ({ kind: "message", text: JSON.stringify(value) });

Deno.test({
  name:
    "copilot reviewed by copilot: probe hooks in the user's and the trusted repository's hooks folders run for a copilot session, never in review --provider copilot",
  ignore: !haveMain || !haveCli("copilot"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockChat | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const probes = join(sb.dir, "probes.log");
      const copilotHome = join(sb.dir, "copilot-home");
      await Deno.mkdir(join(copilotHome, "hooks"), { recursive: true });
      await Deno.writeTextFile(
        join(copilotHome, "hooks", "probe.json"),
        probeHooks("user", probes),
      );
      // the repository is trusted twice over: in config.json and by COPILOT_ALLOW_ALL=true
      await Deno.writeTextFile(
        join(copilotHome, "config.json"),
        JSON.stringify({ trustedFolders: [await Deno.realPath(repo)] }),
      );
      await Deno.mkdir(join(repo, ".github", "hooks"), { recursive: true });
      await Deno.writeTextFile(
        join(repo, ".github", "hooks", "probe.json"),
        probeHooks("project", probes),
      );
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "team hooks");
      await Deno.writeTextFile(join(repo, "src", "half.ts"), halfBuggy("COPILOT-SELF-BUG"));
      mock = startMockChat([{ kind: "message", text: "Hello." }, answer(HALF_FINDING)]);
      const env = Object.fromEntries(
        Object.entries({
          ...Deno.env.toObject(),
          ...copilotEnv(sb, mock.url),
          COPILOT_HOME: copilotHome,
          COPILOT_ALLOW_ALL: "true",
          DENO_DIR,
          NO_COLOR: "1",
          REVIEW_GATE_COPILOT_BIN: findCli("copilot")!,
        }).filter(([k]) => k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD"),
      );
      // the probes are live: a copilot session in the repository runs both scopes' hooks
      const session = await runCopilot(repo, env, "Say hello.");
      assert.equal(session.code, 0, session.stderr);
      const seen = (await Deno.readTextFile(probes)).trim().split("\n");
      assert.deepEqual(seen.map((l) => l.split(" ")[0]).sort(), [
        "project:Stop",
        "project:UserPromptSubmit",
        "user:Stop",
        "user:UserPromptSubmit",
      ]);
      await Deno.writeTextFile(probes, "");

      const started = performance.now();
      const review = await runMainResult(
        repo,
        ["review", "--provider", "copilot", "--json", "--no-cache"],
        env,
      );
      warn(
        `contract: review --provider copilot took ${Math.round(performance.now() - started)} ms`,
      );
      assert.equal(mock.pending(), 0, review.stderr);
      const json = JSON.parse(review.stdout);
      assert.equal(json.status, "needs-attention", review.stdout);
      assert.equal(await Deno.readTextFile(probes), "", "no hook ran in the review child");
    } finally {
      await mock?.close();
      await sb.cleanup();
    }
  },
});
