/**
 * Reviewing while a real Codex session works (docs/design.md "Review while working"): with
 * `gates.codex_stop.review_while_working` on in the user's config, `main.ts install --codex` writes
 * the `PostToolUse` hook beside the turn hooks; a probe hook beside it records the exact stdin Codex
 * gives a `PostToolUse` hook. The pinned real `codex exec` runs against the loopback Responses mock:
 * the model writes a file with its shell tool and ends its turn. The payload is what our tool hook
 * reads, the tool hook reviewed the turn's change in the background, and the Stop took that verdict
 * with no model call of its own.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hookTrustHash, hookTrustKey } from "../../lib/install/codex/trust.ts";
import { parseHookPayload } from "../../lib/gates/claude/payload.ts";
import { CODEX_DOOR } from "../../lib/gates/codex/door.ts";
import {
  codexEnv,
  haveCli,
  makeRepo,
  makeSandbox,
  type Sandbox,
  warn,
  writeCodexConfig,
} from "./env.ts";
import { DENO_DIR, exists, MAIN, runMain } from "./harness.ts";
import { HALF_FIXED, runCodexSession } from "./half_session.ts";
import { type MockOpenAI, startMockOpenAI } from "../../fixtures/mock_model/responses.ts";

const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const haveMain = await exists(MAIN);
if (!haveMain) warn(`contract: ${MAIN} does not exist yet (skipping the Codex PostToolUse case)`);

async function jsonl(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** Add a probe `PostToolUse` group that appends its stdin, one line, to `file`. */
async function addProbe(sb: Sandbox, file: string): Promise<void> {
  const path = join(sb.codexHome, "hooks.json");
  const value = JSON.parse(await Deno.readTextFile(path));
  const probe = {
    hooks: [{ type: "command", command: `tr -d '\\n' >> '${file}'; echo >> '${file}'` }],
  };
  value.hooks.PostToolUse = [...(value.hooks.PostToolUse ?? []), probe];
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
}

/** Trust every hook of the three events the way Codex records it in the user's config.toml. */
async function trustAll(sb: Sandbox): Promise<void> {
  const path = join(sb.codexHome, "hooks.json");
  const hooks = JSON.parse(await Deno.readTextFile(path)).hooks;
  const lines = [""];
  for (const event of ["UserPromptSubmit", "PostToolUse", "Stop"]) {
    const groups = (hooks[event] ?? []) as { hooks: Record<string, unknown>[] }[];
    for (const [gi, group] of groups.entries()) {
      const hook = group.hooks[0];
      const hash = await hookTrustHash({
        event,
        command: String(hook.command),
        timeout: hook.timeout as number | undefined,
        statusMessage: hook.statusMessage as string | undefined,
      });
      lines.push(
        `[hooks.state."${hookTrustKey(path, event, gi, 0)}"]`,
        `trusted_hash = "${hash}"`,
        "",
      );
    }
  }
  await Deno.writeTextFile(join(sb.codexHome, "config.toml"), lines.join("\n"), { append: true });
}

Deno.test({
  name:
    "codex exec: the PostToolUse payload of a shell write is what our tool hook reads; the Stop reuses the background verdict",
  ignore: !haveMain || !haveCli("codex"),
  async fn() {
    const sb = await makeSandbox();
    let mock: MockOpenAI | undefined;
    try {
      const repo = await makeRepo(sb.dir);
      mock = startMockOpenAI([
        {
          kind: "call",
          name: "exec_command",
          args: { cmd: `printf '%s' '${HALF_FIXED}' > src/half.ts` },
        },
        { kind: "message", text: "Added half() in src/half.ts." },
      ]);
      await writeCodexConfig(sb, mock.url);
      const userConfig = join(sb.home, ".config", "review-gate");
      await Deno.mkdir(userConfig, { recursive: true });
      await Deno.writeTextFile(
        join(userConfig, "config.json"),
        JSON.stringify({ gates: { codex_stop: { review_while_working: true } } }),
      );
      const fakeLog = join(sb.dir, "fake.jsonl");
      const probeLog = join(sb.dir, "post-tool-use.jsonl");
      const env = Object.fromEntries(
        Object.entries({
          ...Deno.env.toObject(),
          ...codexEnv(sb),
          DENO_DIR,
          NO_COLOR: "1",
          REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
          REVIEW_GATE_FAKE_DENO: Deno.execPath(),
          REVIEW_GATE_FAKE_SCENARIO: "valid",
          REVIEW_GATE_FAKE_DELAY_MS: "1000",
          REVIEW_GATE_FAKE_LOG: fakeLog,
        }).filter(([k]) =>
          k !== "REVIEW_GATE" && k !== "REVIEW_GATE_CHILD" && !k.startsWith("XDG_")
        ),
      );
      await runMain(repo, ["install", "--codex"], env);
      const installed = JSON.parse(await Deno.readTextFile(join(sb.codexHome, "hooks.json")));
      assert.ok(
        String(installed.hooks.PostToolUse?.[0]?.hooks?.[0]?.command).includes("hook codex-work"),
        JSON.stringify(installed.hooks),
      );
      await addProbe(sb, probeLog);
      await trustAll(sb);

      const run = await runCodexSession(repo, env, 150_000);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /"type":"turn.completed"/);
      assert.equal(await Deno.readTextFile(join(repo, "src", "half.ts")), HALF_FIXED);

      // the payload, as Codex gave it to a PostToolUse hook, is one our tool hook takes
      const payloads = await jsonl(probeLog);
      assert.ok(payloads.length >= 1, "Codex ran the PostToolUse hooks");
      for (const raw of payloads) {
        assert.equal(raw.hook_event_name, "PostToolUse");
        for (const key of ["session_id", "cwd"]) {
          assert.equal(typeof raw[key], "string", `${key} in ${JSON.stringify(raw)}`);
        }
        const parsed = parseHookPayload(JSON.stringify(raw));
        assert.ok(parsed.ok && CODEX_DOOR.isToolUse!(parsed.payload), JSON.stringify(parsed));
        assert.equal(await Deno.realPath(String(raw.cwd)), repo);
      }

      // our tool hook reviewed in the background; the Stop took that verdict
      const runs = join(repo, ".git", "review-gate", "runs");
      const gates: string[] = [];
      for await (const entry of Deno.readDir(runs)) {
        const record = JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json")));
        gates.push(`${record.gate}:${record.status}:${record.cached}`);
      }
      assert.ok(gates.includes("codex-work:approved:false"), gates.join(", "));
      assert.ok(gates.includes("codex-stop:approved:true"), gates.join(", "));
      assert.equal((await jsonl(fakeLog)).length, 1, "one model call, made in the background");
      const [tally] = await jsonl(join(repo, ".git", "review-gate", "work", "turns.jsonl"));
      assert.deepEqual([tally.reused, tally.stopCalls, tally.wasted], [1, 0, 0]);
    } finally {
      await mock?.close();
      await sb.cleanup();
    }
  },
});
