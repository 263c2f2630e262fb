/**
 * The hook after each tool call that may have changed files (`hook claude-work` on Claude Code's
 * `PostToolUse` for Edit, Write, MultiEdit, NotebookEdit and Bash; `hook codex-work` on Codex's),
 * docs/design.md "Review while working". It returns fast — it runs after every such call — and
 * prints nothing: with the gate's `review_while_working` on and the session's turn open, it notes
 * "files changed" in the session's poke (lib/store/turn_work.ts) and, unless the session's worker
 * is alive (its recorded pid and start time, as `ps` shows them), starts one: a background job
 * record (lib/store/jobs.ts) and a detached review-gate process (lib/exec/detached.ts) running
 * `hook <agent>-worker` (lib/gates/turn/worker.ts). Two hooks racing start two processes; the
 * worker's lock lets one run. Anything that goes wrong allows silently: the Stop reviews as if no
 * background work had been done.
 *
 * @module
 */
import { ALLOW, type HookInput, type HookOutput } from "../hook_io.ts";
import type { TurnDoor } from "./door.ts";
import { openGate } from "./context.ts";
import { readSessionState } from "../../store/sessions.ts";
import { ensureStateDir } from "../../store/state.ts";
import { pokeWork, readWorkStatus, workDir } from "../../store/turn_work.ts";
import { isRunning } from "../../exec/process_info.ts";

/**
 * `hook <agent>-work`: note that files changed and make sure the session's worker runs.
 *
 * @param input the hook's input (a `PostToolUse` payload)
 * @param door the agent's front door
 * @returns exit 0 with no output, always
 */
export async function runWorkHook(input: HookInput, door: TurnDoor): Promise<HookOutput> {
  if (!door.isToolUse || !door.workerHookName) return ALLOW;
  const opened = await openGate(input, { ...door, isStop: door.isToolUse }, "stop");
  if (opened.kind !== "open") return ALLOW;
  const { gate, repo, payload, config } = opened.gate;
  if (!gate.review_while_working) return ALLOW;
  const state = await ensureStateDir(repo.commonDir);
  const session = await readSessionState(state, payload.session_id);
  if (!session?.baselineTree || !session.turnStartedAt) return ALLOW; // no turn open to review
  const turn = session.turnStartedAt;
  // a tool call after the Stop answered (the agent goes on after a block): the work goes on too
  const now = input.now().getTime();
  await pokeWork(state, payload.session_id, { turn, changedAt: now, answeredAt: undefined });
  const status = await readWorkStatus(state, payload.session_id);
  if (status?.turn === turn && status.ended === undefined) {
    const alive = await isRunning(input.runner, status.process).catch(() => false);
    if (alive) return ALLOW;
  }
  await startWorker(input, {
    ...{ door, state, sessionId: payload.session_id, root: repo.root },
    provider: config.provider,
  });
  return ALLOW;
}

/** Start the session's worker: its job record, then the detached process. */
async function startWorker(
  input: HookInput,
  at: { door: TurnDoor; state: string; sessionId: string; root: string; provider: string },
): Promise<void> {
  if (!input.self) return; // cannot start itself again (a test harness without main.ts)
  const { createJob, jobLogPath, newJobId } = await import("../../store/jobs.ts");
  const { selfArgv, spawnDetached } = await import("../../exec/detached.ts");
  const created = input.now();
  const id = newJobId(created);
  const args = ["hook", at.door.workerHookName!, at.sessionId, at.root, id];
  const log = jobLogPath(at.state, id);
  await Deno.mkdir(workDir(at.state), { recursive: true, mode: 0o700 });
  await createJob(at.state, {
    version: 1,
    id,
    state: "queued",
    createdAt: created.toISOString(),
    updatedAt: created.toISOString(),
    args,
    cwd: at.root,
    target: `${at.door.turnLabel}, reviewed while the agent works`,
    provider: at.provider,
    answerKind: "review",
    work: { sessionId: at.sessionId }, // a worker: no verdict of its own (lib/jobs/worker_job.ts)
    // the worker ends itself (turn over, Stop answered, idle): this ceiling is for `status`
    ceilingSeconds: 24 * 3600,
    log,
  });
  const env = Object.fromEntries(
    Object.entries(input.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  await spawnDetached({ argv: [...selfArgv(input.self), ...args], cwd: at.root, env, log });
}
