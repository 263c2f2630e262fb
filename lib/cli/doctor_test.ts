import assert from "node:assert/strict";
import type { ExecResult, Runner } from "../exec/exec.ts";
import type { CliDeps } from "./deps.ts";
import { checkEnvironment, runDoctor } from "./doctor_action.ts";

const failing: Runner = () =>
  Promise.resolve<ExecResult>({
    code: 1,
    stdout: new Uint8Array(),
    stderr: new TextEncoder().encode("fatal: not a git repository"),
    durationMs: 1,
    timedOut: false,
    aborted: false,
    truncated: false,
  });

function deps(env: Record<string, string>): CliDeps {
  return {
    cwd: "/",
    env: { HOME: "/nonexistent", XDG_CONFIG_HOME: "/nonexistent", ...env },
    stdout: { isTerminal: false, write: () => {} },
    stderr: { isTerminal: false, write: () => {} },
    readStdin: () => Promise.resolve(new Uint8Array()),
    runner: failing,
    now: () => new Date(),
    signal: new AbortController().signal,
    self: { execPath: Deno.execPath() },
  };
}

Deno.test("checkEnvironment() reports every switch that silently turns the gates off", () => {
  const cases: [Record<string, string>, RegExp[]][] = [
    [{}, []],
    [{ REVIEW_GATE: "1" }, []],
    [{ REVIEW_GATE: "0" }, [/REVIEW_GATE="0" is set: every hook is skipped/]],
    [{ REVIEW_GATE: " Off " }, [/REVIEW_GATE=" Off " is set: every hook is skipped/]],
    [{ REVIEW_GATE_CHILD: "1" }, [/REVIEW_GATE_CHILD=1 is set: every gate is silently off/]],
    [{ REVIEW_GATE: "false", REVIEW_GATE_CHILD: "1" }, [
      /REVIEW_GATE="false"/,
      /REVIEW_GATE_CHILD=1/,
    ]],
  ];
  for (const [env, expected] of cases) {
    const checks = checkEnvironment(env);
    assert.equal(checks.length, expected.length, JSON.stringify(env));
    checks.forEach((c, i) => {
      assert.equal(c.ok, false);
      assert.equal(c.optional, undefined, "a switched-off gate is a problem, not information");
      assert.match(c.detail, expected[i]);
    });
  }
});

Deno.test("runDoctor() fails on REVIEW_GATE_CHILD=1 in the user's environment", async () => {
  const checks = await runDoctor(deps({ REVIEW_GATE_CHILD: "1" }));
  const env = checks.filter((c) => c.area === "environment");
  assert.equal(env.length, 1);
  assert.match(env[0].detail, /REVIEW_GATE_CHILD=1/);
  const clean = await runDoctor(deps({}));
  assert.equal(clean.filter((c) => c.area === "environment").length, 0);
});

Deno.test("runDoctor() says what auth the reviewer will use, never the secret", async () => {
  const checks = await runDoctor(deps({ ANTHROPIC_API_KEY: "sk-ant-secret-value" }));
  const auth = checks.find((c) => c.area === "reviewer auth (claude)");
  assert.ok(auth?.ok);
  assert.equal(auth.detail, "ANTHROPIC_API_KEY from the environment");
  assert.ok(!JSON.stringify(checks).includes("sk-ant-secret-value"));
  const codex = await runDoctor(deps({ REVIEW_GATE_PROVIDER: "codex", OPENAI_API_KEY: "sk-x" }));
  const line = codex.find((c) => c.area === "reviewer auth (codex)")!.detail;
  assert.match(
    line,
    /^provider "openai" from \/nonexistent\/\.codex\/config\.toml; OPENAI_API_KEY from the environment$/,
  );
});

Deno.test("runDoctor()'s config check names each gate's mode", async () => {
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${home}/review-gate`);
    await Deno.writeTextFile(
      `${home}/review-gate/config.json`,
      JSON.stringify({ gates: { claude_stop: { mode: "warn" }, codex_stop: { enabled: false } } }),
    );
    const config = (await runDoctor(deps({ XDG_CONFIG_HOME: home }))).find((c) =>
      c.area === "config"
    );
    assert.match(
      config?.detail ?? "",
      /pre-push enabled in block mode, claude-stop enabled in warn mode, codex-stop disabled, copilot-stop enabled in block mode, qwen-stop enabled in block mode, gemini-stop enabled in block mode$/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("runDoctor() names why a provider's --version failed: copilot's npm loader without its platform package", async () => {
  const stub: Runner = (request) =>
    request.cmd === "copilot"
      ? Promise.resolve<ExecResult>({
        code: 1,
        stdout: new Uint8Array(),
        stderr: new TextEncoder().encode(
          "GitHub Copilot CLI: no platform package found. Reinstall with `npm install -g @github/copilot` to fetch the package for your platform.\n",
        ),
        durationMs: 1,
        timedOut: false,
        aborted: false,
        truncated: false,
      })
      : failing(request);
  const checks = await runDoctor({
    ...deps({ REVIEW_GATE_PROVIDER: "copilot", GH_TOKEN: "ghp_secret" }),
    runner: stub,
  });
  const provider = checks.find((c) => c.area === "provider copilot")!;
  assert.equal(provider.ok, false);
  assert.equal(provider.optional, false);
  assert.match(
    provider.detail,
    /"copilot" --version exited 1: GitHub Copilot CLI: no platform package found/,
  );
  const auth = checks.find((c) => c.area === "reviewer auth (copilot)");
  assert.equal(auth?.detail, "GH_TOKEN from the environment (a GitHub token)");
  assert.ok(!JSON.stringify(checks).includes("ghp_secret"));
});
