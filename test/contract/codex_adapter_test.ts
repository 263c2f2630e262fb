/**
 * Contract cases for the Codex adapter (issue 3): our real adapter + `callStructured` + decoder +
 * read-only proof, driving the real pinned `codex` binary against the Responses mock.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { dialectText } from "../../lib/answer/dialect.ts";
import { canonicalSchema } from "../../lib/kinds/registry.ts";
import { runProcess } from "../../lib/exec/exec.ts";
import { codexEnv, findCli, git, haveCli, writeCodexConfig } from "./env.ts";
import {
  APPROVE,
  attemptText,
  type CaseContext,
  DEFAULT_PROMPT,
  exists,
  NEEDS_ATTENTION,
  withCase,
  WRITE_REFUSED,
} from "./harness.ts";
import {
  type CodexTurn,
  type MockOpenAI,
  startMockOpenAI,
} from "../../fixtures/mock_model/responses.ts";
import { assertCodexEventShape } from "./shapes.ts";

const ignore = !haveCli("codex");
/** A system bubblewrap on PATH: codex 0.171.0 then starts it instead of its bundled one (Linux). */
const systemBwrap = Deno.build.os === "linux" &&
  (await new Deno.Command("sh", { args: ["-c", "command -v bwrap"] }).output()).success;

function withCodex(
  turns: CodexTurn[],
  fn: (ctx: CaseContext<MockOpenAI>) => Promise<void>,
  configExtra = "",
  streamRetries = 0,
): Promise<void> {
  return withCase({
    provider: "codex",
    startMock: () => startMockOpenAI(turns),
    setup: (sb, mock) => writeCodexConfig(sb, mock.url, configExtra, streamRetries),
  }, fn);
}

const message = (value: unknown): CodexTurn => ({ kind: "message", text: JSON.stringify(value) });
const shell = (cmd: string): CodexTurn => ({ kind: "call", name: "exec_command", args: { cmd } });

function functionOutputs(body: Record<string, unknown> | null): string[] {
  return ((body?.input ?? []) as { type: string; output?: string }[])
    .filter((i) => i.type === "function_call_output")
    .map((i) => String(i.output));
}

/**
 * Review once; the model's `cat src/app.ts` must have run in the copy and printed the file.
 *
 * @returns the review's spawns
 */
async function assertShellWorks({ mock, review }: CaseContext<MockOpenAI>) {
  const { outcome, spawns } = await review();
  assert.equal(outcome.status, "ok", outcome.message);
  const output = functionOutputs(mock.turns()[1].body).join("\n");
  assert.match(output, /Process exited with code 0/, output);
  assert.match(output, /export const a = 1;/, output);
  assert.doesNotMatch(attemptText(outcome, 1).stderr, /Refusing to create helper binaries/);
  return spawns;
}

function threadId(stdout: string): string {
  const started = assertCodexEventShape(stdout).find((e) => e.type === "thread.started");
  return String(started!.thread_id);
}

Deno.test({
  name: "codex: a valid answer is accepted and codex sent our strict Codex dialect",
  ignore,
  fn: () =>
    withCodex([message(APPROVE)], async ({ mock, review }) => {
      const { outcome, spawns } = await review();
      assert.equal(outcome.status, "ok", outcome.message);
      assert.equal(outcome.answer?.verdict, "approve");
      assert.equal(outcome.attempts.length, 1);
      assert.equal(outcome.sessionId, threadId(attemptText(outcome, 1).stdout));
      assert.equal(spawns[0].stdin, DEFAULT_PROMPT);
      const [turn] = mock.turns();
      assert.deepEqual((turn.body!.text as { format: unknown }).format, {
        type: "json_schema",
        strict: true,
        schema: JSON.parse(dialectText(await canonicalSchema("review"), "openai-strict")),
        name: "codex_output_schema",
      });
      assert.ok(JSON.stringify(turn.body!.input).includes("CONTRACT-PROMPT-MARKER-7f3a"));
    }),
});

Deno.test({
  name: "codex: a needs-attention answer is decoded with its finding",
  ignore,
  fn: () =>
    withCodex([message(NEEDS_ATTENTION)], async ({ review }) => {
      const { outcome } = await review();
      assert.equal(outcome.status, "ok", outcome.message);
      assert.equal(outcome.answer?.verdict, "needs-attention");
      assert.equal(outcome.answer?.findings[0].line_start, 1);
    }),
});

Deno.test({
  name:
    "codex: prose with exit 0 is refused, resumed on the same thread with argv the real parser accepts",
  ignore,
  fn: () =>
    withCodex(
      [{ kind: "message", text: "Looks good to me." }, message(APPROVE)],
      async ({ mock, review }) => {
        const { outcome, spawns } = await review();
        assert.equal(outcome.attempts[0].exitCode, 0);
        assert.equal(outcome.attempts[0].outcome, "refused");
        assert.equal(outcome.status, "ok", outcome.message);
        assert.equal(outcome.attempts.length, 2);
        assert.equal(outcome.attempts[1].exitCode, 0, attemptText(outcome, 2).stderr);
        const first = threadId(attemptText(outcome, 1).stdout);
        assert.equal(threadId(attemptText(outcome, 2).stdout), first, "same thread id");
        const args = spawns[1].args;
        assert.ok(args.includes("resume"));
        const before = args.slice(0, args.indexOf("resume"));
        for (const option of ["--ignore-rules", 'default_permissions="review"', "hooks"]) {
          assert.ok(before.includes(option), `${option} before resume`);
        }
        assert.ok(args.includes(first));
        const turns = mock.turns();
        assert.equal(turns.length, 2);
        const sent = JSON.stringify(turns[1].body!.input);
        assert.ok(sent.includes("Looks good to me."), "resume lost the conversation");
        const corrective = spawns[1].stdin!.split("\n").find((l) => l.trim().length > 20)!;
        assert.ok(
          sent.includes(JSON.stringify(corrective).slice(1, -1)),
          "corrective prompt not sent",
        );
        // turn.completed.usage on `exec resume` is the thread's running total: the call keeps it,
        // never the sum of both attempts' reports.
        const usageOf = (n: number) => {
          const done = attemptText(outcome, n).stdout.split("\n").filter((l) => l.trim())
            .map((l) => JSON.parse(l)).findLast((e) => e.type === "turn.completed");
          return done.usage as { input_tokens: number; output_tokens: number };
        };
        const [one, two] = [usageOf(1), usageOf(2)];
        assert.ok(two.input_tokens > one.input_tokens, "the resume reports the thread's total");
        assert.equal(outcome.usage?.inputTokens, two.input_tokens);
        assert.equal(outcome.usage?.outputTokens, two.output_tokens);
        assert.equal(outcome.costUsd, undefined, "codex reports no money");
      },
    ),
});

Deno.test({
  name:
    "codex: turn.failed after a valid-looking agent_message is a provider-error, never approved",
  ignore,
  fn: () =>
    withCodex(
      [
        {
          kind: "multi",
          items: [{ kind: "message", text: JSON.stringify(APPROVE) }, {
            kind: "call",
            name: "exec_command",
            args: { cmd: "git status" },
          }],
        },
        { kind: "error", status: 500, message: "mock upstream failure" },
      ],
      async ({ review }) => {
        const { outcome } = await review();
        const events = assertCodexEventShape(attemptText(outcome, 1).stdout);
        assert.ok(
          events.some((e) =>
            e.type === "item.completed" && (e.item as { type: string }).type === "agent_message"
          ),
          "the valid-looking message was emitted",
        );
        assert.ok(events.some((e) => e.type === "turn.failed"));
        assert.equal(outcome.status, "provider-error");
        assert.equal(outcome.answer, undefined);
        assert.equal(outcome.attempts.length, 1, "never resumed");
      },
    ),
});

Deno.test({
  name:
    "codex: a dropped stream codex reconnects is progress: the answer stands, the notice is kept",
  ignore,
  fn: () =>
    withCodex(
      [{ kind: "drop" }, message(NEEDS_ATTENTION)],
      async ({ mock, review }) => {
        const { outcome } = await review();
        const events = assertCodexEventShape(attemptText(outcome, 1).stdout);
        const reconnect = events.find((e) => e.type === "error");
        assert.match(String(reconnect?.message), /^Reconnecting\.\.\. 1\/1 \(stream disconnected/);
        assert.ok(
          events.findIndex((e) => e.type === "turn.completed") > events.indexOf(reconnect!),
        );
        assert.equal(outcome.status, "ok", outcome.message);
        assert.equal(outcome.answer?.verdict, "needs-attention", "the blocking answer is not lost");
        assert.equal(outcome.attempts.length, 1);
        assert.deepEqual(outcome.attempts[0].notices, [String(reconnect!.message)]);
        assert.equal(mock.turns().length, 2, "codex asked again after the drop");
      },
      "",
      1,
    ),
});

Deno.test({
  name: "codex: a dropped stream with no reconnect left is a provider-error, never an answer",
  ignore,
  fn: () =>
    withCodex([{ kind: "drop" }], async ({ review }) => {
      const { outcome } = await review();
      assert.equal(outcome.status, "provider-error");
      assert.match(outcome.message ?? "", /stream (disconnected|closed)/);
      assert.equal(outcome.attempts.length, 1);
    }),
});

Deno.test({
  name:
    "codex: a keyring user's fallback (--ignore-user-config, provider as -c keys) reaches the custom provider",
  ignore,
  fn: () =>
    withCodex([message(APPROVE)], async ({ sb, mock, review }) => {
      const { outcome, spawns } = await review();
      assert.equal(outcome.status, "ok", `${outcome.message} ${attemptText(outcome, 1).stderr}`);
      const args = spawns[0].args;
      assert.ok(args.includes("--ignore-user-config"));
      assert.ok(args.includes('model_provider="mock"'));
      assert.equal(spawns[0].env.CODEX_HOME, sb.codexHome, "the user's own home (keyring key)");
      assert.equal(mock.turns().length, 1);
      assert.match(mock.turns()[0].headers.authorization ?? "", /^Bearer sk-mock-key$/);
    }, `cli_auth_credentials_store = "keyring"`),
});

Deno.test({
  name: "codex: a strict-mode schema error is a provider-error naming the problem, not resumed",
  ignore,
  fn: () =>
    withCodex(
      [{
        kind: "error",
        status: 400,
        code: "invalid_json_schema",
        message:
          "Invalid schema for response_format 'codex_output_schema': In context=('properties', 'summary'), 'minLength' is not permitted.",
      }],
      async ({ mock, review }) => {
        const { outcome } = await review();
        assert.equal(outcome.status, "provider-error");
        assert.equal(outcome.attempts.length, 1);
        assert.notEqual(outcome.attempts[0].exitCode, 0);
        assert.match(outcome.message ?? "", /Invalid schema for response_format/);
        assert.match(outcome.message ?? "", /minLength/);
        assert.equal(mock.turns().length, 1);
      },
    ),
});

Deno.test({
  name:
    "codex: the reviewer's shell works: `cat src/app.ts` in the read-only copy prints the file (also beside a system bwrap)",
  ignore,
  fn: () =>
    withCodex([shell("cat src/app.ts"), message(APPROVE)], async (ctx) => {
      await assertShellWorks(ctx);
    }),
});

Deno.test({
  name:
    "codex: a keyring user's fallback (their own CODEX_HOME, denied to the shell) has a working shell, except beside a system bwrap (known limit)",
  ignore,
  fn: () =>
    withCodex(
      [shell("cat src/app.ts"), message(APPROVE)],
      async (ctx) => {
        if (!systemBwrap) {
          const spawns = await assertShellWorks(ctx);
          assert.equal(spawns[0].env.CODEX_HOME, ctx.sb.codexHome, "the user's own home");
          return;
        }
        // codex links its sandbox helper into $CODEX_HOME/tmp/, which the profile denies here
        const { outcome } = await ctx.review();
        assert.equal(outcome.status, "ok", outcome.message);
        const output = functionOutputs(ctx.mock.turns()[1].body).join("\n");
        assert.match(
          output,
          /bwrap: execvp \S*\/tmp\/arg0\S*\/codex-linux-sandbox: Permission denied/,
          `codex now runs this shell beside a system bwrap: update the README and this test\n${output}`,
        );
      },
      `cli_auth_credentials_store = "keyring"`,
    ),
});

Deno.test({
  name:
    "codex: `touch x` fails inside the read-only sandbox, the review succeeds, the tree is unchanged",
  ignore,
  fn: () =>
    withCodex([shell("touch x"), message(APPROVE)], async ({ repo, mock, review }) => {
      const { outcome } = await review();
      assert.equal(outcome.status, "ok", outcome.message);
      assert.equal(await exists(join(repo, "x")), false);
      assert.match(functionOutputs(mock.turns()[1].body).join("\n"), WRITE_REFUSED);
      assert.equal(await git(repo, "status", "--porcelain", "--untracked-files=all"), "");
    }),
});

Deno.test({
  name:
    "codex: a resumed thread stays read-only although CODEX_HOME config says danger-full-access",
  ignore,
  fn: () =>
    withCodex(
      [{ kind: "message", text: "Prose, not JSON." }, shell("touch y"), message(APPROVE)],
      async ({ repo, mock, review }) => {
        const { outcome } = await review();
        assert.equal(outcome.attempts.length, 2);
        assert.equal(await exists(join(repo, "y")), false, "the resume ran with full access");
        assert.match(functionOutputs(mock.turns()[2].body).join("\n"), WRITE_REFUSED);
        assert.equal(outcome.status, "ok", outcome.message);
      },
      `sandbox_mode = "danger-full-access"`,
    ),
});

Deno.test({
  name:
    "codex (control): a plain resume with a danger-full-access config does write — why the adapter repeats the sandbox",
  ignore,
  fn: () =>
    withCodex(
      [{ kind: "message", text: "first" }, shell("touch y"), { kind: "message", text: "done" }],
      async ({ sb, repo }) => {
        const run = (args: string[]) =>
          runProcess({
            cmd: findCli("codex")!,
            args,
            cwd: repo,
            env: codexEnv(sb),
            stdin: "go",
            timeoutMs: 60_000,
          });
        const first = await run(["exec", "-C", repo, "--sandbox", "read-only", "--json", "-"]);
        const thread = threadId(new TextDecoder().decode(first.stdout));
        const second = await run(["exec", "-C", repo, "resume", "--json", thread, "-"]);
        assert.equal(second.code, 0);
        assert.equal(
          await exists(join(repo, "y")),
          true,
          "codex now keeps the sandbox on resume: update docs/providers.md",
        );
      },
      `sandbox_mode = "danger-full-access"`,
    ),
});
