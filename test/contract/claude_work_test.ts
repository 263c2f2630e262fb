/**
 * Reviewing while the agent works, inside a real Claude Code session (docs/design.md "Review while
 * working", docs/providers.md "Claude Code hooks"): `main.ts install --claude` with
 * `gates.claude_stop.review_while_working` on (its default) writes the `PostToolUse` hook, and a probe hook beside
 * it records the exact stdin Claude Code gives a `PostToolUse` hook. The pinned real `claude -p`
 * runs against the loopback Anthropic mock: the model writes a file (Write), runs a shell command
 * (Bash), and ends its turn. The test proves the payload shape our parser relies on, for both tools
 * — `hook_event_name`, `session_id` (the Stop's), `cwd`, `tool_name`, `tool_input`,
 * `tool_response`, `tool_use_id` — that our tool hook started the background review (a run of gate
 * `claude-work`, the fake reviewer's call made outside the Stop), and that the Stop reused its
 * verdict (the Stop asked no model; the turn's tally says reused).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeEnv, findCli, haveCli, makeRepo, makeSandbox, warn } from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain } from "./harness.ts";
import { type ClaudeTurn, startMockAnthropic } from "../../fixtures/mock_model/anthropic.ts";
import { parseHookPayload } from "../../lib/gates/claude/payload.ts";
import { CLAUDE_DOOR } from "../../lib/gates/claude/door.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the PostToolUse case)`);

async function jsonl(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** Add a probe `PostToolUse` hook (every tool) that appends its stdin, one line, to `file`. */
async function addProbe(settingsPath: string, file: string): Promise<void> {
  const settings = JSON.parse(await Deno.readTextFile(settingsPath));
  const probe = {
    hooks: [{ type: "command", command: `{ cat; echo; } >> '${file}'` }],
  };
  settings.hooks.PostToolUse = [...(settings.hooks.PostToolUse ?? []), probe];
  await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2) + "\n");
}

Deno.test({
  name:
    "claude -p: PostToolUse payloads of Write and Bash are what our tool hook reads; the Stop reuses the background verdict",
  ignore: !haveMain || !haveCli("claude"),
  fn: async () => {
    const sb = await makeSandbox();
    const repo = await makeRepo(sb.dir);
    const file = join(repo, "src", "work.ts");
    const turns: ClaudeTurn[] = [
      { kind: "tool", name: "Write", input: { file_path: file, content: "export const w = 1;\n" } },
      { kind: "tool", name: "Bash", input: { command: "true", description: "run" } },
      { kind: "text", text: "Added src/work.ts." },
    ];
    const mock = startMockAnthropic(turns);
    const fakeLog = join(sb.dir, "fake.jsonl");
    const probeLog = join(sb.dir, "post-tool-use.jsonl");
    try {
      // no config: gates.claude_stop.review_while_working is on by default
      const env = {
        ...claudeEnv(sb, mock.url),
        DENO_DIR,
        NO_COLOR: "1",
        REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
        REVIEW_GATE_FAKE_DENO: Deno.execPath(),
        REVIEW_GATE_FAKE_SCENARIO: "valid",
        REVIEW_GATE_FAKE_DELAY_MS: "1000",
        REVIEW_GATE_FAKE_LOG: fakeLog,
      };
      await runMain(repo, ["install", "--claude"], env);
      const settingsPath = join(repo, ".claude", "settings.local.json");
      const installed = JSON.parse(await Deno.readTextFile(settingsPath));
      assert.equal(
        installed.hooks.PostToolUse[0].matcher,
        "Edit|Write|MultiEdit|NotebookEdit|Bash",
      );
      await addProbe(settingsPath, probeLog);
      const out = await new Deno.Command(findCli("claude")!, {
        args: [
          ...["-p", "--output-format", "json", "--permission-mode", "acceptEdits"],
          ...["--allowedTools", "Write,Edit,Bash", "--max-turns", "8"],
          "Add src/work.ts.",
        ],
        cwd: repo,
        env: Object.fromEntries(
          Object.entries({ ...Deno.env.toObject(), ...env }).filter(([k]) =>
            k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD"
          ),
        ),
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const envelope = JSON.parse(stdout);
      assert.equal(envelope.subtype, "success", stdout);

      // the payloads, as Claude Code gave them to a PostToolUse hook
      const payloads = await jsonl(probeLog);
      assert.deepEqual(payloads.map((p) => p.tool_name), ["Write", "Bash"]);
      for (const raw of payloads) {
        for (const key of ["session_id", "cwd", "tool_use_id", "transcript_path"]) {
          assert.equal(typeof raw[key], "string", `${key} in ${JSON.stringify(raw)}`);
        }
        assert.equal(raw.hook_event_name, "PostToolUse");
        assert.equal(typeof raw.tool_input, "object");
        assert.ok(raw.tool_response !== undefined, "tool_response present");
        assert.equal(raw.session_id, envelope.session_id, "the session the Stop gate knows");
        const parsed = parseHookPayload(JSON.stringify(raw));
        assert.ok(parsed.ok && CLAUDE_DOOR.isToolUse!(parsed.payload), JSON.stringify(parsed));
        assert.equal(await Deno.realPath(String(raw.cwd)), await Deno.realPath(repo));
      }
      assert.equal((payloads[0].tool_input as Record<string, unknown>).file_path, file);
      assert.equal((payloads[1].tool_input as Record<string, unknown>).command, "true");

      // our tool hook reviewed in the background; the Stop took that verdict
      const runs = join(repo, ".git", "review-gate", "runs");
      const gates: string[] = [];
      for await (const entry of Deno.readDir(runs)) {
        const record = JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json")));
        gates.push(`${record.gate}:${record.status}:${record.cached}`);
      }
      assert.ok(gates.includes("claude-work:approved:false"), gates.join(", "));
      assert.ok(gates.includes("claude-stop:approved:true"), gates.join(", "));
      assert.equal((await jsonl(fakeLog)).length, 1, "one model call, made in the background");
      const [tally] = await jsonl(join(repo, ".git", "review-gate", "work", "turns.jsonl"));
      assert.deepEqual([tally.reused, tally.stopCalls, tally.wasted], [1, 0, 0]);
    } finally {
      await mock.close();
      await sb.cleanup();
    }
  },
});
