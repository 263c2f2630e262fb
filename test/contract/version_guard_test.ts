/**
 * Version guard: the installed provider CLIs must be exactly the versions pinned in versions.ts
 * (the envelopes in docs/providers.md were verified against those). Envelope shapes are guarded by
 * shapes.ts in every case; the tests at the end prove those guards name the changed field.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runProcess } from "../../lib/exec/exec.ts";
import { copilotPkgCache, findCli, haveCli, makeSandbox } from "./env.ts";
import { assertClaudeResultShape, assertCodexEventShape } from "./shapes.ts";
import { PINNED } from "./versions.ts";

for (const name of Object.keys(PINNED) as (keyof typeof PINNED)[]) {
  Deno.test({
    name: `${name} --version is the pinned ${PINNED[name].version}`,
    ignore: !haveCli(name),
    async fn() {
      const sb = await makeSandbox();
      try {
        const result = await runProcess({
          cmd: findCli(name)!,
          args: ["--version"],
          env: {
            HOME: sb.home,
            CODEX_HOME: sb.codexHome,
            DISABLE_AUTOUPDATER: "1",
            COPILOT_PKG_CACHE_HOME: copilotPkgCache(),
          },
          timeoutMs: 30_000,
        });
        const out = new TextDecoder().decode(result.stdout).trim();
        assert.equal(result.code, 0, `${name} --version failed`);
        const version = out.match(/\d+\.\d+\.\d+/)?.[0];
        assert.equal(
          version,
          PINNED[name].version,
          `${name} is ${version ?? `"${out}"`} but the contract suite is pinned to ` +
            `${PINNED[name].version}: re-verify docs/providers.md against the new CLI, then ` +
            `update test/contract/versions.ts and scripts/install_provider_clis.sh together`,
        );
      } finally {
        await sb.cleanup();
      }
    },
  });
}

Deno.test("the install script pins the same versions as versions.ts", async () => {
  const script = await Deno.readTextFile(
    new URL("../../scripts/install_provider_clis.sh", import.meta.url),
  );
  assert.match(
    script,
    new RegExp(`CLAUDE_VERSION="${PINNED.claude.version.replaceAll(".", "\\.")}"`),
  );
  assert.match(
    script,
    new RegExp(`CODEX_VERSION="${PINNED.codex.version.replaceAll(".", "\\.")}"`),
  );
  assert.match(
    script,
    new RegExp(`QWEN_VERSION="${PINNED.qwen.version.replaceAll(".", "\\.")}"`),
  );
  assert.match(
    script,
    new RegExp(`GEMINI_VERSION="${PINNED.gemini.version.replaceAll(".", "\\.")}"`),
  );
  assert.match(
    script,
    new RegExp(`COPILOT_VERSION="${PINNED.copilot.version.replaceAll(".", "\\.")}"`),
  );
  assert.match(
    script,
    new RegExp(`OPENCODE_VERSION="${PINNED.opencode.version.replaceAll(".", "\\.")}"`),
  );
});

/**
 * A Claude result as 2.1.332 prints it (docs/providers.md "Claude Code result envelope";
 * fixtures/provider-samples/claude-structured-ok.json).
 */
const CLAUDE_OK = {
  type: "result",
  subtype: "success",
  is_error: false,
  api_error_status: null,
  num_turns: 2,
  result: "",
  session_id: "0b6c1f52-0000-4000-8000-000000000000",
  total_cost_usd: 0.01,
  usage: { input_tokens: 10, output_tokens: 20 },
  structured_output: { verdict: "approve" },
};

Deno.test("assertClaudeResultShape() names the envelope field a new CLI version changed", async (t) => {
  assert.equal(assertClaudeResultShape(JSON.stringify(CLAUDE_OK)).session_id, CLAUDE_OK.session_id);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "renamed session_id",
      { session_id: undefined, sessionId: "x" },
      /field "session_id" is missing, expected string/,
    ],
    ["num_turns as text", { num_turns: "2" }, /field "num_turns" is a string, expected number/],
    ["usage dropped", { usage: undefined }, /field "usage" is missing, expected object/],
    ["new subtype", { subtype: "error_quota" }, /unknown "subtype" "error_quota"/],
    ["type renamed", { type: "final" }, /field "type" is "final", expected "result"/],
    [
      "structured_output as text",
      { structured_output: "{}" },
      /field "structured_output" is a string, expected object/,
    ],
    [
      "errors missing on an error",
      { subtype: "error_max_turns", is_error: true },
      /field "errors" is missing, expected array/,
    ],
    [
      "api_error_status as text",
      { api_error_status: "500" },
      /field "api_error_status" is a string/,
    ],
  ];
  for (const [name, patch, message] of cases) {
    await t.step(name, () => {
      const changed = JSON.stringify({ ...CLAUDE_OK, ...patch });
      assert.throws(() => assertClaudeResultShape(changed), (e: Error) => {
        assert.match(
          e.message,
          new RegExp(`^Claude Code ${PINNED.claude.version} envelope shape changed`),
        );
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

const CODEX_OK = [
  { type: "thread.started", thread_id: "019a-thread" },
  { type: "turn.started" },
  { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "{}" } },
  { type: "turn.completed", usage: { input_tokens: 1, output_tokens: 1 } },
];

Deno.test("assertCodexEventShape() names the event field a new CLI version changed", async (t) => {
  const jsonl = (events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n");
  assert.equal(assertCodexEventShape(jsonl(CODEX_OK)).length, 4);
  const cases: [string, unknown[], RegExp][] = [
    [
      "thread id renamed",
      [{ type: "thread.started", id: "x" }, ...CODEX_OK.slice(1)],
      /thread\.started field "thread_id" is missing/,
    ],
    ["message text renamed", [CODEX_OK[0], {
      type: "item.completed",
      item: { type: "agent_message", content: "{}" },
    }], /agent_message field "item.text" is missing, expected string/],
    [
      "turn.failed error as text",
      [CODEX_OK[0], { type: "turn.failed", error: "boom" }],
      /turn\.failed field "error\.message" is missing/,
    ],
    [
      "new event type",
      [CODEX_OK[0], { type: "turn.aborted" }],
      /unknown event type "turn\.aborted"/,
    ],
    [
      "new item type",
      [CODEX_OK[0], { type: "item.completed", item: { type: "plan" } }],
      /unknown item type "plan"/,
    ],
  ];
  for (const [name, events, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => assertCodexEventShape(jsonl(events)), (e: Error) => {
        assert.match(
          e.message,
          new RegExp(`^codex-cli ${PINNED.codex.version} event shape changed`),
        );
        assert.match(e.message, message);
        return true;
      });
    });
  }
});
