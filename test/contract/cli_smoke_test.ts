/**
 * Smoke tests of the raw pinned CLIs against the loopback mocks, with argv copied from
 * docs/providers.md (not from our adapters): proves the mocks and the environment before the
 * adapter cases rely on them, and guards the envelope shapes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../../lib/exec/exec.ts";
import {
  claudeEnv,
  codexEnv,
  findCli,
  haveCli,
  makeRepo,
  makeSandbox,
  writeCodexConfig,
} from "./env.ts";
import { startMockAnthropic, structured } from "../../fixtures/mock_model/anthropic.ts";
import { startMockOpenAI } from "../../fixtures/mock_model/responses.ts";
import { assertClaudeResultShape, assertCodexEventShape } from "./shapes.ts";

const SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["verdict", "summary"],
  properties: {
    verdict: { type: "string", enum: ["approve", "needs-attention"] },
    summary: { type: "string" },
  },
};
const ANSWER = { verdict: "approve", summary: "Looks fine." };
const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test({
  name: "claude -p --json-schema answers through the Anthropic mock with structured_output",
  ignore: !haveCli("claude"),
  async fn() {
    const sb = await makeSandbox();
    const mock = startMockAnthropic([structured(ANSWER)]);
    try {
      const repo = await makeRepo(sb.dir);
      const result = await runProcess({
        cmd: findCli("claude")!,
        args: [
          "-p",
          "--output-format",
          "json",
          "--json-schema",
          JSON.stringify(SCHEMA),
          "--setting-sources",
          "",
          "--strict-mcp-config",
          "--tools",
          "Read,Grep,Glob,Bash",
          "--allowedTools",
          "Bash(git log:*),Bash(git diff:*)",
          "--disallowedTools",
          "Write,Edit,NotebookEdit,WebFetch,WebSearch",
          "--permission-mode",
          "dontAsk",
          "--max-turns",
          "4",
        ],
        cwd: repo,
        env: claudeEnv(sb, mock.url),
        stdin: "SMOKE-PROMPT-1234",
        timeoutMs: 60_000,
      });
      assert.equal(result.code, 0, text(result.stderr));
      const envelope = assertClaudeResultShape(text(result.stdout));
      assert.equal(envelope.subtype, "success");
      assert.equal(envelope.is_error, false);
      assert.deepEqual(envelope.structured_output, ANSWER);
      const [main] = mock.mainRequests();
      const tools = main.body!.tools as { name: string; input_schema: unknown }[];
      assert.deepEqual(tools.find((t) => t.name === "StructuredOutput")?.input_schema, SCHEMA);
      assert.ok(JSON.stringify(main.body!.messages).includes("SMOKE-PROMPT-1234"));
    } finally {
      await mock.close();
      await sb.cleanup();
    }
  },
});

Deno.test({
  name: "codex exec --output-schema answers through the Responses mock configured in CODEX_HOME",
  ignore: !haveCli("codex"),
  async fn() {
    const sb = await makeSandbox();
    const mock = startMockOpenAI([{ kind: "message", text: JSON.stringify(ANSWER) }]);
    try {
      const repo = await makeRepo(sb.dir);
      await writeCodexConfig(sb, mock.url);
      const schemaPath = join(sb.dir, "answer.schema.json");
      await Deno.writeTextFile(schemaPath, JSON.stringify(SCHEMA));
      const result = await runProcess({
        cmd: findCli("codex")!,
        args: [
          "exec",
          "-C",
          repo,
          "--sandbox",
          "read-only",
          "-c",
          'approval_policy="never"',
          "--json",
          "--output-schema",
          schemaPath,
          "-o",
          join(sb.dir, "last.txt"),
          "-",
        ],
        cwd: repo,
        env: codexEnv(sb),
        stdin: "SMOKE-PROMPT-5678",
        timeoutMs: 60_000,
      });
      assert.equal(result.code, 0, text(result.stderr));
      const events = assertCodexEventShape(text(result.stdout));
      const messages = events.filter((e) =>
        e.type === "item.completed" && (e.item as { type: string }).type === "agent_message"
      );
      assert.equal((messages.at(-1)!.item as { text: string }).text, JSON.stringify(ANSWER));
      assert.ok(events.some((e) => e.type === "turn.completed"));
      assert.equal(await Deno.readTextFile(join(sb.dir, "last.txt")), JSON.stringify(ANSWER));
      const [turn] = mock.turns();
      assert.deepEqual((turn.body!.text as { format: unknown }).format, {
        type: "json_schema",
        strict: true,
        schema: SCHEMA,
        name: "codex_output_schema",
      });
      assert.ok(JSON.stringify(turn.body!.input).includes("SMOKE-PROMPT-5678"));
      assert.equal(turn.headers.authorization, "Bearer sk-mock-key");
    } finally {
      await mock.close();
      await sb.cleanup();
    }
  },
});
