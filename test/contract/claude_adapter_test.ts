/**
 * Contract cases for the Claude Code adapter (issue 3): our real adapter + `callStructured` +
 * decoder + read-only proof, driving the real pinned `claude` binary against the Anthropic mock.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { dialectText } from "../../lib/answer/dialect.ts";
import { canonicalSchema } from "../../lib/kinds/registry.ts";
import { runProcess } from "../../lib/exec/exec.ts";
import { claudeEnv, findCli, haveCli, type Sandbox } from "./env.ts";
import {
  APPROVE,
  attemptText,
  type CaseContext,
  DEFAULT_PROMPT,
  exists,
  NEEDS_ATTENTION,
  withCase,
} from "./harness.ts";
import {
  bash,
  type ClaudeTurn,
  type MockAnthropic,
  startMockAnthropic,
  structured,
} from "../../fixtures/mock_model/anthropic.ts";
import { assertClaudeResultShape } from "./shapes.ts";

const ignore = !haveCli("claude");

function withClaude(
  turns: ClaudeTurn[],
  fn: (ctx: CaseContext<MockAnthropic>) => Promise<void>,
): Promise<void> {
  return withCase({ provider: "claude", startMock: () => startMockAnthropic(turns) }, fn);
}

type Tool = { name: string; input_schema: unknown };

function toolResults(
  body: Record<string, unknown> | null,
): { content: unknown; is_error?: boolean }[] {
  const messages = (body?.messages ?? []) as { role: string; content: unknown }[];
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as { type: string; content: unknown; is_error?: boolean }[]).filter((c) =>
        c.type === "tool_result"
      )
      : []
  );
}

Deno.test({
  name: "claude: a valid StructuredOutput is approved with our full confined argv, in the copy",
  ignore,
  fn: () =>
    withClaude([structured(APPROVE)], async ({ repo, mock, review }) => {
      const { outcome, spawns } = await review();
      assert.equal(outcome.status, "ok", outcome.message);
      assert.equal(outcome.answer?.verdict, "approve");
      assert.equal(outcome.attempts.length, 1);
      assert.equal(outcome.attempts[0].exitCode, 0);
      const envelope = assertClaudeResultShape(attemptText(outcome, 1).stdout);
      assert.equal(outcome.sessionId, envelope.session_id);
      // our argv, accepted by the real parser
      const args = spawns[0].args;
      for (
        const flag of [
          "--setting-sources",
          "--settings",
          "--strict-mcp-config",
          "--restricted",
          "--disable-slash-commands",
          "--permission-mode",
        ]
      ) {
        assert.ok(args.includes(flag), `argv lacks ${flag}`);
      }
      assert.equal(args[args.indexOf("--setting-sources") + 1], "");
      assert.equal(args[args.indexOf("--tools") + 1], "Read,Grep,Glob");
      assert.equal(spawns[0].stdin, DEFAULT_PROMPT);
      assert.ok(spawns[0].cwd?.endsWith("/tree") && spawns[0].cwd !== repo, "runs in the copy");
      // what Claude Code sent: our Claude dialect as the StructuredOutput tool, the prompt
      const [main] = mock.mainRequests();
      const tools = main.body!.tools as Tool[];
      assert.deepEqual(
        tools.find((t) => t.name === "StructuredOutput")?.input_schema,
        JSON.parse(dialectText(await canonicalSchema("review"), "without-root-ids")),
      );
      assert.deepEqual(
        tools.map((t) => t.name).filter((n) =>
          ["Write", "Edit", "WebFetch", "NotebookEdit", "Bash", "Skill", "Task"].includes(n)
        ),
        [],
      );
      assert.ok(JSON.stringify(main.body!.messages).includes("CONTRACT-PROMPT-MARKER-7f3a"));
    }),
});

Deno.test({
  name: "claude: a needs-attention StructuredOutput is decoded with its finding",
  ignore,
  fn: () =>
    withClaude([structured(NEEDS_ATTENTION)], async ({ review }) => {
      const { outcome } = await review();
      assert.equal(outcome.status, "ok", outcome.message);
      assert.equal(outcome.answer?.verdict, "needs-attention");
      assert.equal(outcome.answer?.findings[0].file, "src/app.ts");
    }),
});

Deno.test({
  name:
    "claude: prose without StructuredOutput is refused, resumed in the same session, then accepted",
  ignore,
  fn: () =>
    withClaude(
      // Claude Code nudges once by itself ("[structured-output-enforce]"), so prose twice
      [
        { kind: "text", text: "The change looks fine to me." },
        { kind: "text", text: "Still fine." },
        structured(APPROVE),
      ],
      async ({ mock, review }) => {
        const { outcome, spawns } = await review();
        assert.equal(outcome.status, "ok", outcome.message);
        assert.equal(outcome.attempts.length, 2);
        assert.equal(outcome.attempts[0].outcome, "refused");
        const first = assertClaudeResultShape(attemptText(outcome, 1).stdout);
        assert.equal(first.subtype, "success");
        assert.equal("structured_output" in first, false);
        const second = assertClaudeResultShape(attemptText(outcome, 2).stdout);
        assert.equal(second.session_id, first.session_id, "resume must keep the session id");
        const resumeArgs = spawns[1].args;
        assert.equal(resumeArgs[resumeArgs.indexOf("--resume") + 1], first.session_id);
        assert.ok(resumeArgs.includes("--json-schema"), "resume must pass every flag again");
        assert.ok(resumeArgs.includes("--restricted") && resumeArgs.includes("--settings"));
        // the corrective prompt reached the model, with the earlier conversation
        const mains = mock.mainRequests();
        assert.equal(mains.length, 3);
        assert.ok(JSON.stringify(mains[1].body!.messages).includes("[structured-output-enforce]"));
        const sent = JSON.stringify(mains[2].body!.messages);
        assert.ok(sent.includes("without the StructuredOutput tool"), "corrective prompt not sent");
        assert.ok(sent.includes("The change looks fine to me."), "resume lost the conversation");
        assert.equal(outcome.answer?.verdict, "approve");
        // total_cost_usd and modelUsage are session running totals on a resume (the top-level
        // usage is this invocation only): the call counts the session once, never the sum.
        const totals = (r: Record<string, unknown>) => ({
          cost: r.total_cost_usd as number,
          model: Object.values(r.modelUsage as Record<string, Record<string, number>>)[0],
        });
        const [one, two] = [totals(first), totals(second)];
        assert.ok(two.cost > one.cost, "the resume's total_cost_usd includes the first attempt");
        assert.ok(two.model.inputTokens > one.model.inputTokens, "modelUsage is cumulative");
        assert.equal(outcome.costUsd, two.cost);
        assert.equal(outcome.usage?.inputTokens, two.model.inputTokens);
        assert.equal(outcome.usage?.outputTokens, two.model.outputTokens);
      },
    ),
});

Deno.test({
  name: "claude: schema-invalid tool input until retries run out is a provider-error, not resumed",
  ignore,
  fn: () =>
    withClaude(
      Array.from({ length: 8 }, () => structured({ ...APPROVE, verdict: "maybe" })),
      async ({ review }) => {
        const { outcome } = await review();
        assert.equal(outcome.status, "provider-error");
        assert.equal(outcome.attempts.length, 1, "never resumed");
        const envelope = assertClaudeResultShape(attemptText(outcome, 1).stdout);
        assert.equal(envelope.subtype, "error_max_structured_output_retries");
        assert.match(outcome.message ?? "", /error_max_structured_output_retries/);
      },
    ),
});

for (const status of [500, 429]) {
  Deno.test({
    name: `claude: HTTP ${status} from the API is a provider-error, not resumed`,
    ignore,
    fn: () =>
      withClaude(
        [{ kind: "error", status, type: status === 429 ? "rate_limit_error" : "api_error" }],
        async ({ review }) => {
          const { outcome } = await review();
          assert.equal(outcome.status, "provider-error");
          assert.equal(outcome.attempts.length, 1);
          const envelope = assertClaudeResultShape(attemptText(outcome, 1).stdout);
          assert.equal(envelope.is_error, true);
          assert.equal(envelope.api_error_status, status);
          assert.match(outcome.message ?? "", new RegExp(String(status)));
        },
      ),
  });
}

Deno.test({
  name: "claude: running out of turns is a provider-error, not resumed",
  ignore,
  fn: () =>
    withClaude(
      Array.from(
        { length: 4 },
        (): ClaudeTurn => ({ kind: "tool", name: "Read", input: { file_path: "README.md" } }),
      ),
      async ({ review }) => {
        const { outcome } = await review({ maxTurns: 1 });
        assert.equal(outcome.status, "provider-error");
        assert.equal(outcome.attempts.length, 1);
        const envelope = assertClaudeResultShape(attemptText(outcome, 1).stdout);
        assert.equal(envelope.subtype, "error_max_turns");
        assert.match(outcome.message ?? "", /error_max_turns/);
      },
    ),
});

Deno.test({
  name: "claude: Write and `touch x` are denied by Claude Code and the review still succeeds",
  ignore,
  fn: () =>
    withClaude([], async ({ repo, mock, review }) => {
      mock.push(
        { kind: "tool", name: "Write", input: { file_path: join(repo, "w.txt"), content: "x\n" } },
        bash("touch x"),
        structured(APPROVE),
      );
      const { outcome } = await review();
      assert.equal(outcome.status, "ok", outcome.message);
      assert.equal(await exists(join(repo, "w.txt")), false);
      assert.equal(await exists(join(repo, "x")), false);
      const mains = mock.mainRequests();
      const results = toolResults(mains.at(-1)!.body);
      assert.ok(results.length >= 2, "both tool calls got a result");
      assert.ok(results.every((r) => r.is_error === true), JSON.stringify(results));
      const envelope = assertClaudeResultShape(attemptText(outcome, 1).stdout);
      assert.ok(Array.isArray(envelope.permission_denials));
    }),
});

Deno.test({
  name:
    "claude: `git log --output=x` (a write hole of the old git allow-list) is refused: no Bash at all",
  ignore,
  fn: () =>
    withClaude(
      [bash("git log --output=leak.txt"), structured(APPROVE)],
      async ({ repo, mock, review }) => {
        const { outcome } = await review();
        assert.equal(await exists(join(repo, "leak.txt")), false);
        const results = toolResults(mock.mainRequests().at(-1)!.body);
        assert.ok(results.length >= 1 && results.every((r) => r.is_error === true));
        assert.equal(outcome.status, "ok", outcome.message);
        assert.equal(mock.pending(), 0);
      },
    ),
});

Deno.test({
  name:
    "claude: a trusted repo's .claude/settings.json allowing Write with a Stop hook widens nothing",
  ignore,
  fn: () =>
    withClaude([], async ({ sb, repo, mock, review }) => {
      const marker = await writeTrustedRepoSettings(sb, repo);
      mock.push(
        { kind: "tool", name: "Write", input: { file_path: join(repo, "w.txt"), content: "x\n" } },
        bash("touch x"),
        structured(APPROVE),
      );
      const { outcome } = await review();
      assert.equal(await exists(join(repo, "w.txt")), false, "Write was allowed");
      assert.equal(await exists(join(repo, "x")), false, "touch was allowed");
      assert.equal(await exists(marker), false, "the repo's hook ran");
      // .claude/ is untracked: the proof saw it before and after, unchanged
      assert.equal(outcome.status, "ok", outcome.message);
    }),
});

Deno.test({
  name:
    'claude (control): without --setting-sources "" the same repo settings allow Write and run the hook',
  ignore,
  fn: () =>
    withClaude([], async ({ sb, repo, mock }) => {
      const marker = await writeTrustedRepoSettings(sb, repo);
      mock.push(
        { kind: "tool", name: "Write", input: { file_path: join(repo, "w.txt"), content: "x\n" } },
        { kind: "text", text: "done" },
      );
      const result = await runProcess({
        cmd: findCli("claude")!,
        args: [
          "-p",
          "--output-format",
          "json",
          "--tools",
          "Read,Write",
          "--permission-mode",
          "dontAsk",
        ],
        cwd: repo,
        env: claudeEnv(sb, mock.url),
        stdin: "go",
        timeoutMs: 60_000,
      });
      assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
      assert.equal(
        await exists(marker),
        true,
        "project hooks no longer run: update docs/providers.md",
      );
      assert.equal(await exists(join(repo, "w.txt")), true, "trusted allow rules no longer apply");
    }),
});

/** A trusted repo whose .claude/settings.json allows Write and touch and has hooks; returns the hook marker path. */
async function writeTrustedRepoSettings(sb: Sandbox, repo: string): Promise<string> {
  const marker = join(sb.dir, "stop-hook-ran");
  await Deno.mkdir(join(repo, ".claude"));
  await Deno.writeTextFile(
    join(repo, ".claude", "settings.json"),
    JSON.stringify({
      permissions: { allow: ["Write", "Bash(touch:*)"], defaultMode: "bypassPermissions" },
      hooks: {
        Stop: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }],
      },
    }),
  );
  // mark the repo trusted in the throwaway user config, so only --setting-sources protects us
  await Deno.writeTextFile(
    join(sb.home, ".claude.json"),
    JSON.stringify({ projects: { [repo]: { hasTrustDialogAccepted: true } } }),
  );
  return marker;
}
