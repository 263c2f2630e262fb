/**
 * Codex gated by Codex, with the hooks in the repository: `main.ts install --codex --scope project`
 * appends our groups to a `.codex/hooks.json` the team already has (a hook of theirs stays first,
 * so its positional trust key does not move); `doctor` says Codex will not run ours until the
 * repository and the hooks are trusted; the test then trusts them through Codex's own
 * `codex app-server` (test/contract/codex_app_server.ts: the calls the TUI makes), checks that
 * Codex's hashes are the ones `doctor` recomputes, and `doctor` agrees. The pinned real `codex exec`
 * then runs a session against the loopback Responses mock, and **the reviewer is the real Codex
 * too** (`provider` codex): the model writes a bug and ends its turn, our Stop hook starts a Codex
 * review child that answers with a blocking finding, Codex hands our reason back to the model in the
 * same turn, the model fixes the file, the second review approves and the turn completes.
 *
 * Probe hooks (the team's repository hook and the user's own hooks, all trusted) log every run with
 * the review child's marker: they must have run exactly for the session's prompt and its two stops —
 * proof that `codex exec` runs trusted hooks, and that neither review child (a `codex exec` too,
 * started inside our Stop hook) ran any hook at all. Facts: lib/gates/codex/door.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hookTrustHash } from "../../lib/install/codex/trust.ts";
import { trustLikeCodex } from "./codex_app_server.ts";
import {
  codexEnv,
  findCli,
  git,
  haveCli,
  makeRepo,
  makeSandbox,
  warn,
  writeCodexConfig,
} from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain, runMainResult } from "./harness.ts";
import { HALF_FINDING, HALF_FIXED, halfBuggy, runCodexSession } from "./half_session.ts";
import {
  type CodexTurn,
  type MockOpenAI,
  startMockOpenAI,
} from "../../fixtures/mock_model/responses.ts";

const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the Codex project-hook case)`);

const APPROVE = { verdict: "approve", summary: "half() halves.", findings: [], next_steps: [] };

const write = (text: string): CodexTurn => ({
  kind: "call",
  name: "exec_command",
  args: { cmd: `printf '%s' '${text}' > src/half.ts` },
});
const answer = (value: unknown): CodexTurn => ({ kind: "message", text: JSON.stringify(value) });

/** A hook command that logs `<label> child=<REVIEW_GATE_CHILD>` to `log`. */
const probe = (label: string, log: string) =>
  `cat > /dev/null; echo "${label} child=\${REVIEW_GATE_CHILD:-}" >> '${log}'`;

/** True for a request a review child sent (the strict answer schema), not the session's. */
function isReview(body: Record<string, unknown> | null): boolean {
  return (body?.text as { format?: { type?: string } } | undefined)?.format?.type === "json_schema";
}

Deno.test({
  name:
    "codex exec with hooks installed by --scope project and trusted through codex app-server, reviewed by Codex: block, fix, pass; no review child runs a hook",
  ignore: !haveMain || !haveCli("codex"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockOpenAI | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      const log = join(sb.dir, "probes.log");
      await Deno.mkdir(join(repo, ".codex"));
      const teamHooks = JSON.stringify(
        {
          hooks: { Stop: [{ hooks: [{ type: "command", command: probe("repo-stop", log) }] }] },
        },
        null,
        2,
      ) + "\n";
      await Deno.writeTextFile(join(repo, ".codex", "hooks.json"), teamHooks);
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "team hooks");
      mock = startMockOpenAI([]);
      await writeCodexConfig(sb, mock.url);
      await Deno.writeTextFile(
        join(sb.codexHome, "hooks.json"),
        JSON.stringify({
          hooks: {
            UserPromptSubmit: [{
              hooks: [{ type: "command", command: probe("user-prompt", log) }],
            }],
            Stop: [{ hooks: [{ type: "command", command: probe("user-stop", log) }] }],
          },
        }),
      );
      const env = Object.fromEntries(
        Object.entries({
          ...Deno.env.toObject(),
          ...codexEnv(sb),
          DENO_DIR,
          NO_COLOR: "1",
          REVIEW_GATE_PROVIDER: "codex",
          REVIEW_GATE_CODEX_BIN: findCli("codex")!,
        }).filter(([k]) => k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD"),
      );

      const installed = await runMain(repo, ["install", "--codex", "--scope", "project"], env);
      assert.match(installed, /Trust all and continue/);
      assert.match(installed, /repository must be trusted too/);
      const hooksFile = join(repo, ".codex", "hooks.json");
      const ours = JSON.parse(await Deno.readTextFile(hooksFile)).hooks;
      assert.equal(ours.Stop.length, 2, "the team's Stop group stays, ours is appended");
      assert.match(ours.Stop[0].hooks[0].command, /repo-stop/);
      const untrusted = (await runMainResult(repo, ["doctor"], env)).stdout;
      assert.match(
        untrusted,
        /FAIL codex hooks \(project\): .*Codex will NOT run it: .*not trusted/,
      );
      assert.match(untrusted, /the repository is not trusted by Codex/);

      const trust = await trustLikeCodex(findCli("codex")!, repo, env);
      const listed = trust.before.filter((h) => h.command?.includes("hook codex-"));
      assert.equal(listed.length, 2, JSON.stringify(trust.before));
      for (const hook of listed) {
        assert.equal(hook.source, "project");
        assert.equal(hook.trustStatus, "untrusted");
        const event = hook.key.includes(":stop:") ? "Stop" : "UserPromptSubmit";
        const group = ours[event].findIndex((g: { hooks: { command: string }[] }) =>
          g.hooks[0].command === hook.command
        );
        const entry = ours[event][group].hooks[0];
        assert.equal(
          hook.key,
          `${hooksFile}:${event === "Stop" ? "stop" : "user_prompt_submit"}:${group}:0`,
        );
        assert.equal(
          hook.currentHash,
          await hookTrustHash({
            event,
            command: entry.command,
            timeout: entry.timeout,
            statusMessage: entry.statusMessage,
          }),
          "doctor's hash is Codex's",
        );
      }
      assert.deepEqual([...new Set(trust.after.map((h) => h.trustStatus))], ["trusted"]);
      assert.equal(trust.after.length, 5, "user prompt + stop, team stop, our prompt + stop");
      const trusted = (await runMainResult(repo, ["doctor"], env)).stdout;
      assert.match(trusted, /ok {3}codex hooks \(project\): installed and trusted/);

      mock.push(
        write(halfBuggy("CODEX-HOOK-BUG")),
        { kind: "message", text: "Added half() in src/half.ts." },
        answer(HALF_FINDING), // the first review child
        write(HALF_FIXED),
        { kind: "message", text: "Fixed half() to divide by two." },
        answer(APPROVE), // the second review child
      );
      const run = await runCodexSession(repo, env, 180_000);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /"type":"turn.completed"/);
      assert.equal(mock.pending(), 0, "the scripted turns were not all used");
      const turns = mock.turns();
      assert.deepEqual(turns.map((t) => isReview(t.body)), [
        false,
        false,
        true,
        false,
        false,
        true,
      ]);
      assert.match(
        JSON.stringify(turns[2].body?.input),
        /CODEX-HOOK-BUG/,
        "the child saw the edit",
      );
      const afterBlock = JSON.stringify(turns[3].body?.input ?? []);
      assert.match(afterBlock, /hook_prompt/);
      assert.match(afterBlock, /review-gate found 1 blocking finding/);
      assert.match(afterBlock, /\[high\] src\/half\.ts:2 half\(\) multiplies instead of dividing/);
      assert.equal(await Deno.readTextFile(join(repo, "src", "half.ts")), HALF_FIXED);

      const runs = join(repo, ".git", "review-gate", "runs");
      const statuses: string[] = [];
      for await (const entry of Deno.readDir(runs)) {
        const record = JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json")));
        assert.equal(record.provider, "codex");
        statuses.push(record.status);
      }
      assert.deepEqual(statuses.sort(), ["approved", "needs-attention"]);
      const ran = (await Deno.readTextFile(log)).trim().split("\n").sort();
      assert.deepEqual(ran, [
        "repo-stop child=",
        "repo-stop child=",
        "user-prompt child=",
        "user-stop child=",
        "user-stop child=",
      ], "hooks ran for the session only, never in a review child");
    } finally {
      await mock?.close();
      await sb.cleanup();
    }
  },
});
