/**
 * Our Claude Code gates inside a real Claude Code session: `main.ts install --claude` writes
 * `.claude/settings.local.json` in a throwaway repo, then the pinned real `claude -p` runs there
 * (settings sources left at their default, so the local hooks fire) against the loopback Anthropic
 * mock. The model writes a buggy file and ends its turn; our Stop hook reviews the turn with the
 * fake provider as reviewer (fixtures/fake/README.md) and blocks; Claude Code sends our reason back
 * to the model ("Stop hook feedback"), the model fixes the file, the second review approves and the
 * session ends `success`. Facts: docs/providers.md "Claude Code hooks".
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeEnv, findCli, haveCli, makeRepo, makeSandbox, type Sandbox, warn } from "./env.ts";
import { HALF_FIXED, HALF_SCENARIO, halfBuggy } from "./half_session.ts";
import { DENO_DIR, exists, MAIN, runMain } from "./harness.ts";
import {
  type ClaudeTurn,
  type MockAnthropic,
  startMockAnthropic,
} from "../../fixtures/mock_model/anthropic.ts";
import { assertClaudeResultShape } from "./shapes.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping Claude hook cases)`);

interface FakeCall {
  cli: string;
  argv: string[];
  attempt: number;
  env: Record<string, string>;
}

interface Session {
  code: number;
  stdout: string;
  stderr: string;
  envelope: Record<string, unknown>;
  repo: string;
  fakeCalls: FakeCall[];
  mock: MockAnthropic;
}

async function readFakeLog(path: string): Promise<FakeCall[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/**
 * Install our Claude hooks in a fresh repo and run one real `claude -p` session there.
 * @param turns the model's scripted main-agent turns
 */
async function claudeSession(sb: Sandbox, turns: ClaudeTurn[]): Promise<Session> {
  const repo = await makeRepo(sb.dir);
  const scenario = join(sb.dir, "scenario.json");
  await Deno.writeTextFile(scenario, JSON.stringify(HALF_SCENARIO));
  const fakeLog = join(sb.dir, "fake.jsonl");
  const mock = startMockAnthropic(turns);
  const env = {
    ...claudeEnv(sb, mock.url),
    DENO_DIR,
    NO_COLOR: "1",
    REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
    REVIEW_GATE_FAKE_DENO: Deno.execPath(),
    REVIEW_GATE_FAKE_SCENARIO: scenario,
    REVIEW_GATE_FAKE_LOG: fakeLog,
  };
  // Must not leak in from a developer shell: it would switch our hooks off.
  const unset = ["REVIEW_GATE", "REVIEW_GATE_CHILD"];
  await runMain(repo, ["install", "--claude"], env);
  const settings = JSON.parse(
    await Deno.readTextFile(join(repo, ".claude", "settings.local.json")),
  );
  assert.ok(JSON.stringify(settings.hooks.Stop).includes("hook claude-stop"));
  assert.ok(JSON.stringify(settings.hooks.UserPromptSubmit).includes("hook claude-prompt"));
  const command = new Deno.Command(findCli("claude")!, {
    args: [
      "-p",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
      "--allowedTools",
      "Write,Edit",
      "--max-turns",
      "8",
    ],
    cwd: repo,
    env: Object.fromEntries(
      Object.entries({ ...Deno.env.toObject(), ...env }).filter(([k]) => !unset.includes(k)),
    ),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("Add a half() helper in src/half.ts."));
  await writer.close();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, 150_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  const d = new TextDecoder();
  const stdout = d.decode(out.stdout);
  const stderr = d.decode(out.stderr);
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(stdout);
  } catch {
    throw new Error(`claude printed no JSON envelope (exit ${out.code}); stderr: ${stderr}`);
  }
  return {
    code: out.code,
    stdout,
    stderr,
    envelope,
    repo,
    fakeCalls: await readFakeLog(fakeLog),
    mock,
  };
}

/** Text of every message of a Messages API request body, flattened. */
function messagesText(body: Record<string, unknown> | null): string {
  return JSON.stringify(body?.messages ?? []);
}

/** Run folders of the repo as `{ status, runDir }`, sorted by status. */
/** Every string inside the request's `messages`, depth first (text blocks, tool results). */
function messageStrings(body: Record<string, unknown> | null): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(body?.messages);
  return found;
}

/** The runs of one gate: `claude-stop`, or `claude-work` (reviewed while working, on by default). */
async function runRecords(
  repo: string,
  gate = "claude-stop",
): Promise<{ status: string; runDir: string }[]> {
  const runs = join(repo, ".git", "review-gate", "runs");
  const records: { status: string; runDir: string }[] = [];
  for await (const entry of Deno.readDir(runs)) {
    const record = JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json")));
    if (record.gate !== gate) continue;
    records.push({ status: String(record.status), runDir: join(runs, entry.name) });
  }
  return records.sort((a, b) => a.status.localeCompare(b.status));
}

async function sessionStates(repo: string): Promise<Record<string, unknown>[]> {
  const dir = join(repo, ".git", "review-gate", "sessions");
  const states: Record<string, unknown>[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.endsWith(".json")) {
      // sealed records keep the value inside (lib/store/sealed.ts)
      states.push(JSON.parse(await Deno.readTextFile(join(dir, entry.name))).value);
    }
  }
  return states;
}

/** The model: write the buggy file, stop, (blocked) fix it, stop. */
function bugThenFixTurns(repo: string): ClaudeTurn[] {
  const file = join(repo, "src", "half.ts");
  return [
    {
      kind: "tool",
      name: "Write",
      input: { file_path: file, content: halfBuggy("HOOK-BUG-MARKER") },
    },
    { kind: "text", text: "Added half() in src/half.ts." },
    { kind: "tool", name: "Write", input: { file_path: file, content: HALF_FIXED } },
    { kind: "text", text: "Fixed half() to divide by two." },
  ];
}

const ignore = !haveMain || !haveCli("claude");

async function withSession(fn: (s: Session) => Promise<void> | void) {
  const sb = await makeSandbox();
  // makeRepo names the repo `<dir>/repo`: the turns need its real path before the session starts.
  const repoPath = join(await Deno.realPath(sb.dir), "repo");
  let session: Session | undefined;
  try {
    session = await claudeSession(sb, bugThenFixTurns(repoPath));
    await fn(session);
  } finally {
    await session?.mock.close();
    await sb.cleanup();
  }
}

Deno.test({
  name:
    "claude -p with our hooks installed: the Stop gate blocks, Claude Code sends our reason, the model fixes the file",
  ignore,
  fn: () =>
    withSession(async (s) => {
      assert.equal(s.code, 0, s.stderr);
      assertClaudeResultShape(s.stdout);
      assert.equal(s.envelope.subtype, "success", s.stdout);
      assert.equal(s.envelope.is_error, false, s.stdout);
      assert.equal(s.mock.pending(), 0, "the model's scripted turns were not all used");

      // Claude Code sent our block reason back to the model, as Stop hook feedback.
      const main = s.mock.mainRequests();
      const withFeedback = main.filter((r) => messagesText(r.body).includes("Stop hook feedback"));
      assert.ok(withFeedback.length >= 1, "no request carried Stop hook feedback");
      // Our runs: one needs-attention (the block), one approved (after the fix) — each Stop's
      // verdict taken from the background review of the same bytes (the tool hook's runs)
      const runs = await runRecords(s.repo);
      assert.deepEqual(runs.map((r) => r.status), ["approved", "needs-attention"]);
      const work = await runRecords(s.repo, "claude-work");
      assert.deepEqual(work.map((r) => r.status), ["approved", "needs-attention"]);
      const blockedRun = runs[1].runDir;
      assert.ok(await exists(join(blockedRun, "review.md")));
      // The feedback is our reason: the blocking finding and the path of that run's review.md.
      const text = messageStrings(withFeedback[0].body).find((t) =>
        t.includes("Stop hook feedback:")
      )!;
      const reason = text.slice(text.indexOf("Stop hook feedback:")).split("</system-reminder>")[0];
      assert.match(reason, /^Stop hook feedback:\nreview-gate found 1 blocking finding/);
      assert.ok(reason.includes("[high] src/half.ts:2 half() multiplies instead of dividing"));
      assert.ok(reason.includes(`${blockedRun}/review.md`), reason);
      // …and the feedback came right after the first Stop, before the fixing turn.
      const firstFeedback = main.indexOf(withFeedback[0]);
      assert.equal(firstFeedback, 2, "feedback should be the third main-agent request");

      // The model's second turn fixed the file.
      assert.equal(await Deno.readTextFile(join(s.repo, "src", "half.ts")), HALF_FIXED);

      // The session file's block counter is back to zero.
      const states = await sessionStates(s.repo);
      assert.equal(states.length, 1);
      assert.equal(states[0].consecutiveBlocks, 0);
    }),
});

Deno.test({
  name:
    "claude -p with our hooks installed: the review child the Stop gate starts does not recurse",
  ignore,
  fn: () =>
    withSession((s) => {
      assert.equal(s.envelope.subtype, "success", s.stdout);
      // Exactly two reviews (block, then approve), each one fake `claude` call, both marked child.
      const reviews = s.fakeCalls.filter((c) => c.cli === "claude");
      assert.equal(reviews.length, 2, JSON.stringify(s.fakeCalls.map((c) => c.argv)));
      assert.equal(s.fakeCalls.length, 2);
      for (const call of reviews) {
        assert.equal(call.env.REVIEW_GATE_CHILD, "1");
        assert.ok(call.argv.includes("--setting-sources"), "review child may load project hooks");
        assert.equal(call.argv[call.argv.indexOf("--setting-sources") + 1], "");
      }
      // The real model saw only the outer session's four turns (no nested session hit the mock).
      assert.equal(s.mock.mainRequests().length, 4);
    }),
});
