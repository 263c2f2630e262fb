/**
 * Helpers for the end-to-end tests of reviewing while the agent works (docs/design.md "Review
 * while working"): a `PostToolUse` payload as Claude Code writes it, files large enough that each
 * is its own part of the review plan, and reads of the session's background-work status.
 *
 * @module
 */
import { join } from "node:path";
import { type PayloadOptions, runHook, type Sandbox } from "./_gates.ts";
import { runCli } from "../e2e/_cli.ts";
import type { WorkStatus } from "../../lib/store/turn_work.ts";
import type { WorkTally } from "../../lib/store/work_ledger.ts";

/** `budgets.total_bytes` that puts each {@linkcode partText} file into a part of its own. */
export const PART_BUDGET = 4096;

/** A repository config turning the background review on, one part per {@linkcode partText} file. */
export function workConfig(claudeStop: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    budgets: { total_bytes: PART_BUDGET },
    gates: { claude_stop: { review_while_working: true, ...claudeStop } },
  };
}

/**
 * The text of part file `n`: 50 lines (≈ 2.5 kB of diff), the first line carrying `marker` — so
 * two such files never fit one part of {@linkcode PART_BUDGET}.
 */
export function partText(n: number, marker = "ok"): string {
  const lines = [`export const first${n} = "${marker}";`];
  for (let i = 0; i < 49; i++) {
    lines.push(`export const value${n}_${i} = ${i}; // line ${i} of part ${n}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * A `PostToolUse` payload as Claude Code 2.1.332 writes it (test/contract/claude_work_test.ts):
 * a Write of `file`, or a Bash call.
 */
export function toolPayload(o: PayloadOptions, tool = "Write", file = "src/p1.ts"): string {
  return JSON.stringify({
    session_id: o.sessionId,
    transcript_path: `/tmp/claude/${o.sessionId}.jsonl`,
    cwd: o.cwd,
    prompt_id: crypto.randomUUID(),
    permission_mode: "default",
    effort: { level: "medium" },
    hook_event_name: "PostToolUse",
    tool_name: tool,
    tool_input: tool === "Bash"
      ? { command: "true" }
      : { file_path: join(o.cwd, file), content: "" },
    tool_response: tool === "Bash" ? { stdout: "", stderr: "" } : { type: "create" },
    tool_use_id: `toolu_${crypto.randomUUID().replaceAll("-", "")}`,
    duration_ms: 12,
  });
}

/** Write part file `n` (`src/p<n>.ts`) and run the tool hook, as after the agent's Write. */
export async function editPart(
  sb: Sandbox,
  session: PayloadOptions,
  n: number,
  marker = "ok",
  env: Record<string, string> = {},
): Promise<number> {
  await Deno.mkdir(join(sb.repo.root, "src"), { recursive: true });
  await Deno.writeTextFile(join(sb.repo.root, `src/p${n}.ts`), partText(n, marker));
  const started = Date.now();
  const r = await runCli(sb, ["hook", "claude-work"], {
    stdin: toolPayload(session, "Write", `src/p${n}.ts`),
    env,
  });
  if (r.code !== 0 || r.stdout !== "") {
    throw new Error(`claude-work: ${r.code} ${r.stdout} ${r.stderr}`);
  }
  return Date.now() - started;
}

/** The worker's status file of a session (lib/store/turn_work.ts), or `null`. */
export async function workStatus(
  sb: Sandbox,
  sessionId: string,
): Promise<WorkStatus | null> {
  const path = join(sb.repo.root, ".git", "review-gate", "work", `${sessionId}.status.json`);
  try {
    // sealed (lib/store/sealed.ts): the test reads the value, the gate verifies it
    const file = JSON.parse(await Deno.readTextFile(path));
    return file["review-gate sealed"] === 1 ? file.value : file;
  } catch {
    return null;
  }
}

/** Wait (at most `ms`) until the session's status satisfies `ok`; returns the last status read. */
export async function waitForWork(
  sb: Sandbox,
  sessionId: string,
  ok: (status: WorkStatus) => boolean,
  ms = 30_000,
): Promise<WorkStatus | null> {
  const until = Date.now() + ms;
  let status = await workStatus(sb, sessionId);
  while (Date.now() < until && !(status && ok(status))) {
    await new Promise((r) => setTimeout(r, 100));
    status = await workStatus(sb, sessionId);
  }
  return status;
}

/** The tallies `stats` sums (`work/turns.jsonl`). */
export async function workTallies(sb: Sandbox): Promise<WorkTally[]> {
  const path = join(sb.repo.root, ".git", "review-gate", "work", "turns.jsonl");
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export { runHook };
