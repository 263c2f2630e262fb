/**
 * Issue 20 §1, with the real pinned `codex` (and `claude` in the council) driven as a user runs
 * review-gate: what the reviewer's tools can read is the private copy of the change and the system
 * paths its commands need — nothing of HOME, TMPDIR (under HOME or not), another folder, the
 * private CODEX_HOME (whose provider token and header are literal in the user's config) or the
 * council's Claude settings file (0600, under TMPDIR, written while codex runs). The scripted codex
 * model `cat`s each and greps every folder for the canaries; the scripted Claude model `Read`s,
 * `Grep`s and `Glob`s them under `--restricted`. No request body to either mock and no file review
 * -gate wrote (review.md, SARIF, JSON, run records, transcripts) may hold a canary, in plain
 * `review`, `ci`, `--untrusted` and a council. World: test/contract/read_scope_fixture.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { haveCli, makeSandbox, type Sandbox } from "./env.ts";
import { MAIN, NEEDS_ATTENTION } from "./harness.ts";
import {
  type ClaudeTurn,
  startMockAnthropic,
  structured,
} from "../../fixtures/mock_model/anthropic.ts";
import {
  type CodexTurn,
  type MockOpenAI,
  startMockOpenAI,
} from "../../fixtures/mock_model/responses.ts";
import {
  BEARER,
  buildReadWorld,
  filesWithTag,
  HEADER,
  type ReadWorld,
  TAG,
  until,
} from "./read_scope_fixture.ts";

/** The tag as a shell word and a regex that match it without containing it (commands are echoed). */
const TAG_WORD = `"${TAG.slice(0, 3)}""${TAG.slice(3)}"`;
const TAG_REGEX = `${TAG.slice(0, 4)}[${TAG[4]}]${TAG.slice(5)}`;

const shell = (cmd: string): CodexTurn => ({ kind: "call", name: "exec_command", args: { cmd } });
const answer: CodexTurn = { kind: "message", text: JSON.stringify(NEEDS_ATTENTION) };

/** The scripted codex commands: a control that the shell works, then one read per canary. */
function reads(sb: Sandbox, w: ReadWorld): string[] {
  return [
    "cat src/app.ts",
    `cat ${w.home}/.vault-token`,
    `cat ${w.tmp}/stray.txt`,
    `cat ${w.other}/notes.txt`,
    `cat ${w.tmp}/review-gate-*/codex-home/config.toml`,
    `cat ${w.tmp}/review-gate-*/claude-settings.json`,
    `cat ${w.home}/.codex/config.toml ${w.home}/.claude/settings.json`,
    `grep -r ${TAG_WORD} ${sb.dir} ${w.tmp} /etc 2>&1 | head -5; env | grep -c ${TAG_WORD}; echo grep-done`,
  ];
}

/** The outputs of the shell calls codex sent back to the model, in order. */
function shellOutputs(mock: MockOpenAI): string[] {
  const body = mock.turns().at(-1)?.body;
  return ((body?.input ?? []) as { type: string; output?: string }[])
    .filter((i) => i.type === "function_call_output").map((i) => String(i.output));
}

async function reviewGate(w: ReadWorld, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    cwd: w.repo,
    clearEnv: true,
    env: w.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

/** The codex reads' outputs: the control printed the file, every canary read found nothing. */
function assertCodexReadNothing(outputs: string[], n: number): void {
  assert.equal(outputs.length, n, outputs.join("\n---\n"));
  assert.match(outputs[0], /export const a = 2;/, "the reviewer's shell works in the copy");
  for (const out of outputs.slice(1, -1)) {
    assert.match(out, /No such file or directory|Permission denied/, out);
    assert.doesNotMatch(out, new RegExp(TAG), out);
  }
  assert.match(outputs.at(-1)!, /^0\s*$/m, "no canary in the shell's environment");
  assert.match(outputs.at(-1)!, /grep-done/);
  assert.doesNotMatch(outputs.at(-1)!, new RegExp(`${TAG}-`), outputs.at(-1));
}

type Mode = "review" | "ci" | "untrusted" | "council";

async function runMode(
  mode: Mode,
  ctx: {
    sb: Sandbox;
    w: ReadWorld;
    openai: MockOpenAI;
    anthropic: ReturnType<typeof startMockAnthropic>;
  },
): Promise<void> {
  const { sb, w, openai, anthropic } = ctx;
  const cmds = reads(sb, w);
  const seenBefore = openai.turns().length;
  const mainBefore = anthropic.mainRequests().length;
  let settingsSeen = false;
  if (mode === "council") {
    // codex reads while Claude's call (and its settings file) is under way; Claude then reads
    const claudeStarted = until(() => anthropic.mainRequests().length > mainBefore);
    const codexRead = until(async () => {
      if (openai.turns().length < seenBefore + cmds.length + 1) return false;
      settingsSeen = await hasClaudeSettings(w.tmp);
      return true;
    });
    openai.push({ kind: "wait", until: claudeStarted, then: shell(cmds[0]) });
    openai.push(...cmds.slice(1).map(shell), answer);
    const tool = (name: string, input: Record<string, unknown>): ClaudeTurn => ({
      kind: "tool",
      name,
      input,
    });
    anthropic.push(
      {
        kind: "wait",
        until: codexRead,
        then: tool("Read", { file_path: `${w.home}/.vault-token` }),
      },
      tool("Read", { file_path: `${w.tmp}/stray.txt` }),
      tool("Read", { file_path: `${w.other}/notes.txt` }),
      tool("Read", { file_path: `${w.home}/.codex/config.toml` }),
      tool("Grep", { pattern: TAG_REGEX, path: sb.dir, output_mode: "content" }),
      tool("Glob", { pattern: "**/*", path: w.tmp }),
      tool("Read", { file_path: "src/app.ts" }),
      structured(NEEDS_ATTENTION),
    );
  } else openai.push(...cmds.map(shell), answer);
  const sarif = join(sb.dir, `out-${mode}.sarif`);
  const json = join(sb.dir, `out-${mode}.json`);
  const formats = ["--format", "sarif", "--output", sarif, "--format", "json", "--output", json];
  const args = mode === "ci"
    ? ["ci", "--base", "main", "--provider", "codex", "--no-cache", ...formats]
    : [
      "review",
      "--base",
      "main",
      "--no-cache",
      ...(mode === "council" ? ["--providers", "claude,codex"] : ["--provider", "codex"]),
      ...(mode === "untrusted" ? ["--untrusted"] : []),
      ...formats,
    ];
  const run = await reviewGate(w, args);
  const said = `${mode}: exit ${run.code}\n${run.stdout}\n${run.stderr}`;
  assert.equal(run.code, 1, `the blocking finding blocks: ${said}`);
  assertCodexReadNothing(shellOutputs(openai), cmds.length);
  if (mode === "council") {
    assert.ok(settingsSeen, "Claude's settings file existed while codex read");
    assert.ok(anthropic.mainRequests().length - mainBefore >= 8, "Claude ran its reads");
  }
  const bodies = [...openai.requests, ...anthropic.requests].map((r) => JSON.stringify(r.body));
  assert.ok(!bodies.some((b) => b.includes(TAG)), `a canary reached a model (${mode})`);
  assert.ok(!`${run.stdout}${run.stderr}`.includes(TAG), said);
  assert.deepEqual(await filesWithTag(sb.dir, w.sources), [], `a canary in an output (${mode})`);
  const last = openai.turns().at(-1)!;
  assert.equal(
    last.headers.authorization,
    `Bearer ${BEARER}`,
    "the moved token still authenticates",
  );
  assert.equal(last.headers["x-canary"], HEADER, "the moved header is still sent");
}

async function hasClaudeSettings(tmp: string): Promise<boolean> {
  for await (const e of Deno.readDir(tmp)) {
    if (!e.isDirectory) continue;
    try {
      await Deno.stat(join(tmp, e.name, "claude-settings.json"));
      return true;
    } catch {
      // not this one
    }
  }
  return false;
}

async function withReadWorld(
  tmpUnderHome: boolean,
  fn: (ctx: Parameters<typeof runMode>[1]) => Promise<void>,
): Promise<void> {
  const sb = await makeSandbox();
  const openai = startMockOpenAI();
  const anthropic = startMockAnthropic();
  try {
    const w = await buildReadWorld(sb, tmpUnderHome, {
      openai: openai.url,
      anthropic: anthropic.url,
    });
    await fn({ sb, w, openai, anthropic });
  } finally {
    await openai.close();
    await anthropic.close();
    await sb.cleanup();
  }
}

const ignore = !haveCli("codex") || !haveCli("claude");

Deno.test({
  name:
    "read scope, TMPDIR under HOME: codex reads nothing of HOME, TMPDIR, another folder, its private CODEX_HOME or the council's Claude settings (review, ci, --untrusted, council)",
  ignore,
  fn: () =>
    withReadWorld(true, async (ctx) => {
      for (const mode of ["review", "ci", "untrusted", "council"] as const) {
        await runMode(mode, ctx);
      }
    }),
});

Deno.test({
  name: "read scope, TMPDIR beside HOME: the same holds (review, council)",
  ignore,
  fn: () =>
    withReadWorld(false, async (ctx) => {
      for (const mode of ["review", "council"] as const) await runMode(mode, ctx);
    }),
});
