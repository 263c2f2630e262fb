/**
 * The Stop under `provider: "auto"` reviews with the provider auto chose at the turn's start
 * (docs/design.md "Turn gate"): the agent deleting the user's claude login mid-turn must not hand
 * the review to codex, whose approval would let the turn end silently.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  FAKE_BIN,
  gitOk,
  makeGateSandbox,
  promptPayload,
  readFakeLog,
  runHook,
  type Sandbox,
  signInClaude,
  stopDecision,
  stopPayload,
} from "./_gates.ts";

/** The user's claude: the fake, answering with `scenarioPath`. */
async function userClaude(sb: Sandbox, scenarioPath: string): Promise<string> {
  const dir = join(sb.dir, "user-bin");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "claude");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nREVIEW_GATE_FAKE_SCENARIO='${scenarioPath}' exec '${
      join(FAKE_BIN, "claude")
    }' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** A turn under auto with claude signed in at its start; `midTurn` runs before the Stop. */
async function autoTurn(
  midTurn: (sb: Sandbox, login: string, claude: string) => Promise<void>,
): Promise<{ decision: Record<string, unknown> | null; clis: string[]; stderr: string }> {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  try {
    const login = await signInClaude(sb);
    const claude = await userClaude(sb, await blockingScenario(sb));
    // every other provider's fake approves
    const env = { REVIEW_GATE_CLAUDE_BIN: claude, REVIEW_GATE_FAKE_SCENARIO: "valid" };
    await runHook(sb, "claude-prompt", promptPayload({ sessionId: "s1", cwd: root }), { env });
    await addTokenLine(root, "TOKEN");
    await midTurn(sb, login, claude);
    const r = await runHook(sb, "claude-stop", stopPayload({ sessionId: "s1", cwd: root }), {
      env,
    });
    const clis = (await readFakeLog(sb)).map((i) => i.cli);
    return { decision: stopDecision(r.stdout), clis, stderr: r.stderr };
  } finally {
    await sb.cleanup();
  }
}

Deno.test("auto Stop: the claude login deleted mid-turn, the review stays with claude", async () => {
  const { decision, clis } = await autoTurn(async (_sb, login) => await Deno.remove(login));
  assert.deepEqual(decision?.decision, "block");
  assert.ok(clis.length > 0 && clis.every((c) => c === "claude"), `asked: ${clis}`);
});

Deno.test("auto Stop: the ~/.claude folder removed mid-turn, the review stays with claude", async () => {
  const { decision, clis } = await autoTurn(async (sb) => {
    await Deno.remove(join(sb.env.HOME, ".claude"), { recursive: true });
  });
  assert.deepEqual(decision?.decision, "block");
  assert.ok(clis.length > 0 && clis.every((c) => c === "claude"), `asked: ${clis}`);
});

Deno.test("auto Stop: the start's claude gone, the review could not run — never codex's approval", async () => {
  const { decision, clis } = await autoTurn(async (_sb, login, claude) => {
    await Deno.remove(login);
    await Deno.remove(claude);
  });
  assert.deepEqual(clis.filter((c) => c !== "claude"), []);
  const text = String(decision?.reason ?? decision?.systemMessage ?? "");
  assert.match(text, /could not run/);
  assert.match(text, /provider "auto" chose claude when this turn started/);
});

Deno.test("auto Stop: commits moved onto a side branch are reviewed by the start's claude too", async () => {
  const { decision, clis } = await autoTurn(async (sb, login) => {
    await Deno.remove(login);
    // the token goes onto a side branch; the worktree is back at the baseline
    await gitOk(sb, ["checkout", "-q", "-b", "side"]);
    await gitOk(sb, ["commit", "-qam", "side work"]);
    await gitOk(sb, ["checkout", "-q", "-"]);
  });
  assert.equal(decision?.decision, "block");
  assert.ok(clis.length > 0 && clis.every((c) => c === "claude"), `asked: ${clis}`);
});
