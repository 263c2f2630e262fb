/**
 * End to end: when an agent turn stops counting as open for a push (lib/gates/pre_push/open_turns.ts;
 * docs/design.md "Pre-push gate"). A Stop piped by hand with no prompt seen first (README "Gates":
 * trying the hooks by hand) leaves no turn that takes over later pushes, unless it blocks; a turn
 * whose Stop the installed script (`hooks/turn-stop.sh`) answered by itself ends like one
 * review-gate answered; while a turn is open, a `REVIEW_GATE_TIMEOUT_SECONDS` set for the push is
 * refused with the timeout that applies named; and the README's way to drop a session by hand (its
 * record and its anchor together) ends its turn. Real `git push` into a local bare remote through
 * the installed hook, with the fake provider.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
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
  stopDecision,
  stopPayload,
  writeUserConfig,
} from "./_gates.ts";

const SESSION = "new-sess";
const SCRIPT = new URL("../../hooks/turn-stop.sh", import.meta.url).pathname;

/** A reviewer program: the fake with `scenario` fixed. */
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
 * The pre-push hook installed, a bug committed; the user's reviewer blocks, another approves. The
 * user is signed in to Claude Code, so provider "auto" chooses these claude wrappers
 * (test/gates/_gates.ts `signInClaude`).
 */
async function setUp() {
  const sb = await makeGateSandbox();
  await signInClaude(sb);
  const user = await reviewer(sb, "user", await blockingScenario(sb));
  const other = await reviewer(sb, "other", "valid");
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  await addTokenLine(sb.repo.root, "PUSHBUG");
  await gitOk(sb, ["commit", "-q", "-am", "bug"]);
  return { sb, user, other };
}

const OPEN_NOTE = /an agent turn is open in this repository/;

Deno.test("a Stop piped by hand with no start seen leaves no turn that takes over pushes", async () => {
  const { sb, user, other } = await setUp();
  try {
    const s = await runHook(
      sb,
      "claude-stop",
      stopPayload({ sessionId: SESSION, cwd: sb.repo.root }),
      {
        env: { REVIEW_GATE_CLAUDE_BIN: other },
      },
    );
    assert.equal(s.code, 0, s.stderr);
    assert.match(s.stdout, /NOT reviewed[^"]*its start was not seen/);
    // the push reviews with the user's own reviewer (it blocks), not the Stop's (it approves)
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: { REVIEW_GATE_CLAUDE_BIN: user },
    });
    assert.doesNotMatch(r.stderr, OPEN_NOTE);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("a Stop with no start seen that blocks (on_error: block) keeps the turn open", async () => {
  const { sb, user } = await setUp();
  try {
    await writeUserConfig(sb, { gates: { claude_stop: { on_error: "block" } } });
    const s = await runHook(
      sb,
      "claude-stop",
      stopPayload({ sessionId: SESSION, cwd: sb.repo.root }),
      {
        env: { REVIEW_GATE_CLAUDE_BIN: user },
      },
    );
    assert.equal(s.code, 0, s.stderr);
    assert.equal(stopDecision(s.stdout)?.decision, "block", s.stdout);
    // the agent works on: its own reviewer for its push is held back
    const agent = await reviewer(sb, "agent", "valid");
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: { REVIEW_GATE_CLAUDE_BIN: agent },
    });
    assert.match(r.stderr, OPEN_NOTE);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding/);
  } finally {
    await sb.cleanup();
  }
});

/** Pipe a Stop payload into the installed Stop script, review-gate behind it. */
async function stopThroughScript(
  sb: GateSandbox,
  payload: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const fell = "FELL-BACK-TO-REVIEW-GATE";
  const child = new Deno.Command("sh", {
    args: [SCRIPT, "sh", "-c", `cat >/dev/null; echo ${fell}`],
    cwd: sb.repo.root,
    env: { ...sb.env, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  const stdout = text.decode(out.stdout);
  // the script must have answered by itself: this turn changed nothing
  assert.doesNotMatch(stdout, new RegExp(fell));
  return { code: out.code, stdout, stderr: text.decode(out.stderr) };
}

Deno.test("a turn whose Stop the installed script answered by itself is no longer open for pushes", async () => {
  const { sb, user, other } = await setUp();
  try {
    const session = { sessionId: SESSION, cwd: sb.repo.root };
    const env = { REVIEW_GATE_CLAUDE_BIN: other };
    const p = await runHook(sb, "claude-prompt", promptPayload(session), { env });
    assert.deepEqual([p.code, p.stderr], [0, ""]);
    const open = await runGit(sb, ["push", "--dry-run", "origin", "main"], {
      env: { REVIEW_GATE_CLAUDE_BIN: user },
    });
    assert.match(open.stderr, OPEN_NOTE, "the turn is open before its Stop");
    const s = await stopThroughScript(sb, stopPayload(session), env);
    assert.deepEqual([s.code, s.stdout], [0, ""]);
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: { REVIEW_GATE_CLAUDE_BIN: user },
    });
    assert.doesNotMatch(r.stderr, OPEN_NOTE);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding/);
    // the next prompt opens a turn again
    await runHook(sb, "claude-prompt", promptPayload(session), { env });
    const again = await runGit(sb, ["push", "--dry-run", "origin", "main"], {
      env: { REVIEW_GATE_CLAUDE_BIN: user },
    });
    assert.match(again.stderr, OPEN_NOTE);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push during an open turn: a REVIEW_GATE_TIMEOUT_SECONDS set for the push is refused, the timeout that applies named", async () => {
  const { sb } = await setUp();
  try {
    await writeUserConfig(sb, { timeout_seconds: 4 });
    const session = { sessionId: SESSION, cwd: sb.repo.root };
    const p = await runHook(sb, "claude-prompt", promptPayload(session));
    assert.equal(p.code, 0, p.stderr);
    const started = Date.now();
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: { REVIEW_GATE_FAKE_SCENARIO: "hang", REVIEW_GATE_TIMEOUT_SECONDS: "1" },
    });
    const took = (Date.now() - started) / 1000;
    assert.match(
      r.stderr,
      /REVIEW_GATE_TIMEOUT_SECONDS \(set since the turn started: the review's timeout stays 4 s/,
    );
    // the turn's timeout applied, not the push's 1 s
    assert.ok(took >= 4, `took ${took} s`);
    assert.match(r.stderr, /NOT reviewed/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("README's way to drop a session by hand: its record and its anchor together end its turn for pushes", async (t) => {
  for (const what of ["record and anchor", "record alone"] as const) {
    await t.step(what, async () => {
      const { sb, user, other } = await setUp();
      try {
        const session = { sessionId: SESSION, cwd: sb.repo.root };
        const p = await runHook(sb, "claude-prompt", promptPayload(session), {
          env: { REVIEW_GATE_CLAUDE_BIN: other },
        });
        assert.equal(p.code, 0, p.stderr);
        await Deno.remove(join(sb.repo.root, ".git", "review-gate", "sessions", `${SESSION}.json`));
        if (what === "record and anchor") {
          const anchors = join(sb.env.HOME, ".local", "state", "review-gate", "anchors");
          for await (const entry of Deno.readDir(anchors)) {
            if (entry.name.startsWith(`${SESSION}.`)) await Deno.remove(join(anchors, entry.name));
          }
        }
        // a turn whose start is unknown holds REVIEW_GATE_CLAUDE_BIN back: PATH finds the user's
        const path = `${dirname(user)}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
        const r = await runGit(sb, ["push", "origin", "main"], {
          env: { REVIEW_GATE_CLAUDE_BIN: user, PATH: path },
        });
        assert.doesNotMatch(r.stderr, OPEN_NOTE);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /push blocked: 1 blocking finding/);
        if (what === "record alone") assert.match(r.stderr, /whose start is unknown/);
        else assert.doesNotMatch(r.stderr, /whose start is unknown/);
      } finally {
        await sb.cleanup();
      }
    });
  }
});
