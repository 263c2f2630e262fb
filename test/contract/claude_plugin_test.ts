/**
 * review-gate as a Claude Code plugin, in the pinned real Claude Code against the loopback
 * Anthropic mock: `claude plugin validate --strict` accepts the repository (plugin and marketplace)
 * and lists its hooks, commands and launcher; `claude plugin install review-gate --marketplace
 * <this checkout>` installs it into a throwaway HOME; in a session started without any flag the
 * plugin's PostToolUse hook reviews each Write in the background and its Stop hook takes that
 * verdict (fake provider as reviewer), blocks, Claude continues with
 * our reason and fixes the file; `review-gate install --claude` then refuses, naming the plugin;
 * with the settings hooks installed first and the plugin after, both Stop hooks run and the stop is
 * still reviewed and blocked once (the losing hook's claim is on disk); a
 * `/review-gate:review` slash command runs a real review whose reviewer is the real claude against
 * the same mock (the mock gets the structured review request, then the outer model gets the
 * rendered review). Facts: docs/providers.md "Claude Code hooks", the researcher's plugin notes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeEnv, findCli, haveCli, makeRepo, makeSandbox, type Sandbox } from "./env.ts";
import { DENO_DIR, exists, MAIN } from "./harness.ts";
import {
  type ClaudeTurn,
  startMockAnthropic,
  structured,
} from "../../fixtures/mock_model/anthropic.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const FAKE_CLAUDE = new URL("../../fixtures/fake/bin/claude", import.meta.url).pathname;
const ignore = !haveCli("claude") || !await exists(join(ROOT, ".claude-plugin", "plugin.json"));

const BUGGY = "export function half(n: number): number {\n  return n * 2;\n}\n";
const FIXED = "export function half(n: number): number {\n  return n / 2;\n}\n";
const HALF_FINDING = {
  severity: "high",
  category: "bug",
  scope: "introduced",
  title: "half() multiplies instead of dividing",
  body: "`n * 2` doubles the value.",
  file: "src/half.ts",
  line_start: 2,
  line_end: 2,
  confidence: 0.95,
  recommendation: "Return n / 2.",
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment every process of a case gets (never our skip switches). */
function baseEnv(sb: Sandbox, mockUrl: string, extra: Record<string, string>) {
  const env = {
    ...Deno.env.toObject(),
    ...claudeEnv(sb, mockUrl),
    DENO_DIR,
    NO_COLOR: "1",
    ...extra,
  };
  delete (env as Record<string, string>).REVIEW_GATE;
  delete (env as Record<string, string>).REVIEW_GATE_CHILD;
  return env;
}

async function run(
  cmd: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string },
): Promise<Run> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, 180_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

function claude(
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string },
) {
  return run(findCli("claude")!, args, options);
}

/** Install the plugin from this checkout (its own marketplace) into the sandbox HOME. */
async function installPlugin(sb: Sandbox, env: Record<string, string>): Promise<void> {
  const out = await claude(["plugin", "install", "review-gate", "--marketplace", ROOT, "--json"], {
    cwd: sb.dir,
    env,
  });
  assert.equal(out.code, 0, out.stderr + out.stdout);
  const result = JSON.parse(out.stdout.trim().split("\n").at(-1)!);
  assert.equal(result.outcome, "ok", out.stdout);
  assert.equal(result.plugin, "review-gate@review-gate");
  const settings = JSON.parse(await Deno.readTextFile(join(sb.home, ".claude", "settings.json")));
  assert.equal(settings.enabledPlugins["review-gate@review-gate"], true);
  const installed = JSON.parse(
    await Deno.readTextFile(join(sb.home, ".claude", "plugins", "installed_plugins.json")),
  );
  assert.equal(installed.plugins["review-gate@review-gate"][0].scope, "user");
}

/** True when a Stop hook lost a claim in some session: the stop's hook ran twice. */
async function lostAClaim(repo: string): Promise<boolean> {
  const sessions = join(repo, ".git", "review-gate", "sessions");
  for await (const entry of Deno.readDir(sessions)) {
    if (entry.name.endsWith(".claims") && await exists(join(sessions, entry.name, "twice-noted"))) {
      return true;
    }
  }
  return false;
}

/**
 * The statuses of the runs of one gate (`claude-stop`; `claude-work`: reviewed while working;
 * `null`: a review by hand).
 */
async function runStatuses(repo: string, gate: string | null = "claude-stop"): Promise<string[]> {
  const runs = join(repo, ".git", "review-gate", "runs");
  const statuses: string[] = [];
  for await (const entry of Deno.readDir(runs)) {
    const run = JSON.parse(await Deno.readTextFile(join(runs, entry.name, "run.json")));
    if ((run.gate ?? null) === gate) statuses.push(run.status);
  }
  return statuses.sort();
}

function messagesText(body: Record<string, unknown> | null): string {
  return JSON.stringify(body?.messages ?? []);
}

async function withCase(
  turns: (repo: string) => ClaudeTurn[],
  fn: (
    c: { sb: Sandbox; repo: string; mock: ReturnType<typeof startMockAnthropic> },
  ) => Promise<void>,
) {
  const sb = await makeSandbox();
  let mock: ReturnType<typeof startMockAnthropic> | undefined;
  try {
    const repo = await makeRepo(sb.dir);
    mock = startMockAnthropic(turns(repo));
    await fn({ sb, repo, mock });
  } finally {
    await mock?.close();
    await sb.cleanup();
  }
}

Deno.test({
  name: "claude plugin validate --strict accepts the repository as a plugin and as its marketplace",
  ignore,
  fn: async () => {
    const sb = await makeSandbox();
    try {
      const env = baseEnv(sb, "http://127.0.0.1:9", {});
      for (const target of [ROOT, join(ROOT, ".claude-plugin", "plugin.json")]) {
        const out = await claude(["plugin", "validate", "--strict", "--json", target], {
          cwd: sb.dir,
          env,
        });
        assert.equal(out.code, 0, out.stdout + out.stderr);
        const report = JSON.parse(out.stdout);
        assert.equal(report.success, true);
        assert.deepEqual(report.manifest.errors, []);
        assert.deepEqual(report.manifest.warnings, []);
        assert.deepEqual(report.provides.hooks.map((h: { event: string }) => h.event), [
          "UserPromptSubmit",
          "PostToolUse",
          "Stop",
        ]);
        assert.deepEqual(report.provides.bin, ["review-gate"]);
        if (target !== ROOT) {
          assert.deepEqual(report.provides.commands.sort(), [
            "review-gate:cancel",
            "review-gate:compliance",
            "review-gate:jobs",
            "review-gate:result",
            "review-gate:review",
            "review-gate:status",
          ]);
        }
      }
    } finally {
      await sb.cleanup();
    }
  },
});

/** review-gate's CLI from this checkout, as a user runs it. */
function reviewGate(args: string[], options: { cwd: string; env: Record<string, string> }) {
  return run(Deno.execPath(), ["run", "--allow-all", "--quiet", MAIN, ...args], options);
}

/**
 * One Claude session in a throwaway repo with the plugin installed from this checkout: the model
 * writes a buggy half(), stops (the fake reviewer finds the bug: blocked), fixes it, stops again
 * (approved). `before` runs after the repo exists and before the plugin is installed.
 */
async function stopCase(
  check: (
    c: { sb: Sandbox; repo: string; env: Record<string, string>; calls: number },
  ) => void | Promise<void>,
  before?: (c: { repo: string; env: Record<string, string> }) => Promise<void>,
) {
  const halfOf = (repo: string) => join(repo, "src", "half.ts");
  await withCase((repo) => [
    { kind: "tool", name: "Write", input: { file_path: halfOf(repo), content: BUGGY } },
    { kind: "text", text: "Added half() in src/half.ts." },
    { kind: "tool", name: "Write", input: { file_path: halfOf(repo), content: FIXED } },
    { kind: "text", text: "Fixed half() to divide by two." },
  ], async ({ sb, repo, mock }) => {
    const scenario = join(sb.dir, "scenario.json");
    await Deno.writeTextFile(
      scenario,
      JSON.stringify({
        steps: [{
          kind: "valid",
          answer: {
            verdict: "needs-attention",
            summary: "half() doubles.",
            findings: [HALF_FINDING],
            next_steps: [],
          },
        }, { kind: "valid" }],
      }),
    );
    const fakeLog = join(sb.dir, "fake.jsonl");
    const env = baseEnv(sb, mock.url, {
      REVIEW_GATE_CLAUDE_BIN: FAKE_CLAUDE,
      REVIEW_GATE_FAKE_DENO: Deno.execPath(),
      REVIEW_GATE_FAKE_SCENARIO: scenario,
      REVIEW_GATE_FAKE_LOG: fakeLog,
    });
    await before?.({ repo, env });
    await installPlugin(sb, env);
    const out = await claude([
      "-p",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
      "--allowedTools",
      "Write,Edit",
      "--max-turns",
      "8",
    ], { cwd: repo, env, stdin: "Add a half() helper in src/half.ts." });
    assert.equal(out.code, 0, out.stderr);
    const envelope = JSON.parse(out.stdout);
    assert.equal(envelope.subtype, "success", out.stdout);
    const main = mock.mainRequests();
    assert.equal(main.length, 4, "write, stop (blocked), fix, stop");
    const feedback = messagesText(main[2].body);
    assert.equal(
      feedback.split("Stop hook feedback:").length - 1,
      1,
      `blocked by exactly one hook: ${feedback}`,
    );
    assert.match(feedback, /Stop hook feedback:\\nreview-gate found 1 blocking finding/);
    assert.ok(feedback.includes("[high] src/half.ts:2 half() multiplies"));
    assert.equal(await Deno.readTextFile(halfOf(repo)), FIXED);
    assert.deepEqual(await runStatuses(repo), ["approved", "needs-attention"]);
    // the plugin's PostToolUse hook reviewed each Write in the background (review_while_working is
    // on by default), and each Stop took that verdict: still one model call per stop
    assert.deepEqual(await runStatuses(repo, "claude-work"), ["approved", "needs-attention"]);
    const calls = (await Deno.readTextFile(fakeLog)).trim().split("\n").map((l) => JSON.parse(l));
    for (const call of calls) assert.equal(call.env.REVIEW_GATE_CHILD, "1");
    await check({ sb, repo, env, calls: calls.length });
  });
}

Deno.test({
  name:
    "installed plugin: its Stop hook blocks, Claude continues with our reason and fixes the file; install --claude then refuses",
  ignore,
  fn: () =>
    stopCase(async ({ repo, env, calls }) => {
      assert.equal(calls, 2);
      assert.equal(await lostAClaim(repo), false, "only the plugin's Stop hook ran");
      const install = await reviewGate(["install", "--claude"], { cwd: repo, env });
      assert.equal(install.code, 2, install.stderr);
      assert.match(
        install.stderr,
        /plugin is enabled for this project \("review-gate@review-gate", user settings\)/,
      );
      assert.equal(await exists(join(repo, ".claude", "settings.local.json")), false);
    }),
});

Deno.test({
  name:
    "plugin installed after install --claude: both Stop hooks run, each stop is reviewed and blocked once",
  ignore,
  fn: () =>
    stopCase(async ({ repo, calls }) => {
      assert.equal(calls, 2, "one review per stop, not one per hook");
      assert.equal(await lostAClaim(repo), true, "the settings hook ran too, and stepped aside");
    }, async ({ repo, env }) => {
      const install = await reviewGate(["install", "--claude"], { cwd: repo, env });
      assert.equal(install.code, 0, install.stderr);
      const settings = await Deno.readTextFile(join(repo, ".claude", "settings.local.json"));
      assert.ok(settings.includes("hook claude-stop"), settings);
    }),
});

Deno.test({
  name:
    "/review-gate:review runs a real review in its prelude: the mock gets the review request, then the model relays it",
  ignore,
  fn: () =>
    withCase(() => [
      structured({
        verdict: "needs-attention",
        summary: "The constant is wrong.",
        findings: [{
          severity: "high",
          category: "bug",
          scope: "introduced",
          title: "Wrong constant PLUGIN-CMD-MARKER",
          body: "a should be 2.",
          file: "src/app.ts",
          line_start: 1,
          line_end: 1,
          confidence: 0.9,
          recommendation: "Set a to 2.",
        }],
        next_steps: [],
      }),
      { kind: "text", text: "One blocking finding: the constant in src/app.ts:1." },
    ], async ({ sb, repo, mock }) => {
      await Deno.writeTextFile(join(repo, "src", "app.ts"), "export const a = 3;\n");
      const env = baseEnv(sb, mock.url, { REVIEW_GATE_CLAUDE_BIN: findCli("claude")! });
      const out = await claude(
        ["-p", "--output-format", "json", "--max-turns", "4", "--plugin-dir", ROOT],
        { cwd: repo, env, stdin: "/review-gate:review" },
      );
      assert.equal(out.code, 0, out.stderr);
      const envelope = JSON.parse(out.stdout);
      assert.equal(envelope.subtype, "success", out.stdout);
      assert.equal(envelope.num_turns, 1, "0 turns means the prelude failed and nothing was asked");
      const main = mock.mainRequests();
      assert.equal(main.length, 2, JSON.stringify(main.map((r) => r.path)));
      const tools = (main[0].body?.tools as { name: string }[]).map((t) => t.name);
      assert.ok(tools.includes("StructuredOutput"), "the first request is our review child's");
      const relayed = messagesText(main[1].body);
      assert.ok(relayed.includes("<command-name>/review-gate:review</command-name>"), relayed);
      assert.ok(relayed.includes("review-gate: needs attention — 1 finding, 1 blocking"), relayed);
      assert.ok(relayed.includes("PLUGIN-CMD-MARKER"));
      assert.deepEqual(await runStatuses(repo, null), ["needs-attention"]);
    }),
});
