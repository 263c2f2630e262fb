/**
 * Our Codex gate inside a real Codex session: `main.ts install --codex` writes the user's
 * `$CODEX_HOME/hooks.json` in a throwaway home; `doctor` says Codex will not run the hooks until
 * they are trusted; the test then trusts them as the user would (the hash recomputed by
 * lib/install/codex/trust.ts, written under `[hooks.state]` — if the recipe were wrong, Codex would
 * skip the hooks and nothing below would happen) and `doctor` agrees. The pinned real `codex exec`
 * runs against the loopback Responses mock: the model writes a buggy file and ends its turn; our
 * Stop hook reviews the turn with the fake provider as reviewer and blocks; Codex hands our reason
 * to the model in the same turn, the model fixes the file, the second review approves and the turn
 * completes. Facts: lib/gates/codex/door.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hookTrustHash, hookTrustKey } from "../../lib/install/codex/trust.ts";
import {
  codexEnv,
  haveCli,
  makeRepo,
  makeSandbox,
  type Sandbox,
  warn,
  writeCodexConfig,
} from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain, runMainResult } from "./harness.ts";
import { HALF_FIXED, HALF_SCENARIO, halfBuggy, runCodexSession } from "./half_session.ts";
import {
  type CodexTurn,
  type MockOpenAI,
  startMockOpenAI,
} from "../../fixtures/mock_model/responses.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the Codex hook case)`);

const write = (text: string): CodexTurn => ({
  kind: "call",
  name: "exec_command",
  args: { cmd: `printf '%s' '${text}' > src/half.ts` },
});

/** Trust our two hooks the way Codex records it in the user's config.toml. */
async function trustOurHooks(sb: Sandbox): Promise<void> {
  const path = join(sb.codexHome, "hooks.json");
  const hooks = JSON.parse(await Deno.readTextFile(path)).hooks;
  const lines = [""];
  for (const event of ["UserPromptSubmit", "Stop"]) {
    const groups = hooks[event] as { hooks: Record<string, unknown>[] }[];
    const gi = groups.findIndex((g) => String(g.hooks[0].command).includes("managed-by"));
    const hook = groups[gi].hooks[0];
    const hash = await hookTrustHash({
      event,
      command: String(hook.command),
      timeout: hook.timeout as number | undefined,
      statusMessage: hook.statusMessage as string | undefined,
    });
    lines.push(
      `[hooks.state."${hookTrustKey(path, event, gi, 0)}"]`,
      `trusted_hash = "${hash}"`,
      "",
    );
  }
  await Deno.writeTextFile(join(sb.codexHome, "config.toml"), lines.join("\n"), { append: true });
}

for (const guard of [false, true]) {
  Deno.test({
    name:
      "codex exec with our hooks installed and trusted: the Stop gate blocks, Codex continues with our reason, the model fixes the file" +
      (guard ? " (--guard: under review-gate's permission profile, not --sandbox)" : ""),
    ignore: !haveMain || !haveCli("codex"),
    async fn() {
      const sb = await makeSandbox();
      let mock: MockOpenAI | undefined;
      try {
        const repo = await makeRepo(sb.dir);
        mock = startMockOpenAI([
          write(halfBuggy("CODEX-HOOK-BUG")),
          { kind: "message", text: "Added half() in src/half.ts." },
          write(HALF_FIXED),
          { kind: "message", text: "Fixed half() to divide by two." },
        ]);
        await writeCodexConfig(sb, mock.url);
        const scenario = join(sb.dir, "scenario.json");
        await Deno.writeTextFile(scenario, JSON.stringify(HALF_SCENARIO));
        const env = Object.fromEntries(
          Object.entries({
            ...Deno.env.toObject(),
            ...codexEnv(sb),
            DENO_DIR,
            NO_COLOR: "1",
            REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
            REVIEW_GATE_FAKE_DENO: Deno.execPath(),
            REVIEW_GATE_FAKE_SCENARIO: scenario,
            REVIEW_GATE_FAKE_LOG: join(sb.dir, "fake.jsonl"),
          }).filter(([k]) => k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD"),
        );
        const installed = await runMain(
          repo,
          ["install", "--codex", ...(guard ? ["--guard"] : [])],
          env,
        );
        assert.match(installed, /Trust all and continue/);
        const untrusted = (await runMainResult(repo, ["doctor"], env)).stdout;
        assert.match(
          untrusted,
          /FAIL codex hooks \(user\): installed in .* but Codex will NOT run it: .*not trusted yet/,
        );
        await trustOurHooks(sb);
        const trusted = (await runMainResult(repo, ["doctor"], env)).stdout;
        assert.match(trusted, /ok {3}codex hooks \(user\): installed and trusted/);

        const run = await runCodexSession(repo, env, 150_000, guard ? null : undefined);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /"type":"turn.completed"/);
        assert.equal(mock.pending(), 0, "the model's scripted turns were not all used");
        const turns = mock.turns();
        assert.equal(turns.length, 4);
        // After the first Stop, Codex sent our reason back as the user's hook prompt, same turn.
        const afterBlock = JSON.stringify(turns[2].body?.input ?? []);
        assert.match(afterBlock, /hook_prompt/);
        assert.match(afterBlock, /review-gate found 1 blocking finding/);
        assert.match(
          afterBlock,
          /\[high\] src\/half\.ts:2 half\(\) multiplies instead of dividing/,
        );
        assert.doesNotMatch(JSON.stringify(turns[1].body?.input ?? []), /review-gate found/);
        assert.equal(await Deno.readTextFile(join(repo, "src", "half.ts")), HALF_FIXED);

        const runs = join(repo, ".git", "review-gate", "runs");
        const statuses: string[] = [];
        for await (const entry of Deno.readDir(runs)) {
          statuses.push(
            JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json"))).status,
          );
        }
        assert.deepEqual(statuses.sort(), ["approved", "needs-attention"]);
        const calls = (await Deno.readTextFile(join(sb.dir, "fake.jsonl"))).trim().split("\n");
        assert.equal(calls.length, 2, "one review per stop, none from a nested hook");
        for (const call of calls) assert.equal(JSON.parse(call).env.REVIEW_GATE_CHILD, "1");
      } finally {
        await mock?.close();
        await sb.cleanup();
      }
    },
  });
}
