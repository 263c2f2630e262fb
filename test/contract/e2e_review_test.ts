/**
 * End-to-end contract cases: `deno run main.ts review --json` in a throwaway git repo with
 * `REVIEW_GATE_CLAUDE_BIN` / `REVIEW_GATE_CODEX_BIN` pointing at the pinned real CLIs and the model
 * replaced by the loopback mocks. Asserts our status, exit code, run folder, transcript and what
 * the CLI sent to the model.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  claudeEnv,
  codexEnv,
  findCli,
  haveCli,
  makeRepo,
  makeSandbox,
  type Sandbox,
  warn,
  writeCodexConfig,
} from "./env.ts";
import { APPROVE, DENO_DIR, exists, MAIN, NEEDS_ATTENTION } from "./harness.ts";
import {
  bash,
  type ClaudeTurn,
  startMockAnthropic,
  structured,
} from "../../fixtures/mock_model/anthropic.ts";
import { type CodexTurn, startMockOpenAI } from "../../fixtures/mock_model/responses.ts";
import { assertClaudeResultShape, assertCodexEventShape } from "./shapes.ts";

const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping e2e review cases)`);
const CHANGE = "export const a = 2; // E2E-DIFF-MARKER\n";

interface Run {
  code: number;
  json: Record<string, unknown>;
  stderr: string;
  repo: string;
  runDir: string;
  runRecord: Record<string, unknown>;
  transcript: Record<string, string>;
}

async function review(
  sb: Sandbox,
  provider: "claude" | "codex",
  env: Record<string, string>,
): Promise<Run> {
  const repo = await makeRepo(sb.dir);
  await Deno.writeTextFile(join(repo, "src", "app.ts"), CHANGE);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--quiet",
      MAIN,
      "review",
      "--provider",
      provider,
      "--json",
      "--no-cache",
    ],
    cwd: repo,
    env: {
      ...env,
      DENO_DIR,
      NO_COLOR: "1",
      REVIEW_GATE_CLAUDE_BIN: findCli("claude") ?? "claude",
      REVIEW_GATE_CODEX_BIN: findCli("codex") ?? "codex",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`review --json printed no JSON (exit ${out.code}); stderr: ${stderr}`);
  }
  const runDir = String(json.runDir);
  assert.ok(runDir.startsWith(join(repo, ".git", "review-gate", "runs")), runDir);
  const runRecord = JSON.parse(await Deno.readTextFile(join(runDir, "run.json")));
  const transcript: Record<string, string> = {};
  for await (const entry of Deno.readDir(join(runDir, "transcript"))) {
    transcript[entry.name] = await Deno.readTextFile(join(runDir, "transcript", entry.name));
  }
  return { code: out.code, json, stderr, repo, runDir, runRecord, transcript };
}

async function withClaudeReview(
  turns: ClaudeTurn[],
  fn: (run: Run, requests: ReturnType<typeof startMockAnthropic>) => Promise<void> | void,
) {
  const sb = await makeSandbox();
  const mock = startMockAnthropic(turns);
  try {
    await fn(await review(sb, "claude", claudeEnv(sb, mock.url)), mock);
  } finally {
    await mock.close();
    await sb.cleanup();
  }
}

async function withCodexReview(
  turns: CodexTurn[],
  fn: (run: Run, mock: ReturnType<typeof startMockOpenAI>) => Promise<void>,
  configExtra = "",
) {
  const sb = await makeSandbox();
  const mock = startMockOpenAI(turns);
  try {
    await writeCodexConfig(sb, mock.url, configExtra);
    await fn(await review(sb, "codex", codexEnv(sb)), mock);
  } finally {
    await mock.close();
    await sb.cleanup();
  }
}

async function hasFile(dir: string, name: string) {
  return await exists(join(dir, name));
}

const claudeIgnore = !haveMain || !haveCli("claude");
const codexIgnore = !haveMain || !haveCli("codex");

Deno.test({
  name: "review --provider claude: approved, exit 0, run folder with answer, review and transcript",
  ignore: claudeIgnore,
  fn: () =>
    withClaudeReview([structured(APPROVE)], async (run, mock) => {
      assert.equal(run.json.status, "approved", run.stderr);
      assert.equal(run.code, 0);
      assert.equal(run.runRecord.status, "approved");
      assert.equal(run.runRecord.provider, "claude");
      assert.equal(run.runRecord.sessionId, run.json.sessionId);
      assert.ok(await hasFile(run.runDir, "answer.json"));
      assert.ok(await hasFile(run.runDir, "review.md"));
      const envelope = assertClaudeResultShape(run.transcript["attempt-1.stdout"]);
      assert.equal(envelope.session_id, run.json.sessionId);
      const attempts = run.runRecord.attempts as { argv: string[] }[];
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0].argv[0], findCli("claude"));
      // the prompt with the fenced diff reached the model
      const sent = JSON.stringify(mock.mainRequests()[0].body!.messages);
      assert.ok(sent.includes("E2E-DIFF-MARKER"), "diff not in the prompt");
    }),
});

Deno.test({
  name: "review --provider claude: a high finding is needs-attention and blocks with exit 1",
  ignore: claudeIgnore,
  fn: () =>
    withClaudeReview([structured(NEEDS_ATTENTION)], async (run) => {
      assert.equal(run.json.status, "needs-attention", run.stderr);
      assert.equal(run.json.blocking, true);
      assert.equal(run.code, 1);
      assert.ok(await hasFile(run.runDir, "answer.json"));
    }),
});

Deno.test({
  name:
    "review --provider claude: prose twice, then the corrective resume answers: approved, two attempts",
  ignore: claudeIgnore,
  fn: () =>
    withClaudeReview(
      [{ kind: "text", text: "Fine." }, { kind: "text", text: "Fine again." }, structured(APPROVE)],
      (run) => {
        assert.equal(run.json.status, "approved", run.stderr);
        assert.equal(run.code, 0);
        const attempts = run.runRecord.attempts as { argv: string[]; outcome: string }[];
        assert.deepEqual(attempts.map((a) => a.outcome), ["refused", "answer"]);
        assert.ok(attempts[1].argv.includes("--resume"));
        assert.ok("attempt-2.stdout" in run.transcript);
        const first = assertClaudeResultShape(run.transcript["attempt-1.stdout"]);
        const second = assertClaudeResultShape(run.transcript["attempt-2.stdout"]);
        assert.equal(second.session_id, first.session_id);
      },
    ),
});

Deno.test({
  name: "review --provider claude: HTTP 500 is provider-error, exit 3, transcript kept, no answer",
  ignore: claudeIgnore,
  fn: () =>
    withClaudeReview([{ kind: "error", status: 500 }], async (run) => {
      assert.equal(run.json.status, "provider-error", run.stderr);
      assert.equal(run.code, 3);
      assert.equal(await hasFile(run.runDir, "answer.json"), false);
      assert.equal(await hasFile(run.runDir, "review.md"), false);
      assert.equal(
        assertClaudeResultShape(run.transcript["attempt-1.stdout"]).api_error_status,
        500,
      );
      assert.equal((run.runRecord.attempts as unknown[]).length, 1);
    }),
});

Deno.test({
  name:
    "review --provider claude: `git log --output=x` (the old allow-list's write hole) is refused, no file",
  ignore: claudeIgnore,
  fn: () =>
    withClaudeReview([bash("git log --output=leak.txt"), structured(APPROVE)], async (run) => {
      assert.equal(await exists(join(run.repo, "leak.txt")), false);
      assert.equal(run.json.status, "approved", `${run.json.message} ${run.stderr}`);
      assert.equal(run.code, 0);
      assert.equal(await hasFile(run.runDir, "answer.json"), true);
    }),
});

Deno.test({
  name: "review --provider codex: approved, exit 0, transcript holds the JSONL events",
  ignore: codexIgnore,
  fn: () =>
    withCodexReview([{ kind: "message", text: JSON.stringify(APPROVE) }], async (run, mock) => {
      assert.equal(run.json.status, "approved", run.stderr);
      assert.equal(run.code, 0);
      const events = assertCodexEventShape(run.transcript["attempt-1.stdout"]);
      assert.equal(events[0].thread_id, run.json.sessionId);
      assert.ok(JSON.stringify(mock.turns()[0].body!.input).includes("E2E-DIFF-MARKER"));
      assert.ok(await hasFile(run.runDir, "answer.json"));
    }),
});

Deno.test({
  name:
    "review --provider codex: turn.failed after a valid-looking message is provider-error, exit 3",
  ignore: codexIgnore,
  fn: () =>
    withCodexReview(
      [
        {
          kind: "multi",
          items: [
            { kind: "message", text: JSON.stringify(APPROVE) },
            { kind: "call", name: "exec_command", args: { cmd: "git status" } },
          ],
        },
        { kind: "error", status: 500 },
      ],
      async (run) => {
        assert.equal(run.json.status, "provider-error", run.stderr);
        assert.equal(run.code, 3);
        assert.equal(await hasFile(run.runDir, "answer.json"), false);
      },
    ),
});

Deno.test({
  name: "review --provider codex: resumed thread stays read-only under a danger-full-access config",
  ignore: codexIgnore,
  fn: () =>
    withCodexReview(
      [
        { kind: "message", text: "Prose." },
        { kind: "call", name: "exec_command", args: { cmd: "touch y" } },
        { kind: "message", text: JSON.stringify(APPROVE) },
      ],
      async (run) => {
        assert.equal(await exists(join(run.repo, "y")), false);
        assert.equal(run.json.status, "approved", run.stderr);
        assert.equal(run.code, 0);
        assert.equal((run.runRecord.attempts as unknown[]).length, 2);
      },
      `sandbox_mode = "danger-full-access"`,
    ),
});
