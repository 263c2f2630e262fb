/**
 * (g) reviewing while the agent works (docs/design.md "Review while working"): the Stop's wall time
 * after a turn of 5 edits over 60 s, with a fake Claude whose every answer takes 20 s, beside the
 * same turn reviewed at the Stop alone (`review_while_working` off) — and the model calls of each
 * turn against one review at the Stop (one call a part). Each row plays its turn in `setup` (the
 * prompt hook, then each edit followed by the `PostToolUse` hook `hook claude-work`, at fixed times)
 * in a repository of its own, then measures the `hook claude-stop` once. Five edits to five files,
 * each its own part (`budgets.total_bytes` 4096; `jobs` 5 so the baseline asks all five at once);
 * one row edits one file five times (one part: a change of one part waits for its edits to be
 * quiet, `background_call_seconds`, which they are only when the Stop asks).
 *
 * `BENCH_WORK_TURN_S` (default 60) and `BENCH_WORK_ANSWER_MS` (default 20000) scale the turn and
 * the answer time; the gaps before the Stop (5 s, 1 s) stay as they are.
 *
 * @module
 */
import { join } from "node:path";
import type { BenchCase, CaseFactory } from "./case_types.ts";
import { git } from "./gen_repo.ts";

const TURN_S = Number(Deno.env.get("BENCH_WORK_TURN_S") ?? "60");
const ANSWER_MS = Number(Deno.env.get("BENCH_WORK_ANSWER_MS") ?? "20000");

/** Part file `n`'s text: 70 lines, ≈ 2.6 kB of diff (two never fit one part of 4096 bytes). */
function partText(n: number, version: number): string {
  const lines = [`export const version${n} = ${version};`];
  for (let i = 0; i < 69; i++) lines.push(`export const value${n}_${i} = ${i}; // line ${i}`);
  return lines.join("\n") + "\n";
}

interface Turn {
  /** Files edited, in order (`p<n>.ts`). */
  files: number[];
  /** Seconds between the last edit and the Stop. */
  gapS: number;
  /** Whether the tool hooks review in the background. */
  working: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function runHook(
  ctx: { reviewGate: string[] },
  name: string,
  at: { cwd: string; env: Record<string, string>; stdin: string },
): Promise<string> {
  const child = new Deno.Command(ctx.reviewGate[0], {
    args: [...ctx.reviewGate.slice(1), "hook", name],
    cwd: at.cwd,
    env: at.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(at.stdin));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`hook ${name} failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** The row's turn, played in real time up to `gapS` before the Stop. */
async function playTurn(
  ctx: { reviewGate: string[] },
  at: { repo: string; env: Record<string, string>; turn: Turn },
): Promise<void> {
  const payload = (event: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      session_id: "bench-work",
      transcript_path: join(at.repo, "..", "transcript.jsonl"),
      cwd: at.repo,
      permission_mode: "default",
      hook_event_name: event,
      ...extra,
    });
  const hook = { cwd: at.repo, env: at.env };
  await runHook(ctx, "claude-prompt", {
    ...hook,
    stdin: payload("UserPromptSubmit", { prompt: "x" }),
  });
  const { files, gapS } = at.turn;
  const span = (TURN_S - gapS) * 1000;
  const started = Date.now();
  for (const [i, n] of files.entries()) {
    await sleep(started + (files.length > 1 ? (span * i) / (files.length - 1) : 0) - Date.now());
    const path = join(at.repo, `p${n}.ts`);
    await Deno.writeTextFile(path, partText(n, i + 1));
    if (!at.turn.working) continue;
    await runHook(ctx, "claude-work", {
      ...hook,
      stdin: payload("PostToolUse", {
        tool_name: "Write",
        tool_input: { file_path: path, content: "" },
        tool_response: { type: "update" },
        tool_use_id: `toolu_${i}`,
      }),
    });
  }
  await sleep(started + TURN_S * 1000 - Date.now());
}

/** Lines of a JSONL file that parse (none when it is missing). */
async function jsonl(path: string): Promise<Record<string, number>[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** The work cases: one repository per row, made and played in its `setup`. */
export const workCases: CaseFactory = (ctx) => {
  const group = `(g) Stop after 5 edits over ${TURN_S} s, answers of ${ANSWER_MS / 1000} s`;
  const row = (name: string, turn: Turn, index: number, baseline = false): BenchCase => {
    const repo = join(ctx.tmp, `work-${index}`, "repo");
    const fakeLog = join(ctx.tmp, `work-${index}`, "fake.jsonl");
    const env = {
      ...ctx.env,
      HOME: join(ctx.tmp, `work-${index}`, "home"),
      XDG_STATE_HOME: join(ctx.tmp, `work-${index}`, "state"),
      REVIEW_GATE_FAKE_LOG: fakeLog,
      REVIEW_GATE_FAKE_DELAY_MS: String(ANSWER_MS),
    };
    const stop = JSON.stringify({
      session_id: "bench-work",
      transcript_path: join(repo, "..", "transcript.jsonl"),
      cwd: repo,
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "Done.",
    });
    const parts = new Set(turn.files).size;
    return {
      group,
      name,
      baseline,
      cmd: [...ctx.reviewGate, "hook", "claude-stop"],
      cwd: repo,
      env,
      stdin: stop,
      runs: 1,
      warmup: 0,
      setup: async () => {
        await Deno.mkdir(env.HOME, { recursive: true });
        await Deno.mkdir(repo, { recursive: true });
        await git(repo, ["init", "-q", "-b", "main"]);
        await Deno.writeTextFile(join(repo, "README.md"), "bench\n");
        await Deno.writeTextFile(
          join(repo, ".review-gate.json"),
          JSON.stringify({
            jobs: 5,
            budgets: { total_bytes: 4096 },
            gates: { claude_stop: { review_while_working: turn.working } },
          }),
        );
        await git(repo, ["add", "-A"]);
        await git(repo, ["commit", "-q", "-m", "base"]);
        await playTurn(ctx, { repo, env, turn });
      },
      ...describeTurn({
        fakeLog,
        tallies: join(repo, ".git", "review-gate", "work", "turns.jsonl"),
        parts,
      }),
    };
  };
  return [
    row(
      "review at the Stop (review_while_working off)",
      {
        files: [1, 2, 3, 4, 5],
        gapS: 5,
        working: false,
      },
      0,
      true,
    ),
    row("review while working, last edit 5 s before the Stop", {
      files: [1, 2, 3, 4, 5],
      gapS: 5,
      working: true,
    }, 1),
    row("review while working, last edit 1 s before the Stop", {
      files: [1, 2, 3, 4, 5],
      gapS: 1,
      working: true,
    }, 2),
    row("review while working, one file edited 5 times (one part), last edit 5 s before", {
      files: [1, 1, 1, 1, 1],
      gapS: 5,
      working: true,
    }, 3),
  ];
};

/** The row's note: the turn's model calls against one call a part, and the Stop's tally. */
function describeTurn(at: { fakeLog: string; tallies: string; parts: number }): {
  verify: BenchCase["verify"];
  describe: BenchCase["describe"];
} {
  let note = "";
  return {
    verify: async (m) => {
      if (m.outputs[0].trim() !== "") throw new Error(`the Stop did not allow: ${m.outputs[0]}`);
      const calls = (await jsonl(at.fakeLog)).length;
      const [tally] = await jsonl(at.tallies);
      const ratio = (calls / at.parts).toFixed(2);
      note =
        `model calls in the turn: ${calls} (${ratio}× one review at the Stop, ${at.parts} call(s))` +
        (tally
          ? `; background ${tally.backgroundCalls}, reused ${tally.reused} of ${tally.parts} part(s), wasted ${tally.wasted}, at the Stop ${tally.stopCalls}, waited ${
            (tally.waitedMs / 1000).toFixed(1)
          } s`
          : "");
    },
    describe: () => note,
  };
}
