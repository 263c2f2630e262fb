import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../config/config.ts";
import { type ExecRequest, type ExecResult, runProcess } from "../exec/exec.ts";
import { makeTestRepo } from "../git/test_repo.ts";
import { runReview } from "./run_review.ts";

const FAKE_BIN = "/nonexistent/review-gate-part-verdict-claude";

/** 70 lines, ≈ 2.6 kB of diff: two such files never fit one part of 4096 bytes. */
function fileText(name: string, version: number): string {
  const lines = [`export const ${name} = ${version};`];
  for (let i = 0; i < 69; i++) lines.push(`export const ${name}_${i} = ${i}; // line ${i}`);
  return lines.join("\n") + "\n";
}

/** A claude envelope answering `answer` (structured output). */
function claudeAnswer(answer: unknown): ExecResult {
  const envelope = { type: "result", subtype: "success", is_error: false, session_id: "s" };
  return {
    code: 0,
    stdout: new TextEncoder().encode(
      JSON.stringify({ ...envelope, result: "", structured_output: answer }) + "\n",
    ),
    stderr: new Uint8Array(),
    durationMs: 1,
    timedOut: false,
    aborted: false,
    truncated: false,
  };
}

/** An answer with one finding on `file` line 1 (an approval carries no finding). */
const finding = (file: string, scope = "introduced") => ({
  verdict: "needs-attention",
  summary: "One note",
  findings: [{
    severity: "low",
    category: "maintainability",
    scope,
    title: "A note",
    body: "a note",
    file,
    line_start: 1,
    line_end: 1,
    confidence: 0.9,
    recommendation: "none",
  }],
  next_steps: [],
});

Deno.test("a change asked once as one part keeps its verdict for that part: the grown change asks only its new part", async () => {
  const repo = await makeTestRepo({ "README.md": "x\n", "b.ts": "export const b = 0;\n" });
  try {
    const prompts: string[] = [];
    let answer: (prompt: string) => unknown = () => finding("a.ts");
    const runner = async (request: ExecRequest): Promise<ExecResult> => {
      if (request.cmd !== FAKE_BIN) return await runProcess(request);
      const prompt = [String(request.stdin ?? ""), ...request.args].join("\n");
      prompts.push(prompt);
      return claudeAnswer(answer(prompt));
    };
    const review = () =>
      runReview({
        cwd: repo.root,
        kind: "review",
        config: {
          ...DEFAULT_CONFIG,
          provider: "claude",
          budgets: { ...DEFAULT_CONFIG.budgets, total_bytes: 4096 },
        },
        useCache: true,
      }, { runner, env: { REVIEW_GATE_CLAUDE_BIN: FAKE_BIN }, now: () => new Date() });
    await repo.write("a.ts", fileText("a", 1));
    const first = await review();
    assert.equal(first.record.status, "needs-attention");
    assert.equal(prompts.length, 1, "one part, asked once");

    // the change grows to two parts: a.ts's bytes are those answered, b.ts is new
    await repo.write("b.ts", fileText("b", 1));
    answer = () => finding("b.ts");
    const grown = await review();
    assert.equal(prompts.length, 2, "only b.ts's part is asked");
    assert.match(prompts[1], /b\.ts/);
    assert.doesNotMatch(prompts[1], /\+export const a = 1;/);
    assert.deepEqual(grown.record.parts?.map((p) => p.cached), [true, false]);
    const files = (grown.answer as { findings: { file: string }[] }).findings.map((f) => f.file);
    assert.deepEqual(files.sort(), ["a.ts", "b.ts"], "a.ts's finding is the kept verdict's");

    // other bytes in a.ts: its kept verdict is not theirs
    await repo.write("a.ts", fileText("a", 2));
    answer = () => finding("a.ts");
    const edited = await review();
    assert.equal(prompts.length, 3);
    assert.deepEqual(edited.record.parts?.map((p) => p.cached), [false, true]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a one-part answer with a finding outside the part's files is not kept for the part", async () => {
  const repo = await makeTestRepo({ "README.md": "x\n", "b.ts": "export const b = 0;\n" });
  try {
    let calls = 0;
    const runner = async (request: ExecRequest): Promise<ExecResult> => {
      if (request.cmd !== FAKE_BIN) return await runProcess(request);
      calls++;
      // the whole change's tree holds README.md: a finding there is coherent for the whole change,
      // not for a part whose files are a.ts (then b.ts)
      const prompt = [String(request.stdin ?? ""), ...request.args].join("\n");
      if (calls === 1) return claudeAnswer(finding("README.md", "outside"));
      return claudeAnswer(finding(/\+export const b = 1;/.test(prompt) ? "b.ts" : "a.ts"));
    };
    const review = () =>
      runReview({
        cwd: repo.root,
        kind: "review",
        config: {
          ...DEFAULT_CONFIG,
          provider: "claude",
          budgets: { ...DEFAULT_CONFIG.budgets, total_bytes: 4096 },
        },
        useCache: true,
      }, { runner, env: { REVIEW_GATE_CLAUDE_BIN: FAKE_BIN }, now: () => new Date() });
    await repo.write("a.ts", fileText("a", 1));
    assert.equal((await review()).record.status, "needs-attention");
    await repo.write("b.ts", fileText("b", 1));
    const grown = await review();
    assert.deepEqual(grown.record.parts?.map((p) => p.cached), [false, false], "both asked");
    assert.equal(calls, 3);
  } finally {
    await repo.cleanup();
  }
});
