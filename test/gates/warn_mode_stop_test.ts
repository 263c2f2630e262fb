/**
 * End to end: warn first, block later (README "Warn first") on the turn gates. Payloads piped into
 * `main.ts hook claude-prompt` / `claude-stop` (and Codex's) as the agents send them, the fake
 * provider as reviewer. In warn mode a Stop with blocking findings gives no block decision: the
 * user is shown what it would have blocked (`systemMessage`), the ledger says `would_block`, and the
 * turn's work is answered for. Trust: warn mode loosens the gate, so the Stop takes it from the
 * config the turn started with — an agent that writes it into `.review-gate.json` or the user config
 * mid-turn is still blocked — and review-gate's own check of what controls the gate blocks in warn
 * mode too.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  codexPromptPayload,
  codexStopPayload,
  forgetTurns,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  runCli,
  runHook,
  scenario,
  stopDecision,
  stopPayload,
  writeRepoConfig,
  writeUserConfig,
} from "./_gates.ts";

/** The ledger's lines (records.jsonl), parsed. */
async function ledger(sb: GateSandbox): Promise<Record<string, unknown>[]> {
  const path = join(sb.repo.root, ".git", "review-gate", "records.jsonl");
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/**
 * Run the `gate block` command a would-block message names (its last words) as the user would,
 * then check that the next turn with a blocking finding blocks.
 */
async function flipByHint(
  sb: GateSandbox,
  message: string,
  turn: { sessionId: string; token: string; env: Record<string, string> },
): Promise<void> {
  const hint = /To have such findings block: review-gate (gate block [^\n]+)$/.exec(message);
  assert.ok(hint, message);
  const flipped = await runCli(sb, hint[1].split(" "));
  assert.equal(flipped.code, 0, flipped.stderr);
  const next = await claudeTurn(
    sb,
    turn.sessionId,
    () => addTokenLine(sb.repo.root, turn.token),
    turn.env,
  );
  assert.equal(next?.decision, "block", JSON.stringify(next));
}

/** One Claude turn: prompt, `edit`, stop; the stop's decision (`null`: allowed silently). */
async function claudeTurn(
  sb: GateSandbox,
  sessionId: string,
  edit: () => Promise<unknown>,
  env: Record<string, string>,
): Promise<Record<string, unknown> | null> {
  const session = { sessionId, cwd: sb.repo.root };
  const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
  await edit();
  const s = await runHook(sb, "claude-stop", stopPayload(session), { env });
  assert.equal(s.code, 0, s.stderr);
  return stopDecision(s.stdout);
}

Deno.test("claude Stop in warn mode: no block decision, the user is shown what would block, the ledger says would_block", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeUserConfig(sb, { gates: { claude_stop: { mode: "warn" } } });
    const env = scenario(await blockingScenario(sb));
    const decision = await claudeTurn(sb, "warn-1", () => addTokenLine(sb.repo.root, "W"), env);
    assert.equal(decision?.decision, undefined, JSON.stringify(decision));
    const message = String(decision?.systemMessage);
    assert.match(message, /^review-gate \(warn mode\): would block this turn: 1 blocking finding/);
    assert.match(message, /\[high\] src\/app\.ts:1 Exported constant breaks callers/);
    assert.match(message, /Full review: .*review\.md/);
    assert.match(message, /gates\.claude_stop\.mode is "warn" in your user config/);
    // warn mode came from the user config: the hint edits that file
    assert.match(
      message,
      /To have such findings block: review-gate gate block claude-stop --user$/,
    );
    const [line] = await ledger(sb);
    assert.deepEqual(
      [line.gate, line.mode, line.blocking, line.would_block, line.would_block_findings],
      ["claude-stop", "warn", false, true, 1],
    );
    // the work was answered for: the next turn that changes nothing passes at once
    const idle = await claudeTurn(sb, "warn-1", () => Promise.resolve(), env);
    assert.equal(idle, null);
    await flipByHint(sb, message, { sessionId: "warn-2", token: "W2", env });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("claude Stop in warn mode from the repository's .review-gate.json: the hint edits that file and flips it", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeRepoConfig(sb, { gates: { claude_stop: { mode: "warn" } } });
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "team: warn first"]);
    // the user's own config says warn too: the repository's file still decides here
    await writeUserConfig(sb, { gates: { claude_stop: { mode: "warn" } } });
    const env = scenario(await blockingScenario(sb));
    const decision = await claudeTurn(sb, "repo-warn", () => addTokenLine(sb.repo.root, "R"), env);
    assert.equal(decision?.decision, undefined, JSON.stringify(decision));
    const message = String(decision?.systemMessage);
    assert.match(message, /gates\.claude_stop\.mode is "warn" in \.review-gate\.json/);
    assert.match(message, /To have such findings block: review-gate gate block claude-stop$/);
    await gitOk(sb, ["commit", "-qam", "the turn's work"]);
    await flipByHint(sb, message, { sessionId: "repo-warn-2", token: "R2", env });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("codex Stop in warn mode gives no block decision and says what would block", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeUserConfig(sb, { gates: { codex_stop: { mode: "warn" } } });
    const env = scenario(await blockingScenario(sb));
    const session = { sessionId: "019a-warn", turnId: "t-1", cwd: sb.repo.root };
    const p = await runHook(sb, "codex-prompt", codexPromptPayload(session), { env });
    assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
    await addTokenLine(sb.repo.root, "CODEX_WARN");
    const s = await runHook(sb, "codex-stop", codexStopPayload(session), { env });
    const decision = stopDecision(s.stdout);
    assert.equal(decision?.decision, undefined, s.stdout);
    assert.match(String(decision?.systemMessage), /would block this turn: 1 blocking finding/);
    assert.match(String(decision?.systemMessage), /gates\.codex_stop\.mode is "warn"/);
    assert.match(String(decision?.systemMessage), /review-gate gate block codex-stop --user$/);
    assert.equal((await ledger(sb))[0].would_block, true);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("an agent that sets warn mode mid-turn is still blocked (repository or user config)", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    const env = scenario(await blockingScenario(sb));
    await t.step(".review-gate.json edited mid-turn", async () => {
      const decision = await claudeTurn(sb, "sneak-repo", async () => {
        await addTokenLine(sb.repo.root, "SNEAK_REPO");
        await writeRepoConfig(sb, { gates: { claude_stop: { mode: "warn" } } });
      }, env);
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      const reason = String(decision?.reason);
      assert.match(reason, /Exported constant breaks callers/, "the model's finding blocks");
      assert.match(reason, /\.review-gate\.json/);
      assert.match(reason, /, which controls? the review gate/);
      assert.doesNotMatch(reason, /[Ww]arn mode|would block/);
      await writeRepoConfig(sb, null);
      await gitOk(sb, ["checkout", "--", "."]);
      await forgetTurns(sb);
    });
    await t.step("the user config edited mid-turn", async () => {
      const decision = await claudeTurn(sb, "sneak-user", async () => {
        await addTokenLine(sb.repo.root, "SNEAK_USER");
        await writeUserConfig(sb, { gates: { claude_stop: { mode: "warn" } } });
      }, env);
      assert.equal(decision?.decision, "block", JSON.stringify(decision));
      assert.match(String(decision?.reason), /Exported constant breaks callers/);
      assert.doesNotMatch(String(decision?.reason), /[Ww]arn mode|would block/);
    });
  } finally {
    await sb.cleanup();
  }
});

Deno.test("in warn mode a gate-control change still blocks, and the review's findings are named as would-block", async () => {
  const sb = await makeGateSandbox({ remote: false });
  try {
    await writeUserConfig(sb, { gates: { claude_stop: { mode: "warn" } } });
    const env = scenario(await blockingScenario(sb));
    const decision = await claudeTurn(sb, "control", async () => {
      await addTokenLine(sb.repo.root, "CONTROL");
      await writeRepoConfig(sb, { fail_on: "critical" });
    }, env);
    assert.equal(decision?.decision, "block", JSON.stringify(decision));
    const reason = String(decision?.reason);
    assert.match(reason, /review-gate found 1 blocking finding in this turn's changes/);
    assert.match(reason, /\.review-gate\.json/);
    assert.match(
      reason,
      /The model's review found 1 finding that would block; it does not, as gates\.claude_stop\.mode is "warn":/,
    );
    assert.doesNotMatch(reason, /found nothing blocking/);
    assert.match(reason, /Exported constant breaks callers/);
  } finally {
    await sb.cleanup();
  }
});
