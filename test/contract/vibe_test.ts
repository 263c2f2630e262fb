/**
 * The Mistral Vibe contract row. `vibe` (PyPI `mistral-vibe`) is not installable here, so instead of
 * the real binary these cases drive our real adapter (lib/providers/vibe/adapter.ts) through the real session
 * runner (`callStructured`, lib/session/call.ts) with a runner that plays `--output streaming` fixtures
 * written from the documented format (vibe_samples/*.jsonl; docs/providers.md "Mistral Vibe": one
 * message
 * object per line, answer = last `role:"assistant"` with non-empty content, old history re-emitted
 * first on resume, exit 0/1/2, session id only in `$VIBE_HOME/logs/session/*\/meta.json`). The
 * user-facing side is checked by spawning `main.ts doctor` and `main.ts review --provider vibe` as a
 * user would, with no vibe on PATH.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { decode } from "../../lib/answer/decoder.ts";
import { dialectText } from "../../lib/answer/dialect.ts";
import { formatRefusal } from "../../lib/answer/refusal.ts";
import { canonicalSchema } from "../../lib/kinds/registry.ts";
import { reviewKind } from "../../lib/kinds/review/kind.ts";
import type { Decision } from "../../lib/answer/types.ts";
import type { ReviewAnswer } from "../../lib/kinds/review/types.ts";
import type { ExecRequest, ExecResult } from "../../lib/exec/exec.ts";
import { worktreeView } from "../../lib/git/tree_view.ts";
import { getProvider } from "../../lib/providers/registry.ts";
import { buildCorrectivePrompt } from "../../lib/kinds/review/prompt.ts";
import { type CallOutcome, callStructured } from "../../lib/session/call.ts";
import { git } from "./env.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const SAMPLES = new URL("./vibe_samples/", import.meta.url).pathname;
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
const SCHEMA = (await canonicalSchema("review")) as Record<string, unknown>;
const PROMPT = "Review the change. VIBE-PROMPT-MARKER";
/** Flags that would widen Vibe's permissions (docs/providers.md: never). */
const FORBIDDEN = ["--trust", "--yolo", "--auto-approve"];

/** One scripted Vibe process: which fixture it prints, its exit code and stderr. */
interface VibePlay {
  sample?: string;
  code?: number;
  stderr?: string;
  /** Session id written to `$VIBE_HOME/logs/session/<dir>/meta.json`; none when absent. */
  sessionId?: string;
}

interface VibeRun {
  outcome: CallOutcome<ReviewAnswer>;
  requests: ExecRequest[];
  root: string;
}

function result(stdout: string, code: number, stderr: string): ExecResult {
  const e = new TextEncoder();
  return {
    code,
    stdout: e.encode(stdout),
    stderr: e.encode(stderr),
    durationMs: 5,
    timedOut: false,
    aborted: false,
    truncated: false,
  };
}

/**
 * A runner standing in for the `vibe` process: records the request, writes the session's meta.json
 * as Vibe does (working_directory = the `--workdir`), returns the fixture as stdout.
 */
function vibeRunner(plays: VibePlay[], vibeHome: string, requests: ExecRequest[]) {
  return async (request: ExecRequest): Promise<ExecResult> => {
    requests.push(request);
    const play = plays[Math.min(requests.length, plays.length) - 1];
    if (play.sessionId) {
      const args = request.args;
      const dir = join(vibeHome, "logs", "session", `session_${requests.length}_${play.sessionId}`);
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(
        join(dir, "meta.json"),
        JSON.stringify({
          session_id: play.sessionId,
          environment: { working_directory: args[args.indexOf("--workdir") + 1] },
        }),
      );
    }
    const stdout = play.sample ? await Deno.readTextFile(join(SAMPLES, play.sample)) : "";
    return result(stdout, play.code ?? 0, play.stderr ?? "");
  };
}

/** Run one structured review call with the vibe adapter against scripted plays. */
async function runVibe(plays: VibePlay[]): Promise<VibeRun> {
  const dir = await Deno.makeTempDir({ prefix: "rg-vibe-" });
  try {
    const root = await makeRepo(dir);
    const vibeHome = join(dir, "vibe-home");
    const requests: ExecRequest[] = [];
    const outcome = await callStructured<ReviewAnswer>({
      adapter: await getProvider("vibe"),
      bin: "/opt/vibe/bin/vibe",
      request: { prompt: PROMPT, schema: SCHEMA, root, maxTurns: 7 },
      correctivePrompt: (refusal) => buildCorrectivePrompt(formatRefusal(refusal), SCHEMA),
      decode: (input) =>
        decode(reviewKind, input, worktreeView(root, { deleted: new Set() })) as Promise<
          Decision<ReviewAnswer>
        >,
      runner: vibeRunner(plays, vibeHome, requests),
      timeoutMs: 30_000,
      env: { VIBE_HOME: vibeHome },
    });
    return { outcome, requests, root };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A repo with one commit and an uncommitted change to src/app.ts; returns its real path. */
async function makeRepo(dir: string): Promise<string> {
  const root = join(dir, "repo");
  await Deno.mkdir(join(root, "src"), { recursive: true });
  await Deno.writeTextFile(join(root, "src", "app.ts"), "export const a = 1;\n");
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-q", "-m", "init");
  await Deno.writeTextFile(join(root, "src", "app.ts"), "export const a = 2;\n");
  return await Deno.realPath(root);
}

/** Assert the documented read-only argv, prompt first; returns the `-p` text. */
function assertVibeArgv(args: readonly string[], root: string): string {
  assert.equal(args[0], "-p");
  const prompt = args[1];
  assert.deepEqual(args.slice(2, 12), [
    "--output",
    "streaming",
    "--workdir",
    root,
    "--max-turns",
    "7",
    "--enabled-tools",
    "read",
    "--enabled-tools",
    "grep",
  ]);
  for (const flag of FORBIDDEN) assert.ok(!args.includes(flag), `argv carries ${flag}`);
  assert.ok(!args.includes("bash"), "argv enables bash (its allowlist is not read-only)");
  assert.ok(prompt.includes(dialectText(SCHEMA, "canonical").trim()), "the schema is not in -p");
  assert.match(prompt, /Reply with the JSON object only\.$/);
  return prompt;
}

Deno.test("vibe adapter: a prose answer is resumed with --resume <located id>, then the answer counts", async () => {
  const { outcome, requests, root } = await runVibe([
    { sample: "first_prose.jsonl", sessionId: "vibe-s-1" },
    { sample: "resume_valid.jsonl", sessionId: "vibe-s-2" },
  ]);
  assert.equal(outcome.status, "ok", outcome.message);
  assert.equal(outcome.answer?.verdict, "approve");
  assert.equal(outcome.answer?.summary, "The constant change is correct.");
  assert.equal(requests.length, 2);
  const [first, second] = requests;
  // First call: the review prompt plus the schema, in argv; stdin null; run in the repo.
  assert.ok(assertVibeArgv(first.args, root).startsWith(PROMPT));
  assert.equal(first.stdin, null);
  assert.equal(first.cmd, "/opt/vibe/bin/vibe");
  // REVIEW_GATE_CHILD=1 is added by runProcess itself for every child (lib/exec/exec_test.ts).
  assert.equal(first.args.length, 12, "no --resume on the first call");
  // Resume: same read-only flags again, the corrective prompt, the session id found in meta.json.
  const corrective = assertVibeArgv(second.args, root);
  assert.ok(!corrective.startsWith(PROMPT), "the resume must send the corrective prompt");
  assert.deepEqual(second.args.slice(12), ["--resume", "vibe-s-1"]);
  assert.equal(second.stdin, null);
  // `--resume` in -p mode starts a new session id: looked up again.
  assert.equal(outcome.sessionId, "vibe-s-2");
  assert.deepEqual(outcome.attempts.map((a) => a.outcome), ["refused", "answer"]);
});

Deno.test("vibe adapter: the last non-empty assistant message is the answer, not an earlier draft", async () => {
  const { outcome, requests } = await runVibe([
    { sample: "first_needs_attention.jsonl", sessionId: "vibe-s-9" },
  ]);
  assert.equal(outcome.status, "ok", outcome.message);
  assert.equal(outcome.answer?.verdict, "needs-attention");
  assert.equal(outcome.answer?.findings[0].file, "src/app.ts");
  assert.equal(requests.length, 1);
  assert.equal(outcome.sessionId, "vibe-s-9");
});

Deno.test("vibe adapter: exit 1 (max turns) and exit 2 (argv) are provider errors, never resumed", async () => {
  for (
    const [code, stderr] of [
      [1, "Maximum number of turns (7) reached\n"],
      [2, "vibe: error: unrecognized arguments: --bogus\n"],
    ] as const
  ) {
    const { outcome, requests } = await runVibe([
      { sample: "first_needs_attention.jsonl", code, stderr, sessionId: "vibe-s-e" },
    ]);
    assert.equal(outcome.status, "provider-error");
    assert.equal(requests.length, 1, `exit ${code} was resumed`);
    assert.equal(outcome.answer, undefined, `exit ${code} kept the printed answer`);
    assert.match(outcome.message ?? "", new RegExp(`code ${code}: ${stderr.trim().slice(0, 20)}`));
  }
});

Deno.test("vibe adapter: without a session in VIBE_HOME a prose answer is invalid-answer, not resumed", async () => {
  const { outcome, requests } = await runVibe([{ sample: "first_prose.jsonl" }]);
  assert.equal(outcome.status, "invalid-answer");
  assert.equal(requests.length, 1);
  assert.equal(outcome.sessionId, undefined);
});

/** PATH for the user-style runs: git, no vibe. */
const USER_PATH = "/usr/bin:/bin";

/** Spawn `main.ts …` in `cwd` as a user would: PATH without vibe, no REVIEW_GATE_VIBE_BIN. */
async function userRun(cwd: string, args: string[]) {
  const env = Deno.env.toObject();
  delete env.REVIEW_GATE_VIBE_BIN;
  delete env.REVIEW_GATE_PROVIDER;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    cwd,
    clearEnv: true,
    env: { ...env, PATH: USER_PATH, DENO_DIR, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

async function withUserRepo(fn: (root: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-vibe-user-" });
  try {
    await fn(await makeRepo(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("review-gate doctor reports vibe missing, with the install advice and REVIEW_GATE_VIBE_BIN", async () => {
  for (const dir of USER_PATH.split(":")) {
    const found = await Deno.stat(join(dir, "vibe")).then(() => true, () => false);
    assert.equal(found, false, `${dir}/vibe exists: the case cannot show vibe missing`);
  }
  await withUserRepo(async (root) => {
    const run = await userRun(root, ["doctor"]);
    const all = run.stdout + run.stderr;
    const line = all.split("\n").find((l) => l.includes("provider vibe"));
    assert.ok(line, `doctor printed no vibe line:\n${all}`);
    assert.match(line, /not found/);
    assert.ok(line.includes(`"uv tool install mistral-vibe"`), line);
    assert.ok(line.includes("REVIEW_GATE_VIBE_BIN"), line);
  });
});

Deno.test("review-gate review --provider vibe without vibe exits 3 naming REVIEW_GATE_VIBE_BIN", async () => {
  await withUserRepo(async (root) => {
    const run = await userRun(root, ["review", "--provider", "vibe", "--no-cache"]);
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /REVIEW_GATE_VIBE_BIN/);
    assert.match(run.stdout + run.stderr, /uv tool install mistral-vibe/);
  });
});
