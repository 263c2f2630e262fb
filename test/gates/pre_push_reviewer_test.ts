/**
 * End to end: while an agent turn is open in the repository, a push reviews with the reviewer the
 * turn started with (lib/gates/pre_push/reviewer_env.ts): a reviewer program the agent put first
 * on `PATH` or named in `REVIEW_GATE_CLAUDE_BIN`, and an answer-changing variable it set
 * (`ANTHROPIC_BASE_URL`, `REVIEW_GATE_FAIL_ON`) for its own `git push`, do not decide the push, and
 * the push names what it held back. Once the turn's Stop answered, your environment applies whole.
 * Real `git push` into a local bare remote through the installed hook, with the fake provider.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  FAKE_BIN,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  promptPayload,
  runCli,
  runGit,
  runHook,
  signInClaude,
  stopPayload,
} from "./_gates.ts";

const SESSION = "sess-push-reviewer";

/** A reviewer program: the fake with `scenario` fixed, as a user or an agent would wrap it. */
async function reviewer(sb: GateSandbox, name: string, scenario: string): Promise<string> {
  const dir = join(sb.dir, `${name}-bin`);
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "claude");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nREVIEW_GATE_FAKE_SCENARIO='${scenario}' exec '${join(FAKE_BIN, "claude")}' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/**
 * The hook installed, a bug committed, the user's reviewer (it blocks) and an agent's (it
 * approves). The reviewers wrap the fake, so they are not the bundled fake and need a login for
 * provider "auto" (the default) to choose claude: the user has one, as a claude user does.
 */
async function setUp() {
  const sb = await makeGateSandbox();
  const login = await signInClaude(sb);
  const user = await reviewer(sb, "user", await blockingScenario(sb));
  const agent = await reviewer(sb, "agent", "valid");
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  await addTokenLine(sb.repo.root, "PUSHBUG");
  await gitOk(sb, ["commit", "-q", "-am", "bug"]);
  const env = { REVIEW_GATE_CLAUDE_BIN: user };
  const p = await runHook(
    sb,
    "claude-prompt",
    promptPayload({ sessionId: SESSION, cwd: sb.repo.root }),
    { env },
  );
  assert.equal(p.code, 0, p.stderr);
  return { sb, user, agent, env, login };
}

Deno.test("pre-push during an open agent turn: the agent's own reviewer program does not approve", async (t) => {
  for (const how of ["REVIEW_GATE_CLAUDE_BIN", "PATH"] as const) {
    await t.step(how, async () => {
      const { sb, user, agent } = await setUp();
      try {
        const env: Record<string, string> = how === "PATH"
          ? { REVIEW_GATE_CLAUDE_BIN: "claude", PATH: `${join(agent, "..")}:${sb.env.PATH}` }
          : { REVIEW_GATE_CLAUDE_BIN: agent };
        // for PATH, the turn starts with "claude" found on PATH: the user's program first
        if (how === "PATH") {
          const startPath = `${join(user, "..")}:${sb.env.PATH}`;
          await runHook(
            sb,
            "claude-prompt",
            promptPayload({ sessionId: SESSION, cwd: sb.repo.root }),
            {
              env: { REVIEW_GATE_CLAUDE_BIN: "claude", PATH: startPath },
            },
          );
        }
        const r = await runGit(sb, ["push", "origin", "main"], { env });
        assert.notEqual(r.code, 0, r.stderr);
        assert.match(r.stderr, /push blocked: 1 blocking finding/);
        assert.match(r.stderr, /reviews with the reviewer that turn started with/);
        assert.match(r.stderr, /the claude program/);
      } finally {
        await sb.cleanup();
      }
    });
  }
});

Deno.test("pre-push during an open agent turn: a variable the agent set for its push is held back", async () => {
  const { sb, env } = await setUp();
  try {
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: { ...env, REVIEW_GATE_FAIL_ON: "critical", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" },
    });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding/);
    // the note names the value that applies instead
    assert.match(
      r.stderr,
      /REVIEW_GATE_FAIL_ON \(set since the turn started: fail_on stays "high"\)/,
    );
    assert.match(r.stderr, /ANTHROPIC_BASE_URL \(set since the turn started\)/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push after the turn's Stop answered: your environment applies whole", async () => {
  const { sb, env, agent } = await setUp();
  try {
    const s = await runHook(
      sb,
      "claude-stop",
      stopPayload({ sessionId: SESSION, cwd: sb.repo.root }),
      {
        env,
      },
    );
    assert.equal(s.code, 0, s.stderr);
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: { REVIEW_GATE_CLAUDE_BIN: agent },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /reviews with the reviewer that turn started with/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push during an open agent turn: a reviewer endpoint written into ~/.claude/settings.json blocks the push", async () => {
  const { sb, env } = await setUp();
  try {
    const settings = join(sb.env.HOME, ".claude", "settings.json");
    await Deno.mkdir(join(sb.env.HOME, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      settings,
      JSON.stringify({ env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9/agent-server" } }),
    );
    const r = await runGit(sb, ["push", "origin", "main"], { env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /push blocked: an agent turn is open[^\n]*the claude config the reviewer carries/,
    );
    // a settings edit that carries nothing (permissions Claude Code writes) changes nothing
    await Deno.writeTextFile(settings, JSON.stringify({ permissions: { allow: ["Bash(ls)"] } }));
    const again = await runGit(sb, ["push", "origin", "main"], { env });
    assert.doesNotMatch(again.stderr, /config the reviewer carries/);
    assert.match(again.stderr, /push blocked: 1 blocking finding/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test('pre-push during an open agent turn: a provider "auto" would choose in place of the start\'s blocks the push', async () => {
  const { sb, env, login } = await setUp();
  try {
    // the agent removes the claude login: "auto" would pick the next provider (codex's fake, which
    // approves); the push must not be approved by a reviewer the turn did not start with
    await Deno.remove(login);
    const r = await runGit(sb, ["push", "origin", "main"], { env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /push blocked: an agent turn is open[^\n]*the provider "auto" chooses changed since the turn started \(claude then, codex now\)/,
    );
    assert.doesNotMatch(r.stderr, /approved/);
  } finally {
    await sb.cleanup();
  }
});
