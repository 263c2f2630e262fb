/**
 * Assertions shared by the end-to-end tests: what the provider was sent (the fenced diff with its
 * nonce, each CLI's first-call argv, the session a call resumes).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { FakeInvocation, Provider } from "./_cli.ts";

/**
 * The prompt the provider received: stdin (claude, codex, qwen, gemini) or the -p argument (vibe);
 * gemini's `\@` escapes read as `@`, as its model reads them.
 */
export function promptOf(call: FakeInvocation): string {
  if (call.cli === "vibe") return call.argv[call.argv.indexOf("-p") + 1];
  if (call.cli === "gemini") return (call.stdin ?? "").replaceAll("\\@", "@");
  return call.stdin ?? "";
}

/** The session a call resumes (codex `exec … resume <id> -`, claude/vibe `--resume <id>`), or undefined. */
export function resumedSession(call: FakeInvocation): string | undefined {
  if (call.cli === "codex") {
    const at = call.argv.indexOf("resume");
    return at < 0 ? undefined : call.argv.at(-2);
  }
  // copilot's --resume takes an optional value: it is given as --resume=<id>
  const joined = call.argv.find((arg) => arg.startsWith("--resume="));
  if (joined !== undefined) return joined.slice("--resume=".length);
  const at = call.argv.indexOf("--resume");
  if (at >= 0) return call.argv[at + 1];
  // opencode continues a session with --session <id>
  const session = call.argv.indexOf("--session");
  return session < 0 ? undefined : call.argv[session + 1];
}

/** The prompt's RULES block (the team's guidelines, sent as policy), or "" when there is none. */
export function rulesBlockOf(prompt: string): string {
  return prompt.match(/<<<RULES ([0-9a-f]{16})\n[\s\S]*?\nRULES \1>>>/)?.[0] ?? "";
}

/** Assert the prompt fences the diff with a nonce that does not occur inside it. */
export function assertFencedDiff(prompt: string, mustContain: string): string {
  const open = prompt.match(/^<<<CHANGE ([0-9a-f]{16})$/m);
  assert.ok(open, "prompt has an opening nonce marker");
  const nonce = open[1];
  const start = prompt.indexOf(open[0]) + open[0].length;
  const end = prompt.indexOf(`CHANGE ${nonce}>>>`);
  assert.ok(end > start, "prompt has the closing nonce marker after the opening one");
  const diff = prompt.slice(start, end);
  assert.ok(!diff.includes(nonce), "the nonce does not occur in the fenced diff");
  assert.ok(diff.includes(mustContain), `the fenced diff contains ${JSON.stringify(mustContain)}`);
  return diff;
}

/**
 * Provider-specific checks of the first invocation's argv, and what every child shares: it runs
 * in the private read-only copy of the reviewed tree (never the repository), with an allowlisted
 * environment.
 */
export function assertFirstCallArgv(provider: Provider, call: FakeInvocation, root: string): void {
  assert.equal(call.cli, provider);
  assert.equal(call.env.REVIEW_GATE_CHILD, "1");
  assert.notEqual(call.cwd, root, "the provider runs in the private copy, not the repository");
  assert.match(call.cwd, /\/review-gate-review-[^/]+\/tree$/);
  for (const name of call.envNames) {
    assert.match(
      name,
      /^(PWD|OLDPWD|SHLVL|_|PATH|HOME|TMPDIR|LANG|LC_.*|TZ|USER|LOGNAME|DENO_DIR|REVIEW_GATE_CHILD|REVIEW_GATE_FAKE_.*|NO_COLOR|CODEX_HOME|QWEN_HOME|GEMINI_CLI_HOME|COPILOT_HOME|COPILOT_AUTO_UPDATE|COPILOT_PKG_CACHE_HOME|OPENCODE_DISABLE_.*|OPENCODE_CONFIG_CONTENT|CLAUDE_CODE_.*|DISABLE_AUTOUPDATER|VIBE_.*|XDG_.*)$/,
      `the child got ${name} (PWD, SHLVL and _ come from the fake's shell wrapper)`,
    );
  }
  if (provider === "claude") {
    assert.ok(call.argv.includes("-p"));
    assert.equal(call.argv[call.argv.indexOf("--tools") + 1], "Read,Grep,Glob");
    assert.ok(call.argv.includes("--restricted"));
    assert.equal(call.argv[call.argv.indexOf("--output-format") + 1], "json");
    assert.equal(call.argv[call.argv.indexOf("--setting-sources") + 1], "");
    const schema = JSON.parse(call.argv[call.argv.indexOf("--json-schema") + 1]);
    assert.equal(schema.$schema, undefined, "claude dialect has no $schema");
    assert.equal(schema.$id, undefined, "claude dialect has no $id");
    assert.ok(!call.argv.includes("--resume"));
  } else if (provider === "codex") {
    assert.equal(call.argv[0], "exec");
    assert.equal(call.argv[call.argv.indexOf("-C") + 1], call.cwd);
    assert.ok(call.argv.includes("--ignore-rules"));
    assert.ok(call.argv.includes('default_permissions="review"'));
    assert.ok(!call.argv.includes("--sandbox"), "the permission profile replaces --sandbox");
    assert.equal(call.argv.at(-1), "-");
    assert.ok(call.schemaFile, "codex was given a schema file");
    const schema = JSON.parse(call.schemaFile!);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual([...schema.required].sort(), ["findings", "next_steps", "summary", "verdict"]);
    assert.ok(!call.schemaFile!.includes("minLength"), "codex dialect has no minLength");
  } else if (provider === "qwen") {
    assert.equal(call.argv[call.argv.indexOf("--approval-mode") + 1], "plan");
    assert.equal(
      call.argv[call.argv.indexOf("--core-tools") + 1],
      "read_file,grep_search,glob,list_directory",
    );
    assert.ok(!call.argv.includes("--bare") && !call.argv.includes("--yolo"));
    const schema = JSON.parse(call.argv[call.argv.indexOf("--json-schema") + 1]);
    assert.equal(schema.$schema, undefined, "qwen gets the schema without root ids");
    assert.ok(!call.argv.includes("--resume"));
    assert.equal(call.env.QWEN_HOME?.endsWith("/qwen-home"), true, "a private QWEN_HOME");
  } else if (provider === "gemini") {
    assert.equal(call.argv[call.argv.indexOf("--approval-mode") + 1], "plan");
    assert.ok(call.argv.includes("--skip-trust"), "the private copy is what is trusted");
    assert.equal(call.argv[call.argv.indexOf("--output-format") + 1], "json");
    assert.ok(!call.argv.includes("--yolo") && !call.argv.includes("--resume"));
    assert.ok(promptOf(call).includes('"verdict"'), "gemini gets the schema in the prompt");
    assert.doesNotMatch(call.stdin ?? "", /(^|[^\\])@/, "every @ is escaped");
    assert.equal(call.env.HOME?.endsWith("/gemini-home"), true, "a private HOME");
    assert.equal(call.env.GEMINI_CLI_HOME, call.env.HOME);
  } else if (provider === "copilot") {
    assert.ok(call.argv.includes("--available-tools=view,grep,glob"));
    assert.ok(call.argv.includes("--deny-tool=write") && call.argv.includes("--deny-tool=shell"));
    assert.ok(call.argv.includes("--no-custom-instructions"));
    for (const flag of ["--allow-all", "--allow-all-tools", "--yolo", "-p"]) {
      assert.ok(!call.argv.includes(flag), flag);
    }
    assert.ok(!call.argv.some((a) => a.startsWith("--resume")));
    assert.ok(promptOf(call).includes('"verdict"'), "copilot gets the schema in the prompt");
    assert.equal(call.env.COPILOT_HOME?.endsWith("/copilot-home"), true, "a private COPILOT_HOME");
  } else if (provider === "opencode") {
    assert.deepEqual(call.argv.slice(0, 6), [
      "run",
      "--format",
      "json",
      "--pure",
      "--agent",
      "review-gate",
    ]);
    assert.equal(call.argv[call.argv.indexOf("--dir") + 1], call.cwd);
    for (const flag of ["--auto", "--share", "--continue", "--session"]) {
      assert.ok(!call.argv.includes(flag), flag);
    }
    assert.ok(promptOf(call).includes('"verdict"'), "opencode gets the schema in the prompt");
    assert.equal(call.env.OPENCODE_DISABLE_PROJECT_CONFIG, "1");
    assert.equal(call.env.XDG_DATA_HOME?.endsWith("/data"), true, "a private data folder");
  } else {
    assert.equal(call.stdin, null);
    assert.equal(call.argv[call.argv.indexOf("--workdir") + 1], call.cwd);
    assert.equal(call.argv[call.argv.indexOf("--output") + 1], "streaming");
    for (const flag of ["--trust", "--yolo", "--auto-approve"]) {
      assert.ok(!call.argv.includes(flag));
    }
    assert.ok(promptOf(call).includes('"verdict"'), "vibe gets the schema in the prompt");
  }
}
