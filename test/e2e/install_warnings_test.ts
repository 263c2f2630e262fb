/**
 * End-to-end: `install` says at install time what would make the gates' first review fail — an
 * invalid config, a provider binary that is missing or not executable, no credentials — each with
 * its fix (doctor's checks); `--guard` says what guard it installed; the bundled fake is known to
 * need no credentials (README.md "Install", "Guard").
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FAKE_BIN, makeSandbox, runCli } from "./_cli.ts";

Deno.test("install warns about an invalid config, a missing or non-executable provider and no credentials, with the fix", async () => {
  // a named provider: with "auto" another provider's fake would be chosen in its place
  const sandbox = await makeSandbox({
    "a.txt": "a\n",
    ".review-gate.json": '{"provider": "claude"}\n',
  });
  try {
    const missing = join(sandbox.dir, "no-such-claude");
    const gone = await runCli(sandbox, ["install", "--git"], {
      env: { REVIEW_GATE_CLAUDE_BIN: missing },
    });
    assert.equal(gone.code, 0, gone.stderr);
    assert.match(
      gone.stderr,
      /review-gate: warning: provider claude: not found \(".*no-such-claude" from REVIEW_GATE_CLAUDE_BIN\): fix the path, or unset REVIEW_GATE_CLAUDE_BIN and install with "npm i -g @anthropic-ai\/claude-code"/,
    );

    const script = join(sandbox.dir, "claude");
    await Deno.writeTextFile(script, '#!/bin/sh\necho "2.1.332 (Claude Code)"\n');
    const notExecutable = await runCli(sandbox, ["install", "--git"], {
      env: { REVIEW_GATE_CLAUDE_BIN: script },
    });
    assert.match(
      notExecutable.stderr,
      new RegExp(`provider claude: "${script}" is not executable: run chmod \\+x "${script}"`),
    );

    await Deno.chmod(script, 0o755);
    const noLogin = await runCli(sandbox, ["install", "--git"], {
      env: { REVIEW_GATE_CLAUDE_BIN: script },
    });
    assert.match(
      noLogin.stderr,
      /review-gate: warning: reviewer auth \(claude\): .*(no credentials found|unknown).*set ANTHROPIC_API_KEY/,
    );

    await sandbox.repo.write(".review-gate.json", '{"provider": "gpt"}\n');
    const invalid = await runCli(sandbox, ["install", "--git"], {
      env: { REVIEW_GATE_CLAUDE_BIN: script },
    });
    assert.match(invalid.stderr, /review-gate: warning: config: Invalid config .*"provider"/);
    assert.match(invalid.stderr, /until then the gates cannot review/);
    await Deno.remove(join(sandbox.repo.root, ".review-gate.json"));

    const fake = await runCli(sandbox, ["install", "--git"], {
      env: { REVIEW_GATE_CLAUDE_BIN: join(FAKE_BIN, "claude") },
    });
    assert.equal(fake.stderr, "", "the bundled fake needs no credentials");
    const doctor = await runCli(sandbox, ["doctor"], {
      env: { REVIEW_GATE_CLAUDE_BIN: join(FAKE_BIN, "claude") },
    });
    assert.match(doctor.stdout, /ok {3}reviewer auth \(claude\): the bundled fake provider/);
    assert.doesNotMatch(doctor.stdout, /WARN/);
    assert.match(doctor.stdout, /ok {3}provider claude: .*\(the bundled fake, /);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("install --claude --guard says which guard it installed", async () => {
  const sandbox = await makeSandbox({ "a.txt": "a\n" });
  try {
    const env = { REVIEW_GATE_CLAUDE_BIN: join(FAKE_BIN, "claude") };
    const result = await runCli(sandbox, ["install", "--claude", "--guard"], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^guard: state protection \(claude\): \S/m);
    const again = await runCli(sandbox, ["install", "--claude", "--guard"], { env });
    assert.match(again.stdout, /nothing to change/);
    assert.match(again.stdout, /^guard: state protection \(claude\): /m, "said when already there");
    const plain = await runCli(sandbox, ["install", "--claude"], { env });
    assert.doesNotMatch(plain.stdout, /^guard:/m);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("install --copilot --guard says there is no Copilot guard, and what that leaves open", async () => {
  const sandbox = await makeSandbox({ "a.txt": "a\n" });
  try {
    const env = { REVIEW_GATE_CLAUDE_BIN: join(FAKE_BIN, "claude") };
    const result = await runCli(sandbox, ["install", "--copilot", "--guard"], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^guard: state protection \(copilot\): none: review-gate has no guard for the GitHub Copilot CLI/m,
    );
    const doctor = await runCli(sandbox, ["doctor"], { env });
    assert.match(doctor.stdout, /state protection \(copilot\): none: .*git push --no-verify/);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("install --qwen|--gemini --guard says there is no guard for it either", async () => {
  for (const [agent, name] of [["qwen", "Qwen Code"], ["gemini", "Gemini CLI"]]) {
    const sandbox = await makeSandbox({ "a.txt": "a\n" });
    try {
      const env = { REVIEW_GATE_CLAUDE_BIN: join(FAKE_BIN, "claude") };
      const result = await runCli(sandbox, ["install", `--${agent}`, "--guard"], { env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        new RegExp(
          `^guard: state protection \\(${agent}\\): none: review-gate has no guard for ${name}`,
          "m",
        ),
      );
      const doctor = await runCli(sandbox, ["doctor"], { env });
      assert.match(doctor.stdout, new RegExp(`state protection \\(${agent}\\): none: `));
    } finally {
      await sandbox.cleanup();
    }
  }
});
